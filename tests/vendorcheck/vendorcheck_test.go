package vendorcheck

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// need fails the test when CI is set and skips it otherwise.
func need(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if InCI() {
		t.Fatalf("CI is set and an input is missing: %v", err)
	}
	t.Skipf("skipped (CI is not set): %v", err)
}

// TestVendorCollections runs the vendor's Postman collections with newman
// against a freshly built signkit-mock. Every assertion must pass unless
// https://github.com/signkit/signkit-go/blob/main/docs/vendor-exceptions.md
// lists it; .ci/newman.sh prints the lines that start with "newman ".
func TestVendorCollections(t *testing.T) {
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	vendor, err := VendorDir(root)
	need(t, err)
	bin, err := NewmanBin(root)
	need(t, err)
	exceptions, err := LoadExceptions(filepath.Join(root, "docs", "vendor-exceptions.md"))
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	mockBin, err := BuildMock(ctx, root, dir)
	if err != nil {
		t.Fatal(err)
	}
	mock, err := StartMock(ctx, mockBin, "-job-delay", "200ms")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(mock.Stop)
	cred, err := mock.Credentials(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var deliveries atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		deliveries.Add(1)
	}))
	t.Cleanup(hook.Close)

	runner := &Runner{Newman: &Newman{Bin: bin, Dir: dir}, Mock: mock, VendorDir: vendor,
		Credentials: cred, WebhookEndpoint: hook.URL + "/penneo-events"}
	for _, p := range Plans() {
		t.Run(p.Label, func(t *testing.T) {
			res, err := runner.Run(ctx, p)
			if res != nil {
				printVerdict(t, res, Judge(res, exceptions))
			}
			if err != nil {
				t.Fatal(Redact(err.Error(), varsOf(res)))
			}
		})
	}
	t.Logf("webhook deliveries received: %d", deliveries.Load())
}

func varsOf(res *Result) map[string]string {
	if res == nil {
		return nil
	}
	return res.Variables
}

// printVerdict prints the tally line and fails on every unlisted failure.
func printVerdict(t *testing.T, res *Result, v Verdict) {
	t.Helper()
	passed, total := res.Tally()
	fmt.Printf("newman %s: %d/%d assertions\n", res.Label, passed, total)
	for _, a := range v.Excused {
		t.Logf("listed exception failed as expected: %s / %s", a.Request, a.Name)
	}
	for _, e := range v.Stale {
		fmt.Printf("newman %s: listed exception no longer needed, remove it from docs/vendor-exceptions.md: %s / %s\n",
			res.Label, e.Request, e.Assertion)
	}
	for _, a := range v.Unexpected {
		t.Errorf("unlisted failure: | %s | %s | %s | %s", res.Label, a.Request, a.Name, Redact(a.Message, res.Variables))
	}
}
