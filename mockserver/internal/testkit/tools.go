package testkit

import (
	"os"
	"os/exec"
	"regexp"
	"testing"
)

// NeedTool answers the path of an external program. A missing program skips
// the test on a developer machine and fails it on CI, where .ci/run installs
// it.
func NeedTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed, and CI is set: .ci/run must install it", name)
		}
		t.Skipf("%s is not installed (CI unset): skipping", name)
	}
	return p
}

// secretField matches the secrets of a JSON answer, which test output must
// not carry.
var secretField = regexp.MustCompile(`"(clientSecret|apiSecret|secret)":"[^"]*"`)

// HideSecrets answers body with the values of its secret fields hidden, for
// showing an unexpected answer in test output.
func HideSecrets(body string) string { return secretField.ReplaceAllString(body, `"$1":"[hidden]"`) }
