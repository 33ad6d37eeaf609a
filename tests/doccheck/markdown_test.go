package doccheck

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoURL is the prefix of every link to a file of this repository.
const repoURL = "https://github.com/signkit/signkit-go/blob/main/"

// repoRoot answers the repository's root: the directory above this package
// whose go.mod declares the root module.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if path, ok := modulePath(filepath.Join(dir, "go.mod")); ok && path == "github.com/signkit/signkit-go" {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of github.com/signkit/signkit-go above the test's directory")
		}
		dir = parent
	}
}

// modulePath reads the module line of a go.mod.
func modulePath(gomod string) (string, bool) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			p := strings.TrimSpace(rest)
			if u, err := strconv.Unquote(p); err == nil {
				p = u
			}
			return p, true
		}
	}
	return "", false
}

var (
	headingRE  = regexp.MustCompile(`^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$`)
	fenceRE    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	mdLinkRE   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTagRE  = regexp.MustCompile(`<[^>]+>`)
	emphasisRE = strings.NewReplacer("`", "", "*", "")
)

// heading is one heading of a markdown file.
type heading struct {
	text   string // as rendered: links, tags, backquotes and asterisks removed
	anchor string
	line   int
}

// headings answers the headings of a markdown file outside fenced code,
// with the anchors GitHub gives them.
func headings(md []byte) []heading {
	var out []heading
	seen := map[string]int{}
	fence := ""
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := fenceRE.FindStringSubmatch(line); m != nil {
			switch {
			case fence == "":
				fence = m[1]
			case strings.HasPrefix(m[1], fence[:1]) && len(m[1]) >= len(fence):
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		text := renderedText(m[2])
		base := slug(text)
		anchor := base
		if k := seen[base]; k > 0 {
			anchor = base + "-" + strconv.Itoa(k)
		}
		seen[base]++
		out = append(out, heading{text: text, anchor: anchor, line: n})
	}
	return out
}

// renderedText is a heading's text as GitHub shows it, near enough for its
// anchor: links keep their text, tags, backquotes and asterisks go.
func renderedText(s string) string {
	s = mdLinkRE.ReplaceAllString(s, "$1")
	s = htmlTagRE.ReplaceAllString(s, "")
	return strings.TrimSpace(emphasisRE.Replace(s))
}

// slug is GitHub's anchor of a heading's text: lowercase, every rune but
// letters, marks, digits, connector punctuation ('_'), '-' and ' ' dropped,
// spaces turned into '-'.
func slug(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || unicode.Is(unicode.Pc, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestSlug(t *testing.T) {
	tests := []struct{ heading, want string }{
		{"What a 2xx guarantees", "what-a-2xx-guarantees"},
		{"Forms (Collect) — `{Forms}/v1/...`", "forms-collect--formsv1"},
		{"The queue contract (`webhooks/queue`)", "the-queue-contract-webhooksqueue"},
		{"Send, signing simulation, events and emails", "send-signing-simulation-events-and-emails"},
		{"[Linked](https://example.com) *bold* and snake_case", "linked-bold-and-snake_case"},
		{"Tom's café: 100%!", "toms-café-100"},
	}
	for _, tt := range tests {
		if got := slug(renderedText(tt.heading)); got != tt.want {
			t.Errorf("slug(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

func TestHeadings(t *testing.T) {
	md := "# Title\n\nText\n\n## Usage\n\n```sh\n# not a heading\n```\n\n## Usage\n\n~~~\n## nor this\n~~~\n### Usage ###\n    # indented code\n"
	var got []string
	for _, h := range headings([]byte(md)) {
		got = append(got, h.anchor)
	}
	want := []string{"title", "usage", "usage-1", "usage-2"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("anchors = %v, want %v", got, want)
	}
}
