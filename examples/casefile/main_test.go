package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
)

// noEnv is an environment without credentials: the embedded mock server.
func noEnv(string) string { return "" }

func TestRunOnEmbeddedMock(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "signed.pdf")
	var stdout bytes.Buffer
	if err := run(t.Context(), []string{"-out", out}, noEnv, &stdout); err != nil {
		t.Fatalf("run: %v\n%s", err, stdout.String())
	}
	got := stdout.String()
	for _, want := range []string{
		"embedded mock server",
		"signing link for Wendy Witness (witness, no email: deliver it yourself):\n  http://127.0.0.1:",
		"/public/sign/",
		"Staff handbook", "attachment, not signed",
		`to ada.employee@example.com: "Your employment contract is ready to sign"`,
		"signed as Wendy Witness (round 2)",
		"is completed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, secret := range []string{mockserver.DefaultClientSecret, mockserver.DefaultAPISecret} {
		if strings.Contains(got, secret) {
			t.Errorf("output contains a secret %q", secret)
		}
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("%s is not a PDF: %q", out, pdf[:min(len(pdf), 16)])
	}
}

func TestRunRefusesWhatCannotWork(t *testing.T) {
	t.Parallel()
	creds := map[string]string{"SIGNKIT_CLIENT_ID": "id", "SIGNKIT_CLIENT_SECRET": "s",
		"SIGNKIT_API_KEY": "k", "SIGNKIT_API_SECRET": "top-secret-value"}
	all := envOf(creds, "SIGNKIT_ENV", "sandbox")
	partial := envOf(map[string]string{"SIGNKIT_CLIENT_ID": "id", "SIGNKIT_API_SECRET": "top-secret-value"})
	staging := envOf(creds, "SIGNKIT_ENV", "staging")
	for name, tc := range map[string]struct {
		env  func(string) string
		args []string
		want string
	}{
		"some credentials":        {partial, nil, "missing: SIGNKIT_CLIENT_SECRET, SIGNKIT_API_KEY"},
		"platform without emails": {all, nil, "-employee-email and -employer-email are required"},
		"signing on the platform": {all, []string{"-employee-email", "a@example.com", "-employer-email", "b@example.com", "-sign"}, "only on the embedded mock"},
		"unknown environment":     {staging, nil, "must be one of mock, sandbox, production"},
		"stray argument":          {noEnv, []string{"extra"}, "unexpected arguments"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var stdout bytes.Buffer
			err := run(t.Context(), tc.args, tc.env, &stdout)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run: %v, want an error containing %q", err, tc.want)
			}
			if strings.Contains(err.Error()+stdout.String(), "top-secret-value") {
				t.Errorf("a secret was printed: %v %s", err, stdout.String())
			}
		})
	}
}

// envOf answers an environment of m plus the key-value pairs kv.
func envOf(m map[string]string, kv ...string) func(string) string {
	env := map[string]string{}
	for k, v := range m {
		env[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		env[kv[i]] = kv[i+1]
	}
	return func(k string) string { return env[k] }
}
