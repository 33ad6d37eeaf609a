package mockserver

import (
	"os/exec"
	"strings"
	"testing"
)

// sdkInternal is the prefix of the SDK's internal packages, which the mock must
// not import: it reaches the SDK only through its exported API, so that the two
// can be versioned apart
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#the-mock-what-users-tests-import).
const sdkInternal = "github.com/signkit/signkit-go/internal/"

// TestMockImportsNoSDKInternals lists, with go list, what every package of
// the mock and of its binary imports, its tests' imports included, and
// fails on an import of the SDK's internal/. A test rig that the mock's
// tests need belongs in the mock's own internal/testkit.
func TestMockImportsNoSDKInternals(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	const format = `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}` +
		`{{range .TestImports}} test:{{.}}{{end}}{{range .XTestImports}} test:{{.}}{{end}}`
	out, err := exec.Command(goBin, "list", "-f", format, "./...", "../cmd/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	packages, sdkImports := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		packages++
		for _, imp := range fields[1:] {
			path, inTest := strings.CutPrefix(imp, "test:")
			if path == "github.com/signkit/signkit-go" {
				sdkImports++
			}
			if !strings.HasPrefix(path, sdkInternal) {
				continue
			}
			if inTest {
				t.Errorf("a test of %s imports %s: the mock's tests reach the SDK through its exported API (a rig goes in mockserver/internal/testkit)", fields[0], path)
			} else {
				t.Errorf("%s imports %s: the mock reaches the SDK only through its exported API", fields[0], path)
			}
		}
	}
	if packages < 10 || sdkImports == 0 {
		t.Fatalf("go list found %d packages, %d importing package signkit: the check is not looking", packages, sdkImports)
	}
}
