package signkit

import (
	"os/exec"
	"strings"
	"testing"
)

// serviceClients are the packages that call the platform's services. A
// receiver of events needs none of them: package webhooks must not import
// them, so that a program that only receives events builds without them.
var serviceClients = []string{
	"github.com/signkit/signkit-go",
	"github.com/signkit/signkit-go/auth",
	"github.com/signkit/signkit-go/forms",
	"github.com/signkit/signkit-go/casefiles",
	"github.com/signkit/signkit-go/subscriptions",
}

// TestReceiverBuildsWithoutTheServiceClients checks, with go list -deps,
// that package webhooks imports no service client (subscriptions imports
// webhooks for its EventType, never the other way round) and builds with
// no module but the standard library and this one.
func TestReceiverBuildsWithoutTheServiceClients(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps",
		"-f", "{{.ImportPath}} {{if not .Standard}}{{with .Module}}{{.Path}}{{end}}{{end}}", "./webhooks").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	own := 0
	for line := range strings.Lines(string(out)) {
		pkg, mod, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch mod {
		case "": // the standard library
			continue
		case "github.com/signkit/signkit-go":
			own++
		default:
			t.Errorf("package webhooks builds with %s (module %s); a receiver must need no module but the SDK's", pkg, mod)
		}
		for _, svc := range serviceClients {
			if pkg == svc {
				t.Errorf("package webhooks imports %s: a receiver must build without the service clients", pkg)
			}
		}
	}
	if own == 0 {
		t.Fatal("go list did not list package webhooks itself: the check is not looking")
	}
}
