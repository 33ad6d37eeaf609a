package doccheck

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var (
	// linkRE finds a link to a file or directory of this repository.
	linkRE = regexp.MustCompile(`https://github\.com/signkit/signkit-go/(blob|tree)/main/([A-Za-z0-9_./-]*)(#[^\s()<>"'` + "`" + `]*)?`)
	// anyURLRE finds any URL, so that a path inside one is not taken for a
	// bare citation.
	anyURLRE = regexp.MustCompile(`https?://[^\s"'` + "`" + `<>]+`)
	// barePathRE finds a repository path to a document; the rune before it
	// is checked apart (no word, '.', '/' or '-': then it is part of
	// something longer).
	barePathRE = regexp.MustCompile(`(?:[\w.-]+/)*(?:docs/[\w.-]+\.md|README\.md|BENCHMARKS\.md|CHANGELOG\.md)`)
	// quotedSectionRE finds the section a bare citation names: `, "Section"`.
	quotedSectionRE = regexp.MustCompile(`^,?\s+\(?"([^"]+)"`)
)

// comment is one comment token of a Go file.
type comment struct {
	file string // relative to the repository root, slash-separated
	line int    // of the comment's first line
	text string
}

// lineOf answers the line of the byte at off in c.text.
func (c comment) lineOf(off int) int {
	return c.line + strings.Count(c.text[:off], "\n")
}

// goComments answers every comment of every .go file under root, skipping
// hidden directories and node_modules.
func goComments(t *testing.T, root string) []comment {
	t.Helper()
	var out []comment
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		out = append(out, fileComments(filepath.ToSlash(rel), src)...)
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	if len(out) == 0 {
		t.Fatalf("no comment in any .go file under %s: the check is not looking", root)
	}
	return out
}

// fileComments scans one file's comments with go/scanner, so that string
// and rune literals are never read as comments.
func fileComments(rel string, src []byte) []comment {
	fset := token.NewFileSet()
	file := fset.AddFile(rel, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, func(token.Position, string) {}, scanner.ScanComments)
	var out []comment
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT {
			out = append(out, comment{file: rel, line: fset.Position(pos).Line, text: lit})
		}
	}
}

// docIndex reads the anchors of the repository's markdown files, once each.
type docIndex struct {
	root    string
	anchors map[string]map[string]bool // path → anchor → present; nil: not markdown or absent
}

func (x *docIndex) headingAnchors(rel string) map[string]bool {
	if a, ok := x.anchors[rel]; ok {
		return a
	}
	var a map[string]bool
	if data, err := os.ReadFile(filepath.Join(x.root, filepath.FromSlash(rel))); err == nil {
		a = map[string]bool{}
		for _, h := range headings(data) {
			a[h.anchor] = true
		}
	}
	x.anchors[rel] = a
	return a
}

// TestDocLinks checks the links to the repository's files in Go comments
// and refuses a document cited by a bare path; the package doc says what
// counts.
func TestDocLinks(t *testing.T) {
	root := repoRoot(t)
	idx := &docIndex{root: root, anchors: map[string]map[string]bool{}}
	links := 0
	for _, c := range goComments(t, root) {
		for _, m := range linkRE.FindAllStringSubmatchIndex(c.text, -1) {
			links++
			if msg := checkLink(idx, c.text[m[2]:m[3]], strings.TrimRight(c.text[m[4]:m[5]], ".,:;?!"), anchorOf(c.text, m)); msg != "" {
				t.Errorf("%s:%d: %s", c.file, c.lineOf(m[0]), msg)
			}
		}
		for _, msg := range bareCitations(idx, c) {
			t.Error(msg)
		}
	}
	if links == 0 {
		t.Fatal("no link to a file of the repository in any comment: the check is not looking")
	}
}

// anchorOf answers a link's anchor without its '#' and without the
// punctuation that ends a sentence.
func anchorOf(text string, m []int) string {
	if m[6] < 0 {
		return ""
	}
	return strings.TrimRight(text[m[6]+1:m[7]], ".,:;?!")
}

// checkLink answers what is wrong with one link, or "".
func checkLink(idx *docIndex, kind, rel, anchor string) string {
	rel = strings.TrimSuffix(rel, "/")
	url := repoURL + rel
	info, err := os.Stat(filepath.Join(idx.root, filepath.FromSlash(rel)))
	switch {
	case rel == "" || err != nil:
		return fmt.Sprintf("%s links to %s, which is not in the repository", url, rel)
	case kind == "blob" && info.IsDir():
		return fmt.Sprintf("%s is a directory: write https://github.com/signkit/signkit-go/tree/main/%s", url, rel)
	case kind == "tree" && !info.IsDir():
		return fmt.Sprintf("%s is a file: write %s", rel, url)
	case anchor == "":
		return ""
	}
	anchors := idx.headingAnchors(rel)
	if !strings.HasSuffix(rel, ".md") || anchors == nil {
		return fmt.Sprintf("%s#%s: only a markdown file's headings have anchors here; drop #%s", url, anchor, anchor)
	}
	if !anchors[anchor] {
		return fmt.Sprintf("%s#%s: %s has no heading with the anchor %q; its anchors: %s",
			url, anchor, rel, anchor, strings.Join(slices.Sorted(maps.Keys(anchors)), " "))
	}
	return ""
}

// bareCitations answers one message per document that c cites by a bare
// path, saying what to write instead.
func bareCitations(idx *docIndex, c comment) []string {
	text := anyURLRE.ReplaceAllStringFunc(c.text, func(u string) string { return strings.Repeat(" ", len(u)) })
	var out []string
	for _, m := range barePathRE.FindAllStringIndex(text, -1) {
		if m[0] > 0 && strings.ContainsAny(text[m[0]-1:m[0]], "./-_") || m[0] > 0 && isWordByte(text[m[0]-1]) {
			continue
		}
		if m[1] < len(text) && (isWordByte(text[m[1]]) || text[m[1]] == '/' || text[m[1]] == '-') {
			continue
		}
		cited := text[m[0]:m[1]]
		url, note := suggestion(idx, c.file, cited, text[m[1]:])
		out = append(out, fmt.Sprintf("%s:%d: the comment cites %s by its path, which pkg.go.dev shows as dead text; write %s instead%s",
			c.file, c.lineOf(m[0]), cited, url, note))
	}
	return out
}

func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// suggestion answers the URL that replaces a bare citation: the file (a bare
// name is the one in the Go file's directory or the nearest directory above
// it that has one) and, when the citation names a section in quotes that is
// a heading of the file, its anchor.
func suggestion(idx *docIndex, gofile, cited, after string) (url, note string) {
	rel := cited
	if !strings.Contains(cited, "/") {
		for dir := path.Dir(gofile); ; dir = path.Dir(dir) {
			candidate := path.Join(dir, cited)
			if _, err := os.Stat(filepath.Join(idx.root, filepath.FromSlash(candidate))); err == nil {
				rel = candidate
				break
			}
			if dir == "." || dir == "/" {
				break
			}
		}
	}
	url = repoURL + rel
	m := quotedSectionRE.FindStringSubmatch(after)
	if m == nil {
		return url, " (with #<anchor> of the heading, when the comment names a section)"
	}
	data, err := os.ReadFile(filepath.Join(idx.root, filepath.FromSlash(rel)))
	if err != nil {
		return url, ""
	}
	name := strings.Join(strings.Fields(m[1]), " ")
	for _, h := range headings(data) {
		short := h.text
		for _, sep := range []string{" — ", " ("} {
			short, _, _ = strings.Cut(short, sep)
		}
		if strings.EqualFold(h.text, name) || strings.EqualFold(short, name) {
			return url + "#" + h.anchor, " of the path and the section's name"
		}
	}
	return url + "#<anchor>", fmt.Sprintf(" (the anchor of the heading that holds %q)", name)
}

func TestBareCitations(t *testing.T) {
	root := repoRoot(t)
	idx := &docIndex{root: root, anchors: map[string]map[string]bool{}}
	tests := []struct {
		name, file, text string
		want             []string // substrings, one per expected message
	}{
		{"section", "webhooks/x.go", `// see docs/webhooks.md, "What a 2xx guarantees".`,
			[]string{"webhooks/x.go:7: the comment cites docs/webhooks.md by its path, which pkg.go.dev shows as dead text; write " +
				repoURL + "docs/webhooks.md#what-a-2xx-guarantees instead of the path and the section's name"}},
		{"bare name", "examples/oauth2-authcode/main.go", "// README.md here",
			[]string{"cites README.md by its path, which pkg.go.dev shows as dead text; write " + repoURL + "examples/oauth2-authcode/README.md instead (with"}},
		{"root readme", "casefiles/x.go", "// as in README.md and BENCHMARKS.md",
			[]string{repoURL + "README.md instead (with", repoURL + "BENCHMARKS.md instead (with"}},
		{"second line", "auth/x.go", "/* one\n   two docs/retries.md */", []string{"auth/x.go:8: the comment cites docs/retries.md"}},
		{"url", "auth/x.go", "// " + repoURL + "docs/retries.md and " + repoURL + "README.md#signkit-go", nil},
		{"longer name", "auth/x.go", "// mydocs/x.md, NOTREADME.md, README.mdx, docs/openapi.json, docs/a.md/b", nil},
		{"vendor", "auth/x.go", "// Penneo/sdk-php docs/casefile.md", []string{"cites docs/casefile.md by its path"}},
		{"unknown section", "auth/x.go", `// docs/retries.md, "Nothing like it"`,
			[]string{repoURL + `docs/retries.md#<anchor> instead (the anchor of the heading that holds "Nothing like it")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bareCitations(idx, comment{file: tt.file, line: 7, text: tt.text})
			if len(got) != len(tt.want) {
				t.Fatalf("got %d messages, want %d: %q", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("message %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

func TestCheckLink(t *testing.T) {
	root := repoRoot(t)
	idx := &docIndex{root: root, anchors: map[string]map[string]bool{}}
	tests := []struct {
		kind, rel, anchor, want string // want: a substring of the message, "" for none
	}{
		{"blob", "docs/webhooks.md", "what-a-2xx-guarantees", ""},
		{"blob", "docs/webhooks.md", "", ""},
		{"blob", "docs/webhooks.md", "what-a-3xx-guarantees", `no heading with the anchor "what-a-3xx-guarantees"`},
		{"blob", "docs/nothere.md", "", "not in the repository"},
		{"blob", "go.mod", "module", "only a markdown file's headings"},
		{"blob", "docs", "", "is a directory"},
		{"tree", "docs", "", ""},
		{"tree", "go.mod", "", "is a file"},
	}
	for _, tt := range tests {
		got := checkLink(idx, tt.kind, tt.rel, tt.anchor)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("checkLink(%s, %s, %s) = %q, want %q", tt.kind, tt.rel, tt.anchor, got, tt.want)
		}
	}
}
