package doccheck

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// workspaceModules answers the directories that go.work uses, relative to
// root, sorted.
func workspaceModules(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "work", "edit", "-json")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go work edit -json: %v", err)
	}
	var work struct{ Use []struct{ DiskPath string } }
	if err := json.Unmarshal(out, &work); err != nil {
		t.Fatalf("go work edit -json: %v", err)
	}
	var dirs []string
	for _, u := range work.Use {
		dirs = append(dirs, strings.TrimPrefix(filepath.ToSlash(filepath.Clean(u.DiskPath)), "./"))
	}
	slices.Sort(dirs)
	return dirs
}

// readmeTestCommand answers the pattern of README's test command: the
// `go test` line of its first code block.
func readmeTestCommand(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "```sh\n")
	block, _, _ := strings.Cut(rest, "```")
	for _, line := range strings.Split(block, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "go" && f[1] == "test" {
			return f[2]
		}
	}
	t.Fatalf("README's first code block has no go test line:\n%s", block)
	return ""
}

// TestREADMETestCommandCoversEveryModule holds README's test command to the
// workspace: every go.mod of the tree is used by go.work, and go list of the
// command's pattern, run in the workspace, gives packages of every module of
// go.work
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#modules).
func TestREADMETestCommandCoversEveryModule(t *testing.T) {
	root := repoRoot(t)
	used := workspaceModules(t, root)
	tree := modules(t, root)
	slices.Sort(tree)
	for _, dir := range tree {
		if !slices.Contains(used, dir) {
			t.Errorf("%s/go.mod is not in go.work: add `./%s` to its use block", dir, dir)
		}
	}
	pattern := readmeTestCommand(t, root)
	cmd := exec.Command("go", "list", "-e", "-f", "{{with .Module}}{{.Path}}{{end}}", pattern)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	covered := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		covered[m] = true
	}
	for _, dir := range used {
		p, ok := modulePath(filepath.Join(root, dir, "go.mod"))
		if !ok {
			t.Errorf("%s: go.work uses it, but it holds no go.mod with a module line", dir)
		} else if !covered[p] {
			t.Errorf("README's test command (go test %s) runs no package of the module %s (%s)", pattern, p, dir)
		}
	}
}

// TestArchitectureListsEveryModule holds the module table of
// https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#modules
// to the go.mod files of the tree: one row per module directory.
func TestArchitectureListsEveryModule(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := moduleRows(string(doc))
	if len(rows) == 0 {
		t.Fatal(`docs/architecture.md has no table whose first header cell is "Module directory"`)
	}
	for _, msg := range compareModules(rows, modules(t, root)) {
		t.Error(msg)
	}
}

// moduleRows answers the first cells (unquoted) of the table whose first
// header cell is "Module directory".
func moduleRows(doc string) []string {
	var rows []string
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "|") || splitRow(lines[i])[0] != "Module directory" {
			continue
		}
		for i += 2; i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), "|"); i++ {
			rows = append(rows, strings.Trim(splitRow(lines[i])[0], "`"))
		}
	}
	return rows
}

// compareModules answers one message per module directory missing from the
// rows, and per row that names no module.
func compareModules(rows, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		if !slices.Contains(rows, d) {
			out = append(out, fmt.Sprintf("docs/architecture.md, Modules: no row for the module in %s; write | `%s` | what it holds | what it requires |", d, d))
		}
	}
	for _, r := range rows {
		if !slices.Contains(dirs, r) {
			out = append(out, fmt.Sprintf("docs/architecture.md, Modules: the row `%s` names no module (no go.mod there); remove it", r))
		}
	}
	return out
}

func TestCompareModules(t *testing.T) {
	tests := []struct {
		name       string
		rows, dirs []string
		want       []string
	}{
		{"same", []string{".", "a/b"}, []string{".", "a/b"}, nil},
		{"missing row", []string{"."}, []string{".", "a/b"}, []string{"no row for the module in a/b"}},
		{"extra row", []string{".", "gone"}, []string{"."}, []string{"the row `gone` names no module"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compareModules(tt.rows, tt.dirs)
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %d messages", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("message %d = %q, want it to hold %q", i, got[i], w)
				}
			}
		})
	}
}
