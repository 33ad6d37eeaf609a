package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/webhooks"
)

const triggerSecret = "whsec-trigger-7d2e"

// receiver verifies every delivery with the SDK's Verifier and answers
// 200 only for a verified event of the wanted type whose payload is the
// sample's.
func receiver(t *testing.T, secret string, want *string) *httptest.Server {
	t.Helper()
	v, err := webhooks.NewVerifier(secret, webhooks.WithTolerance(time.Minute)) // signed now, not at some fixed time
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ev, err := v.Verify(r.Context(), r.Header, body)
		switch {
		case err != nil:
			http.Error(w, "refused: "+err.Error(), http.StatusBadRequest)
		case !uuidRE.MatchString(ev.ID):
			http.Error(w, "X-Event-Id "+ev.ID, http.StatusUnprocessableEntity)
		case string(ev.Type) != *want:
			http.Error(w, "type "+string(ev.Type), http.StatusConflict)
		case ev.Topic == "casefile" && (ev.CaseFile == nil || ev.CaseFile.ID != 1042),
			ev.Topic == "signer" && (ev.Signer == nil || ev.Signer.ID != 2087 || ev.CaseFile == nil || ev.CaseFile.ID != 1042),
			ev.Topic == "subscription" && ev.Message == "":
			http.Error(w, "payload "+string(body), http.StatusUnprocessableEntity)
		default:
			_, _ = io.WriteString(w, "verified "+ev.ID)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// uuidRE matches a UUID as X-Event-Id carries it.
var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// runTrigger runs the subcommand and answers its exit status and output.
func runTrigger(args ...string) (int, string) {
	var out bytes.Buffer
	code := trigger(context.Background(), args, func(string) string { return "" }, &out, &out)
	return code, out.String()
}

// Every one of the 17 types arrives signed so that the SDK's Verifier
// accepts it, with the type and payload it names.
func TestTriggerEveryTypeVerifies(t *testing.T) {
	var want string
	srv := receiver(t, triggerSecret, &want)
	var types []string // the SDK's list, so that the mock's cannot lack one
	for _, typ := range webhooks.AllEventTypes() {
		types = append(types, string(typ))
	}
	if len(types) != 17 || !slices.Equal(slices.Sorted(slices.Values(types)), slices.Sorted(slices.Values(mockserver.EventTypes()))) {
		t.Fatalf("the SDK's %d types %v are not the mock's %v", len(types), types, mockserver.EventTypes())
	}
	ids := map[string]bool{}
	for _, typ := range types {
		want = typ
		code, out := runTrigger(typ, "--to", srv.URL+"/webhook", "--secret", triggerSecret)
		if code != 0 || !strings.Contains(out, "200 OK") || !strings.Contains(out, "verified ") {
			t.Errorf("%s: exit %d:\n%s", typ, code, out)
		}
		if strings.Contains(out, triggerSecret) {
			t.Errorf("%s: the output holds the secret", typ)
		}
		_, id, _ := strings.Cut(out, "verified ")
		ids[strings.TrimSpace(id)] = true
	}
	if len(ids) != len(types) {
		t.Errorf("%d distinct event ids for %d events", len(ids), len(types))
	}
	want = "sign.signer.signed" // flags first, then the type
	if code, out := runTrigger("--to", srv.URL, "--secret", triggerSecret, "sign.signer.signed"); code != 0 {
		t.Errorf("flags before the type: exit %d:\n%s", code, out)
	}
}

func TestTriggerFailures(t *testing.T) {
	want := "sign.casefile.completed"
	srv := receiver(t, "another-secret", &want)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		outHas string
	}{
		{"the receiver refuses a wrong secret", []string{want, "--to", srv.URL, "--secret", triggerSecret}, 1, "400 Bad Request"},
		{"unknown type", []string{"sign.casefile.archived", "--to", srv.URL, "--secret", triggerSecret}, 2, "webhook.subscription.test"},
		{"unknown type, no flags", []string{"casefile.completed"}, 2, `unknown event type "casefile.completed"`},
		{"no scheme", []string{want, "--to", strings.TrimPrefix(srv.URL, "http://"), "--secret", triggerSecret}, 2, "want an http:// or https:// URL"},
		{"no timeout", []string{want, "--to", srv.URL, "--secret", triggerSecret, "--timeout", "0s"}, 2, "--timeout must be positive"},
		{"no secret", []string{want, "--to", srv.URL}, 2, "--to and a secret"},
		{"file and flag", []string{want, "--to", srv.URL, "--secret", triggerSecret, "--secret-file", "x"}, 2, "not both"},
		{"missing file", []string{want, "--to", srv.URL, "--secret-file", "/no/such/file"}, 2, "--secret-file"},
		{"no type", []string{"--to", srv.URL, "--secret", triggerSecret}, 2, "want one event TYPE"},
		{"two types", []string{want, "sign.casefile.failed", "--to", srv.URL, "--secret", triggerSecret}, 2, "want one event TYPE"},
		{"bad flag", []string{want, "--nope"}, 2, "flag provided but not defined"},
		{"help", []string{"-h"}, 0, "usage: signkit-mock trigger TYPE"},
		{"no receiver", []string{want, "--to", "http://127.0.0.1:1/webhook", "--secret", triggerSecret}, 1, "no answer from the receiver"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := runTrigger(tc.args...)
			if code != tc.code || !strings.Contains(out, tc.outHas) {
				t.Fatalf("exit %d, want %d; output lacks %q:\n%s", code, tc.code, tc.outHas, out)
			}
			if strings.Contains(out, triggerSecret) {
				t.Fatal("the output holds the secret")
			}
		})
	}
}

// A receiver's answer is printed up to maxAnswer bytes, and a slow one is
// given up after --timeout.
func TestTriggerAnswerBounds(t *testing.T) {
	long := strings.Repeat("x", 3*maxAnswer) + "TAIL"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // then the server notices the client hang up
		if r.URL.Path == "/slow" {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			return
		}
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, long)
	}))
	t.Cleanup(srv.Close)
	code, out := runTrigger("sign.signer.signed", "--to", srv.URL, "--secret", triggerSecret)
	if code != 1 || !strings.Contains(out, "500 Internal Server Error") || strings.Contains(out, "TAIL") ||
		!strings.Contains(out, "answer cut after") || len(out) > maxAnswer+200 {
		t.Fatalf("exit %d, %d bytes of output:\n%.300s", code, len(out), out)
	}
	start := time.Now()
	code, out = runTrigger("sign.signer.signed", "--to", srv.URL+"/slow", "--secret", triggerSecret, "--timeout", "200ms")
	if code != 1 || !strings.Contains(out, "no answer from the receiver") || time.Since(start) > 3*time.Second {
		t.Fatalf("slow receiver: exit %d after %v:\n%s", code, time.Since(start), out)
	}
}

// The secret comes from a file or the environment, so that it stays out of
// the process list; a password in --to is never printed.
func TestTriggerSecretSourcesAndRedaction(t *testing.T) {
	want := "sign.casefile.completed"
	srv := receiver(t, triggerSecret, &want)
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte(triggerSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := func(name string) string {
		if name == "SIGNKIT_WEBHOOK_SECRET" {
			return triggerSecret
		}
		return ""
	}
	noEnv := func(string) string { return "" }
	withPassword := strings.Replace(srv.URL, "http://", "http://hook:hunter2@", 1) + "/webhook"
	for _, tc := range []struct {
		name   string
		args   []string
		getenv func(string) string
		code   int
		outHas string
	}{
		{"from a file", []string{want, "--to", srv.URL, "--secret-file", file}, noEnv, 0, "verified "},
		{"from the environment", []string{want, "--to", srv.URL}, env, 0, "verified "},
		{"the file before the environment", []string{want, "--to", srv.URL, "--secret-file", file}, func(string) string { return "wrong" }, 0, "verified "},
		{"the flag before the environment", []string{want, "--to", srv.URL, "--secret", triggerSecret}, func(string) string { return "wrong" }, 0, "verified "},
		{"a password in the URL", []string{want, "--to", withPassword}, env, 0, "hook:xxxxx@"},
		{"a password in the URL of a receiver that is not there", []string{want, "--to", "http://hook:hunter2@127.0.0.1:1/webhook"}, env, 1, "hook:xxxxx@"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			code := trigger(context.Background(), tc.args, tc.getenv, &out, &out)
			if code != tc.code || !strings.Contains(out.String(), tc.outHas) {
				t.Fatalf("exit %d, want %d; output lacks %q:\n%s", code, tc.code, tc.outHas, out.String())
			}
			if strings.Contains(out.String(), triggerSecret) || strings.Contains(out.String(), "hunter2") {
				t.Fatalf("the output holds a secret:\n%s", out.String())
			}
		})
	}
}
