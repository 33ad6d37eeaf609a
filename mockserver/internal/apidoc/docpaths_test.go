package apidoc_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The tables of paths in
// https://github.com/signkit/signkit-go/blob/main/README.md and
// https://github.com/signkit/signkit-go/blob/main/docs/any-language.md give
// each call both as the platform's documents write it (under a service's root,
// {Send}/api/v1/…) and as the mock serves it (under its base URL,
// /send/api/v1/…). These tests hold both forms to docs/openapi.json (which
// TestDescriptionMatchesDocs, in mockserver/tests/openapi, holds to the mock's
// routes) and to the table of hosts in
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#hosts, so that a table can
// neither miss a route nor map a root to the wrong prefix.

// op is one method on one path, as the description writes it.
type op struct{ method, path string }

func (o op) String() string { return o.method + " " + o.path }

// describedOps answers the operations of docs/openapi.json outside /mock/.
func describedOps(t *testing.T, root string) map[op]bool {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	b, err := os.ReadFile(filepath.Join(root, "docs", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ops := map[op]bool{}
	for path, item := range doc.Paths {
		if strings.HasPrefix(path, "/mock/") {
			continue
		}
		for method := range item {
			if m := strings.ToUpper(method); slices.Contains(httpMethods, m) {
				ops[op{m, path}] = true
			}
		}
	}
	return ops
}

var (
	httpMethods = []string{"GET", "POST", "PUT", "PATCH", "DELETE"}
	codeSpan    = regexp.MustCompile("`([^`]*)`")
	methodPath  = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE) (\S+)$`)
)

// cellOps reads the calls of one table cell: code spans `METHOD path`, where
// a span of a method alone (`GET`, `PUT /x`) shares the next span's path.
func cellOps(cell string) []op {
	var ops []op
	var pending []string
	for _, m := range codeSpan.FindAllStringSubmatch(cell, -1) {
		span := m[1]
		if slices.Contains(httpMethods, span) {
			pending = append(pending, span)
			continue
		}
		if mp := methodPath.FindStringSubmatch(span); mp != nil {
			for _, method := range append(pending, mp[1]) {
				ops = append(ops, op{method, mp[2]})
			}
		}
		pending = nil
	}
	return ops
}

// tableRows answers the cells of the rows of the markdown table whose header
// line starts with header.
func tableRows(t *testing.T, markdown, header string) [][]string {
	t.Helper()
	var rows [][]string
	in := false
	for line := range strings.Lines(markdown) {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, header):
			in = true
		case in && strings.HasPrefix(line, "|---"):
		case in && strings.HasPrefix(line, "|"):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			rows = append(rows, cells)
		case in:
			return rows
		}
	}
	if len(rows) == 0 {
		t.Fatalf("no table with the header %q", header)
	}
	return rows
}

// platformRoots reads the table of hosts
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#hosts): service name → production
// root and the mock's prefix (its column `u/send` gives "/send").
func platformRoots(t *testing.T, root string) (production, prefix map[string]string) {
	t.Helper()
	production, prefix = map[string]string{}, map[string]string{}
	for _, cells := range tableRows(t, readDoc(t, root, "docs/platform.md"), "| Service | Sandbox | Production |") {
		name := strings.Fields(cells[0])[0] // "Forms (Collect)" → "Forms"
		production[name] = strings.Trim(cells[2], "`")
		prefix[name] = strings.TrimPrefix(strings.Trim(cells[3], "`"), "u")
	}
	return production, prefix
}

func readDoc(t *testing.T, root, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rootCell reads a root cell: "`{Send}` = `https://app.penneo.com/send`"
// → ("Send", "https://app.penneo.com/send"); "`$BASE/send`" → ("", "/send").
func rootCell(cell string) (name, value string) {
	spans := codeSpan.FindAllStringSubmatch(cell, -1)
	if len(spans) == 0 {
		return "", ""
	}
	if first := spans[0][1]; strings.HasPrefix(first, "{") && len(spans) == 2 {
		return strings.Trim(first, "{}"), spans[1][1]
	}
	return "", strings.TrimPrefix(spans[0][1], "$BASE")
}

// checkRoot checks that a table's root cells for service name agree with the
// table of hosts (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#hosts).
func checkRoot(t *testing.T, doc, name, platformCell, mockCell string, production, prefix map[string]string) {
	t.Helper()
	if root, url := rootCell(platformCell); root != name || url != production[name] {
		t.Errorf("%s: %s's platform root reads %q = %q; docs/platform.md gives {%s} = %q", doc, name, root, url, name, production[name])
	}
	if _, p := rootCell(mockCell); p != prefix[name] {
		t.Errorf("%s: %s's mock root reads $BASE%s; docs/platform.md gives u%s", doc, name, p, prefix[name])
	}
}

// serviceName maps a table's service column to the service column of the table
// of hosts (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#hosts).
var serviceName = map[string]string{"Auth": "Auth", "Forms": "Forms", "Send": "Send", "Signing": "Sign", "Webhooks": "Webhook"}

func TestREADMEPathTableGivesBothForms(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	described := describedOps(t, root)
	production, prefix := platformRoots(t, root)
	listed := map[op]bool{}
	for _, cells := range tableRows(t, readDoc(t, root, "README.md"), "| Service | Root on the platform | Root on the mock |") {
		if len(cells) != 4 {
			t.Fatalf("README.md: a row of %d cells: %q", len(cells), cells)
		}
		if name, ok := serviceName[strings.Fields(cells[0])[0]]; ok {
			checkRoot(t, "README.md", name, cells[1], cells[2], production, prefix)
		}
		_, mockPrefix := rootCell(cells[2])
		for _, o := range cellOps(cells[3]) {
			o.path = mockPrefix + o.path
			if !described[o] {
				t.Errorf("README.md lists %s (%s), which the mock does not serve", o, cells[0])
			}
			listed[o] = true
		}
	}
	for _, o := range slices.SortedFunc(maps.Keys(described), func(a, b op) int { return strings.Compare(a.String(), b.String()) }) {
		if !listed[o] {
			t.Errorf("README.md's table of endpoints misses %s", o)
		}
	}
}

func TestAnyLanguagePathTableGivesBothForms(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	doc := readDoc(t, root, "docs/any-language.md")
	described := describedOps(t, root)
	production, prefix := platformRoots(t, root)
	roots := map[string]string{} // {Send} → /send, as the page's root table says
	for _, cells := range tableRows(t, doc, "| Service | Root on the platform") {
		name := serviceName[strings.Fields(cells[0])[0]]
		checkRoot(t, "docs/any-language.md", name, cells[1], cells[2], production, prefix)
		roots["{"+name+"}"] = prefix[name]
	}
	listed := map[op]bool{}
	for _, cells := range tableRows(t, doc, "| Call | On the platform | On the mock") {
		mockOps := cellOps(cells[2])
		if len(mockOps) == 0 {
			t.Errorf("docs/any-language.md: %q lists no call on the mock", cells[0])
		}
		for _, o := range mockOps {
			if !described[o] {
				t.Errorf("docs/any-language.md lists %s (%q), which the mock does not serve", o, cells[0])
			}
			listed[o] = true
		}
		for _, o := range cellOps(cells[1]) {
			rootName, rest, _ := strings.Cut(o.path, "/")
			p, ok := roots[rootName]
			if !ok {
				t.Errorf("docs/any-language.md: %s (%q) is not under a service's root", o, cells[0])
				continue
			}
			if mock := (op{o.method, p + "/" + rest}); !slices.Contains(mockOps, mock) {
				t.Errorf("docs/any-language.md: %s (%q) is %s on the mock, which its row does not list", o, cells[0], mock)
			}
		}
	}
	for o := range described {
		if !listed[o] && !strings.HasPrefix(o.path, "/public/") {
			t.Errorf("docs/any-language.md's table of calls misses %s", o)
		}
	}
}
