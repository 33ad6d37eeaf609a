package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
)

// noEnv is an environment without credentials: the embedded mock server.
func noEnv(string) string { return "" }

// TestRunOnEmbeddedMock is go run ./examples/poller: the demo with its
// simulated crash and restart, every case file handled once.
func TestRunOnEmbeddedMock(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	var stdout bytes.Buffer
	if err := run(t.Context(), []string{"-state", state}, noEnv, &stdout); err != nil {
		t.Fatalf("run: %v\n%s", err, stdout.String())
	}
	got := stdout.String()
	for _, want := range []string{
		"embedded mock server",
		"stopped after 2 (simulated crash)",
		"poll 2, after a restart:\n  handled case file",
		"poll 4:\n  0 handled",
		"every one of the 6 completed case files was handled exactly once",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "  handled case file "); n != 6 {
		t.Errorf("%d case files handled, want 6:\n%s", n, got)
	}
	for _, secret := range []string{mockserver.DefaultClientSecret, mockserver.DefaultAPISecret} {
		if strings.Contains(got, secret) {
			t.Errorf("output contains a secret %q", secret)
		}
	}
	s, err := LoadState(state)
	if err != nil || s.Completed == 0 || len(s.IDs) == 0 {
		t.Errorf("state file after the demo: %+v, %v; want a watermark", s, err)
	}
}

func TestRunRefusesWhatCannotWork(t *testing.T) {
	t.Parallel()
	partial := func(k string) string {
		return map[string]string{"SIGNKIT_CLIENT_ID": "id", "SIGNKIT_API_SECRET": "top-secret-value"}[k]
	}
	for name, tc := range map[string]struct {
		env  func(string) string
		args []string
		want string
	}{
		"some credentials":  {partial, nil, "missing: SIGNKIT_CLIENT_SECRET, SIGNKIT_API_KEY"},
		"stray argument":    {noEnv, []string{"extra"}, "unexpected arguments"},
		"page too large":    {noEnv, []string{"-per-page", "5000"}, "-per-page must be from 0 to 1000"},
		"negative interval": {noEnv, []string{"-interval", "-1s"}, "not negative"},
		"unknown flag":      {noEnv, []string{"-colour"}, "flags:"},
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

// -since writes a first watermark only when there is no state file: a
// restart resumes where the file says.
func TestStartAt(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.json")
	now := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	if err := startAt(path, 0, now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("-since 0 wrote a state file: %v", err)
	}
	if err := startAt(path, time.Hour, now); err != nil {
		t.Fatal(err)
	}
	if s, err := LoadState(path); err != nil || s.Completed != now.Add(-time.Hour).Unix() || len(s.IDs) != 0 {
		t.Fatalf("first state %+v, %v; want an hour ago, no ids", s, err)
	}
	if err := SaveState(path, State{Completed: 42, IDs: []int64{1}}); err != nil {
		t.Fatal(err)
	}
	if err := startAt(path, time.Hour, now); err != nil {
		t.Fatal(err)
	}
	if s, _ := LoadState(path); s.Completed != 42 {
		t.Errorf("-since overwrote an existing state: %+v", s)
	}
}
