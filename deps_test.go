package signkit

import (
	"os/exec"
	"slices"
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
