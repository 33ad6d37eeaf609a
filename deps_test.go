package signkit

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// sdkModule is the root module: the SDK.
const sdkModule = "github.com/signkit/signkit-go"

// dep is one package that go list -deps names, with its module; Mod is
// empty for the standard library.
type dep struct{ Pkg, Mod string }

// goListDeps answers the packages the patterns build with, themselves
// included (with test set, their tests' too), as go list -deps lists them.
func goListDeps(t *testing.T, test bool, patterns ...string) []dep {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	args := []string{"list", "-deps", "-f", "{{.ImportPath}}\t{{if not .Standard}}{{with .Module}}{{.Path}}{{end}}{{end}}"}
	if test {
		args = append(args, "-test")
	}
	out, err := exec.Command(goBin, append(args, patterns...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", patterns, err)
	}
	var deps []dep
	for line := range strings.Lines(string(out)) {
		pkg, mod, _ := strings.Cut(strings.TrimSpace(line), "\t")
		deps = append(deps, dep{pkg, mod})
	}
	return deps
}

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
	seen := map[string]bool{}
	for _, d := range goListDeps(t, false, ".", "./auth", "./forms", "./casefiles", "./subscriptions", "./webhooks") {
		if d.Mod == "" || d.Mod == sdkModule || seen[d.Mod] {
			continue
		}
		seen[d.Mod] = true
		if !slices.Contains(coreDeps, d.Mod) {
			t.Errorf("a core package builds with %s; only %v are allowed", d.Mod, coreDeps)
		}
	}
	if len(seen) == 0 {
		t.Fatal("go list found no dependency at all: the check is not looking")
	}
}

// testDeps are the modules, beyond coreDeps, that the SDK module's tests may
// build with: the two test libraries of our design and what they import. The
// mock, the Redis stores and every heavier test live in modules of their own
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#modules),
// so that a user's go.sum lists nothing of theirs.
var testDeps = []string{
	"github.com/stretchr/testify",
	"github.com/davecgh/go-spew",
	"github.com/pmezard/go-difflib",
	"go.yaml.in/yaml/v3",
	"github.com/jarcoal/httpmock",
}

// TestSDKTestsStayInTheSDKModule checks, with go list -deps -test over the
// whole SDK module, that no test of an SDK package (internal or external
// test package, directly or through a helper) builds with a module beyond
// coreDeps and testDeps: not the mock's, not the Redis stores', not a
// browser driver. In the workspace such an import would still compile, so
// this test says where the test belongs.
func TestSDKTestsStayInTheSDKModule(t *testing.T) {
	allowed := append(slices.Clone(coreDeps), testDeps...)
	looked := 0
	for _, d := range goListDeps(t, true, "./...") {
		if d.Mod == sdkModule {
			looked++
			continue
		}
		if d.Mod != "" && !slices.Contains(allowed, d.Mod) {
			t.Errorf("a test in the SDK module builds with %s (module %s); move it to the module of what it needs, "+
				"tests/ for tests against the mock", d.Pkg, d.Mod)
		}
	}
	if looked < 20 {
		t.Fatalf("go list found %d packages of %s: the check is not looking", looked, sdkModule)
	}
}
