//go:build live

package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestQuickstartLive runs the quickstart's flow against the platform's
// sandbox, for users who have an account. It is opt-in:
//
//	SIGNKIT_CLIENT_ID=… SIGNKIT_CLIENT_SECRET=… SIGNKIT_API_KEY=… SIGNKIT_API_SECRET=… \
//	  go test -tags live -run TestQuickstartLive -v ./examples/quickstart
//
// SIGNKIT_ENV picks the environment (sandbox, the default). Optional:
// SIGNKIT_LIVE_WEBHOOK_URL, a public https URL that forwards to the local
// receiver (then the webhook steps run), and SIGNKIT_LIVE_CASEFILE, the id
// of a completed case file (then the signed PDF is downloaded). The steps
// that need a person or the mock are printed as skipped.
func TestQuickstartLive(t *testing.T) {
	for _, name := range []string{"SIGNKIT_CLIENT_ID", "SIGNKIT_CLIENT_SECRET", "SIGNKIT_API_KEY", "SIGNKIT_API_SECRET"} {
		if os.Getenv(name) == "" {
			t.Fatalf("the live test needs %s (and the other SIGNKIT_* credentials) in the environment", name)
		}
	}
	args := []string{"-out", t.TempDir() + "/signed.pdf"}
	if u := os.Getenv("SIGNKIT_LIVE_WEBHOOK_URL"); u != "" {
		args = append(args, "-webhook-url", u)
	}
	if id := os.Getenv("SIGNKIT_LIVE_CASEFILE"); id != "" {
		args = append(args, "-casefile", id)
	}
	var stdout bytes.Buffer
	if err := run(t.Context(), args, os.Getenv, &stdout); err != nil {
		t.Fatalf("run: %v\n%s", err, stdout.String())
	}
	got := stdout.String()
	t.Logf("output:\n%s", got)
	if strings.Contains(got, "FAILED") || strings.Contains(got, "embedded mock server") {
		t.Fatal("the live run failed a step or ran on the mock")
	}
	for _, step := range []string{"create form", "publish", "prefilled link", "read submissions", "clean up"} {
		if !regexp.MustCompile(`(?m)^ ?\d+\. ` + regexp.QuoteMeta(step) + ` +[0-9.]+(µs|ms|s)  \S`).MatchString(got) {
			t.Errorf("step %q did not run against the platform", step)
		}
	}
}
