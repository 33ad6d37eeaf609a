package readme_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestREADMEGoBlocksAreCompiled checks that every ```go block of
// https://github.com/signkit/signkit-go/blob/main/README.md appears, line by
// line (indentation and blank lines aside), in the compiled test files of this
// package, so that the README shows only code that compiles and, for the
// examples, runs.
func TestREADMEGoBlocksAreCompiled(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(readme), "go")
	if len(blocks) < 4 {
		t.Fatalf("README.md has %d Go blocks; the usage, test, webhook and error blocks are expected", len(blocks))
	}
	sources, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	var compiled [][]string
	for _, name := range sources {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		compiled = append(compiled, significantLines(string(b)))
	}
	for i, block := range blocks {
		lines := significantLines(block)
		if !containedInAny(compiled, lines) {
			t.Errorf("README.md Go block %d is not in examples/readme/*_test.go; copy it there (or from there):\n%s", i+1, block)
		}
	}
	// These README functions compile here but do not run: they need an
	// account or a Redis server.
	_ = []any{platformConfig, receiveWebhooks}
}

// significantLines answers the lines of src without indentation, leaving
// out blank lines.
func significantLines(src string) []string {
	var out []string
	for line := range strings.Lines(src) {
		if l := strings.TrimSpace(line); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// containedInAny reports whether want is a contiguous run of lines of one of
// the sources.
func containedInAny(sources [][]string, want []string) bool {
	for _, src := range sources {
		for i := 0; i+len(want) <= len(src); i++ {
			if slices.Equal(src[i:i+len(want)], want) {
				return true
			}
		}
	}
	return false
}
