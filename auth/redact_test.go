package auth

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/testkit/redacttest"
)

func TestNothingPrintsASecret(t *testing.T) {
	srv := newTokenServer(t)
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	tok := mustToken(t, ts) // the source now caches tok-1
	cred := testCreds
	secrets := []string{testCreds.ClientSecret, testCreds.APISecret, tok.AccessToken}
	for _, tc := range []struct {
		name  string
		value any
		shows []string // what is useful and must still show in %v
	}{
		{"Credentials", testCreds, []string{"client-1", "key-1", "[redacted]"}},
		{"*Credentials", &cred, []string{"client-1", "key-1", "[redacted]"}},
		{"Token", tok, []string{"[redacted]", tok.ExpiresAt.Format(time.RFC3339)}},
		{"*Token", &tok, []string{"[redacted]"}},
		{"*TokenSource", ts, []string{srv.URL + "/auth/oauth/token", "client-1", "key-1", "[redacted]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := redacttest.Renderings(tc.value)
			redacttest.AssertNoSecret(t, r, secrets...)
			for _, want := range tc.shows {
				assert.Contains(t, r["%v"], want)
			}
			assert.Contains(t, r["slog json"], `"[redacted]"`)
			assert.Contains(t, r["slog text"], `[redacted]`)
		})
	}
}

func TestRedactionShapes(t *testing.T) {
	assert.Equal(t, `auth.Credentials{ClientID:"client-1", ClientSecret:[redacted], APIKey:"key-1", APISecret:[redacted]}`,
		fmt.Sprintf("%v", testCreds))
	assert.Equal(t, fmt.Sprintf("%q", testCreds.String()), fmt.Sprintf("%q", testCreds))
	assert.Equal(t, `auth.Credentials{ClientID:"a", ClientSecret:"", APIKey:"", APISecret:""}`,
		fmt.Sprintf("%#v", Credentials{ClientID: "a"}), "an empty secret shows as empty")
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("m", "creds", testCreds)
	assert.Contains(t, b.String(), `"creds":{"ClientID":"client-1","ClientSecret":"[redacted]","APIKey":"key-1","APISecret":"[redacted]"}`)
	var nilTS *TokenSource
	assert.Equal(t, "<nil>", fmt.Sprint(nilTS))
}

// Formatting a source while it renews its token is safe.
func TestTokenSourceFormatDoesNotRace(t *testing.T) {
	srv := newTokenServer(t)
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 20 {
			tok, err := ts.Token(context.Background())
			require.NoError(t, err)
			ts.Invalidate(tok)
		}
	}()
	for range 20 {
		_ = fmt.Sprintf("%+v", ts)
	}
	<-done
}
