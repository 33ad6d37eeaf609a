package mockserver

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// TestCurlWalkthrough runs testdata/curl-walkthrough.sh (curl, openssl and
// base64 only) against a listening server.
func TestCurlWalkthrough(t *testing.T) {
	t.Parallel()
	bash := testkit.NeedTool(t, "bash")
	for _, tool := range []string{"curl", "openssl", "base64"} {
		testkit.NeedTool(t, tool)
	}
	s := Start(t)
	cmd := exec.Command(bash, "testdata/curl-walkthrough.sh", s.URL())
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("script did not finish in 60s:\n%s", out)
	}
	if err != nil || !strings.Contains(string(out), "walkthrough ok") {
		t.Fatalf("script: %v\n%s", err, out)
	}
	_, _, n := s.core.Forms.Counts()
	if n != 1 {
		t.Fatalf("%d submissions stored, want 1", n)
	}
}
