package readme_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMEOtherLanguageBlocksAreTested checks that every ```python and ```js
// block of https://github.com/signkit/signkit-go/blob/main/README.md is a
// verbatim excerpt of a file under tests/python or tests/node, which CI runs
// against the mock binary with pytest and node --test (not go test: they need
// the binary, pytest and Node), so that README shows only code that runs.
func TestREADMEOtherLanguageBlocksAreTested(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, pattern := range []string{"tests/python/*.py", "tests/node/*.mjs"} {
		names, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pattern)))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			sources = append(sources, string(b))
		}
	}
	counts := map[string]int{}
	for _, lang := range []string{"python", "js"} {
		for i, block := range fencedBlocks(string(readme), lang) {
			counts[lang]++
			if !containedIn(sources, block) {
				t.Errorf("README.md %s block %d is not, verbatim, in tests/python/*.py or tests/node/*.mjs; copy it there (or from there):\n%s",
					lang, i+1, block)
			}
		}
	}
	// The pytest fixture, a test using it, the webhook signature check; the node:test fixture.
	if counts["python"] < 3 || counts["js"] < 1 {
		t.Errorf("README.md has %d python and %d js blocks; at least 3 and 1 are expected", counts["python"], counts["js"])
	}
}

// fencedBlocks answers the contents of the ```lang fenced blocks of markdown.
func fencedBlocks(markdown, lang string) []string {
	var blocks []string
	var cur *strings.Builder
	for line := range strings.Lines(markdown) {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && trimmed == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line)
		}
	}
	return blocks
}

func containedIn(sources []string, block string) bool {
	for _, s := range sources {
		if strings.Contains(s, block) {
			return true
		}
	}
	return false
}
