package signkit

import (
	"slices"
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
	own := 0
	for _, d := range goListDeps(t, false, "./webhooks") {
		switch d.Mod {
		case "": // the standard library
			continue
		case sdkModule:
			own++
		default:
			t.Errorf("package webhooks builds with %s (module %s); a receiver must need no module but the SDK's", d.Pkg, d.Mod)
		}
		if slices.Contains(serviceClients, d.Pkg) {
			t.Errorf("package webhooks imports %s: a receiver must build without the service clients", d.Pkg)
		}
	}
	if own == 0 {
		t.Fatal("go list did not list package webhooks itself: the check is not looking")
	}
}
