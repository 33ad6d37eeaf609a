package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/examples/internal/exampleenv"
	"github.com/signkit/signkit-go/mockserver"
)

// noEnv is an environment without credentials: the embedded mock server.
func noEnv(string) string { return "" }

// secretLike matches what secrets look like in the mock: subscription
// secrets and signing link tokens (long hex), access tokens (long base64url).
var secretLike = regexp.MustCompile(`[0-9a-f]{32,}|[A-Za-z0-9_-]{48,}`)

func TestQuickstartEndToEnd(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "signed.pdf")
	var stdout bytes.Buffer
	if err := run(t.Context(), []string{"-out", out}, noEnv, &stdout); err != nil {
		t.Fatalf("run: %v\n%s", err, stdout.String())
	}
	got := stdout.String()
	t.Logf("output:\n%s", got)
	for i, name := range []string{"create form", "publish", "prefilled link", "submit public page", "read submissions",
		"subscribe webhook", "sign as primary signer", "wait for completed event", "download signed PDF", "clean up"} {
		line := fmt.Sprintf(`(?m)^%2d\. %s +[0-9.]+(µs|ms|s)  \S`, i+1, regexp.QuoteMeta(name))
		if !regexp.MustCompile(line).MatchString(got) {
			t.Errorf("no timed line for step %d %q", i+1, name)
		}
	}
	for _, bad := range []string{"FAILED", "skipped", mockserver.DefaultClientSecret, mockserver.DefaultAPISecret} {
		if strings.Contains(got, bad) {
			t.Errorf("output contains %q", bad)
		}
	}
	if m := secretLike.FindString(got); m != "" {
		t.Errorf("output contains something that looks like a secret: %q", m)
	}
	for _, want := range []string{"sign.casefile.completed for case file 1 verified", "form ARCHIVED, subscription deleted", "signed PDF    " + out} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	checkSignedPDF(t, out)
}

// checkSignedPDF checks that the file is a PDF and, with pdftotext, that it
// names the signer.
func checkSignedPDF(t *testing.T, path string) {
	t.Helper()
	pdf, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("%s does not start with %%PDF-: %q", path, pdf[:min(len(pdf), 16)])
	}
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pdftotext not found and CI is set: %v", err)
		}
		t.Skipf("pdftotext not found (%v): install poppler-utils to check the signer's name in the PDF", err)
	}
	text, err := exec.Command(bin, path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, text)
	}
	if !strings.Contains(string(text), signerName) {
		t.Errorf("pdftotext does not find %q in the signed PDF:\n%s", signerName, text)
	}
}

func TestQuickstartRefusesPlatformFlagsOnTheMock(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-webhook-url", "https://example.com/hook"}, {"-casefile", "7"}, {"stray"}, {"-listen", "nonsense"}} {
		var stdout bytes.Buffer
		if err := run(t.Context(), args, noEnv, &stdout); err == nil {
			t.Errorf("run %v: no error", args)
		}
	}
}

// TestPlanOnThePlatform checks which steps run against the platform; it
// sends no request.
func TestPlanOnThePlatform(t *testing.T) {
	t.Parallel()
	creds := map[string]string{"SIGNKIT_CLIENT_ID": "id", "SIGNKIT_CLIENT_SECRET": "cs", "SIGNKIT_API_KEY": "k", "SIGNKIT_API_SECRET": "as"}
	e, err := exampleenv.Setup(func(k string) string { return creds[k] })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for name, tc := range map[string]struct {
		opts options
		runs []string
	}{
		"credentials only": {options{}, []string{"create form", "publish", "prefilled link", "read submissions", "clean up"}},
		"public webhook URL and case file": {options{webhookURL: "https://hooks.example.com/signkit", caseFileID: 7, keep: true},
			[]string{"create form", "publish", "prefilled link", "read submissions", "subscribe webhook", "download signed PDF"}},
	} {
		q := &quickstart{opts: tc.opts, env: e}
		var runs []string
		for _, st := range q.plan() {
			if st.fn != nil {
				runs = append(runs, st.name)
			} else if st.skip == "" {
				t.Errorf("%s: step %q neither runs nor says why it is skipped", name, st.name)
			}
		}
		if strings.Join(runs, ",") != strings.Join(tc.runs, ",") {
			t.Errorf("%s: runs %v, want %v", name, runs, tc.runs)
		}
	}
}
