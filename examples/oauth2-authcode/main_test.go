package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
)

// TestRunRefusesAnIncompleteSetup: without an OAuth client, or with an
// unknown environment, run stops before any request.
func TestRunRefusesAnIncompleteSetup(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"no client", map[string]string{}, "set SIGNKIT_OAUTH_CLIENT_ID and SIGNKIT_OAUTH_CLIENT_SECRET"},
		{"no secret", map[string]string{"SIGNKIT_OAUTH_CLIENT_ID": "c"}, "set SIGNKIT_OAUTH_CLIENT_ID and SIGNKIT_OAUTH_CLIENT_SECRET"},
		{"unknown environment", map[string]string{"SIGNKIT_ENV": "staging"}, `SIGNKIT_ENV must be sandbox or production, not "staging"`},
		{"redirect elsewhere", map[string]string{"SIGNKIT_OAUTH_CLIENT_ID": "c", "SIGNKIT_OAUTH_CLIENT_SECRET": "s",
			"SIGNKIT_OAUTH_REDIRECT_URL": "https://example.com/callback"}, "SIGNKIT_OAUTH_REDIRECT_URL must be an http URL on this machine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tokens := filepath.Join(t.TempDir(), "tokens.json") // absent: run would sign in
			err := run(context.Background(), []string{"-tokens", tokens}, func(k string) string { return tt.env[k] }, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("run = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestTokenFileRoundTrip: the token file is private (0600) and gives back
// what was saved.
func TestTokenFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	want := &oauth2.Token{AccessToken: "acc", RefreshToken: "ref", Expiry: time.Unix(1795341600, 0)}
	if err := saveToken(path, want); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	got, err := loadToken(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.AccessToken != want.AccessToken || got.RefreshToken != want.RefreshToken || !got.Expiry.Equal(want.Expiry) {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
	if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := loadToken(path); err == nil || !strings.Contains(err.Error(), "holds no token") {
		t.Errorf("empty token file: %v", err)
	}
}
