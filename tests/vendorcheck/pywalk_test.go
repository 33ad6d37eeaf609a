package vendorcheck

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPythonReadmeWalk runs tests/python/readme_walk.py, which follows
// README's "Using the mock from another language" with the Python standard
// library only, against a freshly built signkit-mock: the API Keys Grant,
// a form with multi-entry inputs, its submission, a Send case file,
// signing on the signer's page, and verified webhook events.
func TestPythonReadmeWalk(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		err = fmt.Errorf("python3 is not installed (.ci/run installs it): %w", err)
	}
	need(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := BuildMock(ctx, root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mock, err := StartMock(ctx, bin, "-job-delay", "200ms")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mock.Stop)
	out, err := exec.CommandContext(ctx, python, filepath.Join(root, "tests", "python", "readme_walk.py"), mock.URL).CombinedOutput()
	t.Logf("python walk:\n%s", out)
	if err != nil {
		t.Fatalf("the Python walk failed: %v", err)
	}
	if !strings.Contains(string(out), "python walk: every step passed") {
		t.Fatal("the Python walk did not reach its end")
	}
}
