package doccheck

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rootModule is the import path of the root module; the architecture doc
// writes every package relative to it, and the root package as `signkit`.
const rootModule = "github.com/signkit/signkit-go"

// pkgRow is one row of a package table of the architecture doc.
type pkgRow struct {
	line    int
	name    string   // as written: `forms`, `mockserver/internal/app`, `signkit` for the root
	imports []string // as written, braces expanded; nil when the table has no imports column
	hasImp  bool
}

var (
	backquotedRE = regexp.MustCompile("`([^`]+)`")
	bracesRE     = regexp.MustCompile(`^(.*)\{([^{}]*)\}(.*)$`)
)

// expandBraces turns a/{b,c} into a/b and a/c.
func expandBraces(s string) []string {
	m := bracesRE.FindStringSubmatch(s)
	if m == nil {
		return []string{s}
	}
	var out []string
	for _, part := range strings.Split(m[2], ",") {
		out = append(out, expandBraces(m[1]+strings.TrimSpace(part)+m[3])...)
	}
	return out
}

// splitRow answers a markdown table row's cells.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	cells := strings.Split(line, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// packageTables reads every table of the doc whose first header cell is
// "Package"; a header cell starting with "Imports" marks the imports column.
func packageTables(doc string) ([]pkgRow, []string) {
	var rows []pkgRow
	var problems []string
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		head := splitRow(lines[i])
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") || head[0] != "Package" {
			continue
		}
		impCol := slices.IndexFunc(head, func(c string) bool { return strings.HasPrefix(c, "Imports") })
		for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
			cells := splitRow(lines[i])
			names := backquotedRE.FindAllStringSubmatch(cells[0], -1)
			if len(names) != 1 {
				problems = append(problems, fmt.Sprintf("docs/architecture.md:%d: a row names one package, in backquotes, in its first cell: %q", i+1, cells[0]))
				continue
			}
			row := pkgRow{line: i + 1, name: names[0][1], hasImp: impCol >= 0}
			if impCol >= 0 && impCol < len(cells) {
				for _, m := range backquotedRE.FindAllStringSubmatch(cells[impCol], -1) {
					row.imports = append(row.imports, expandBraces(m[1])...)
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, problems
}

// listedPackage is what go list says of one package.
type listedPackage struct {
	module  string // the module's directory, relative to the repository root
	imports []string
}

// modules answers the directory of every module in the tree (each go.mod
// outside hidden directories, .ci, testdata and node_modules), relative to
// root.
func modules(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "go.mod" {
			rel, err := filepath.Rel(root, filepath.Dir(p))
			if err != nil {
				return err
			}
			dirs = append(dirs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	return dirs
}

// goList answers every package of every module under root, by its name
// relative to the root module (`signkit` for the root package), with its
// imports from this repository, named the same way.
func goList(t *testing.T, root string) map[string]listedPackage {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	out := map[string]listedPackage{}
	for _, dir := range modules(t, root) {
		cmd := exec.Command(goBin, "list", "-e", "-f", `{{.ImportPath}}{{"\t"}}{{join .Imports " "}}`, "./...")
		cmd.Dir = filepath.Join(root, filepath.FromSlash(dir))
		data, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("go list ./... in %s: %v\n%s", dir, err, stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			path, imports, _ := strings.Cut(line, "\t")
			var own []string
			for _, imp := range strings.Fields(imports) {
				if name, ok := shortName(imp); ok {
					own = append(own, name)
				}
			}
			name, ok := shortName(path)
			if !ok {
				t.Errorf("go list in %s gives %s, outside %s", dir, path, rootModule)
				continue
			}
			out[name] = listedPackage{module: dir, imports: own}
		}
	}
	if len(out) == 0 {
		t.Fatal("go list found no package: the check is not looking")
	}
	return out
}

// shortName writes an import path of this repository as the architecture doc
// does.
func shortName(importPath string) (string, bool) {
	if importPath == rootModule {
		return "signkit", true
	}
	rest, ok := strings.CutPrefix(importPath, rootModule+"/")
	return rest, ok
}

// TestArchitectureListsEveryPackage holds the package tables of
// https://github.com/signkit/signkit-go/blob/main/docs/architecture.md to go
// list: each package of each module of the tree in one row, no row for a
// package go list does not know, and each row's imports from this repository
// exactly those of the package's non-test files.
func TestArchitectureListsEveryPackage(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows, problems := packageTables(string(doc))
	for _, p := range problems {
		t.Error(p)
	}
	for _, msg := range compareTables(rows, goList(t, root)) {
		t.Error(msg)
	}
}

// compareTables answers one message per disagreement between the rows and go list.
func compareTables(rows []pkgRow, listed map[string]listedPackage) []string {
	var out []string
	seen := map[string]int{}
	for _, r := range rows {
		if first, dup := seen[r.name]; dup {
			out = append(out, fmt.Sprintf("docs/architecture.md:%d: `%s` has a row already, at line %d: one row per package", r.line, r.name, first))
			continue
		}
		seen[r.name] = r.line
		pkg, ok := listed[r.name]
		if !ok {
			out = append(out, fmt.Sprintf("docs/architecture.md:%d: `%s` is no package of any module of the tree (go list ./... in each module): remove its row, or rename it to the package's new path", r.line, r.name))
			continue
		}
		if !r.hasImp {
			continue
		}
		want := slices.Sorted(slices.Values(pkg.imports))
		got := slices.Sorted(slices.Values(r.imports))
		if !slices.Equal(got, want) {
			out = append(out, fmt.Sprintf("docs/architecture.md:%d: `%s` imports %s from this repository (go list -f '{{.Imports}}' in module %s), the row says %s: write %s in its imports cell",
				r.line, r.name, listOrNone(want), pkg.module, listOrNone(got), importsCell(want)))
		}
	}
	var missing []string
	for name := range listed {
		if _, ok := seen[name]; !ok {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	for _, name := range missing {
		pkg := listed[name]
		out = append(out, fmt.Sprintf("docs/architecture.md has no row for `%s` (module %s): add | `%s` | <its one job> | %s | to the table of its part of the tree",
			name, pkg.module, name, importsCell(slices.Sorted(slices.Values(pkg.imports)))))
	}
	return out
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, ", ")
}

// importsCell writes a list of imports as a table cell: `a`, `b`, or — for none.
func importsCell(names []string) string {
	if len(names) == 0 {
		return "—"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	return strings.Join(quoted, ", ")
}

func TestPackageTables(t *testing.T) {
	doc := "# A\n\n| Package | Its one job | Imports from this repository |\n|---|---|---|\n" +
		"| `signkit` | the way in | `auth`, `internal/{retry,transport}` |\n" +
		"| `auth` | tokens | — |\n" +
		"| `a`, `b` | two |  |\n\ntext\n\n| Name | x |\n|---|---|\n| `c` | y |\n\n" +
		"| Package | Its one job |\n|---|---|\n| `d` | no imports column |\n"
	rows, problems := packageTables(doc)
	if len(problems) != 1 || !strings.Contains(problems[0], "docs/architecture.md:7:") {
		t.Errorf("problems = %q, want one for line 7", problems)
	}
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%s:%d:%v:%v", r.name, r.line, r.hasImp, r.imports))
	}
	want := []string{"signkit:5:true:[auth internal/retry internal/transport]", "auth:6:true:[]", "d:17:false:[]"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("rows = %v, want %v", got, want)
	}
}

func TestCompareTables(t *testing.T) {
	listed := map[string]listedPackage{
		"signkit":          {module: ".", imports: []string{"auth", "forms"}},
		"auth":             {module: "."},
		"forms":            {module: ".", imports: []string{"auth"}},
		"bench":            {module: "bench", imports: []string{"webhooks"}},
		"mockserver/inner": {module: "."},
	}
	rows := []pkgRow{
		{line: 3, name: "signkit", hasImp: true, imports: []string{"forms", "auth"}},
		{line: 4, name: "auth", hasImp: true},
		{line: 5, name: "forms", hasImp: true, imports: []string{"auth", "casefiles"}},
		{line: 6, name: "auth", hasImp: true},
		{line: 7, name: "mockserver/old", hasImp: true},
		{line: 8, name: "mockserver/inner"},
	}
	got := compareTables(rows, listed)
	want := []string{
		"docs/architecture.md:5: `forms` imports auth from this repository (go list -f '{{.Imports}}' in module .), the row says auth, casefiles: write `auth` in its imports cell",
		"docs/architecture.md:6: `auth` has a row already, at line 4: one row per package",
		"docs/architecture.md:7: `mockserver/old` is no package of any module of the tree",
		"docs/architecture.md has no row for `bench` (module bench): add | `bench` | <its one job> | `webhooks` | to the table",
	}
	if len(got) != len(want) {
		t.Fatalf("got %d messages, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("message %d:\n got %s\nwant %s…", i, got[i], want[i])
		}
	}
}
