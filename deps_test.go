package signkit

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// coreDeps are the only modules outside the standard library and this
// module that the core packages (what users import) may build with; the
// mock's and the tests' dependencies must never reach users' builds.
var coreDeps = []string{
	"github.com/google/go-querystring",
	"github.com/hashicorp/go-cleanhttp",
	"github.com/hashicorp/go-retryablehttp",
}

// TestCorePackagesDependOnlyOnTheirThree checks, with go list -deps, what
// the core packages build with.
func TestCorePackagesDependOnlyOnTheirThree(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{if not .Standard}}{{with .Module}}{{.Path}}{{end}}{{end}}",
		".", "./auth", "./forms", "./casefiles", "./subscriptions", "./webhooks").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, mod := range strings.Fields(string(out)) {
		if mod == "github.com/signkit/signkit-go" || seen[mod] {
			continue
		}
		seen[mod] = true
		if !slices.Contains(coreDeps, mod) {
			t.Errorf("a core package builds with %s; only %v are allowed", mod, coreDeps)
		}
	}
	if len(seen) == 0 {
		t.Fatal("go list found no dependency at all: the check is not looking")
	}
}

// mockPath is the mock server's package; neither it nor anything under it
// may be imported by a test of the SDK's packages: the SDK's module will
// not hold the mock, so its tests must not need it. Tests of the SDK
// against the mock live under tests/sdk.
const mockPath = "github.com/signkit/signkit-go/mockserver"

// sdkPatterns are the SDK's packages: what users import, with their
// internals.
var sdkPatterns = []string{".", "./auth", "./forms", "./casefiles", "./subscriptions", "./webhooks/...", "./internal/..."}

// testRigs are the packages under internal/ that are not the SDK's: test
// rigs and checks that move to modules of their own, with the mock or with
// what they test, and may need the mock.
var testRigs = map[string]string{
	"github.com/signkit/signkit-go/internal/vendorcheck": "runs the vendor's clients against the mock; moves with the tests that need the mock",
	"github.com/signkit/signkit-go/internal/hardening":   "the fault matrix and load tests of the SDK against the mock; moves with the tests that need the mock",
	"github.com/signkit/signkit-go/internal/redistest":   "starts redis-server for the Redis stores' tests; moves with the Redis stores",
	"github.com/signkit/signkit-go/internal/redisproxy":  "a fault proxy in front of Redis for the Redis stores' tests; moves with the Redis stores",
	"github.com/signkit/signkit-go/internal/doccheck":    "checks the docs against every module's packages, the mock's included; moves out of the SDK's module",
}

// TestSDKTestsDoNotImportTheMock checks, with go list -test, that no test
// of an SDK package (internal or external test package, directly or
// through a helper) imports the mock server or a package under it.
func TestSDKTestsDoNotImportTheMock(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	out, err := exec.Command(goBin, append([]string{"list"}, sdkPatterns...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if _, rig := testRigs[p]; !rig && p != mockPath && !strings.HasPrefix(p, mockPath+"/") {
			pkgs = append(pkgs, p)
		}
	}
	out, err = exec.Command(goBin, append([]string{"list", "-test", "-f",
		"{{.ImportPath}}\t{{.Dir}}\t{{join .Imports \" \"}} {{join .Deps \" \"}}"}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list -test: %v", err)
	}
	variants := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.SplitN(line, "\t", 3)
		if len(fields) != 3 {
			t.Fatalf("go list -test: unexpected line %q", line)
		}
		path, dir, deps := fields[0], fields[1], fields[2]
		if !strings.Contains(path, " [") {
			continue // the package as users build it: TestCorePackagesDependOnlyOnTheirThree's matter
		}
		variants++
		if slices.ContainsFunc(strings.Fields(deps), isMock) {
			t.Errorf("a test of %s needs the mock server (%s); move it to tests/sdk/: %s",
				basePackage(path), path, strings.Join(mockImporters(t, dir), ", "))
		}
	}
	if variants < len(pkgs)/2 {
		t.Fatalf("go list -test gave %d test variants for %d packages: the check is not looking", variants, len(pkgs))
	}
}

func isMock(p string) bool { return p == mockPath || strings.HasPrefix(p, mockPath+"/") }

// basePackage is the package of a test variant: "p [p.test]" or
// "p_test [p.test]" gives p.
func basePackage(variant string) string {
	_, p, _ := strings.Cut(variant, "[")
	return strings.TrimSuffix(p, ".test]")
}

// mockImporters names the test files in dir that import the mock or a
// package under it themselves; when none does, the mock comes through a
// helper package.
func mockImporters(t *testing.T, dir string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, f := range files {
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); isMock(p) {
				found = append(found, filepath.Base(f)+" imports "+p)
			}
		}
	}
	if len(found) == 0 {
		return []string{"through a package its tests import"}
	}
	return found
}
