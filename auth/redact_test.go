package auth

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderings formats v with every verb a caller might use and logs it with
// slog's text and JSON handlers, as a value and inside a struct.
func renderings(v any) map[string]string {
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.40s"} {
		out[verb] = fmt.Sprintf(verb, v)
		out["field "+verb] = fmt.Sprintf(verb, struct{ V any }{v})
		out["slice "+verb] = fmt.Sprintf(verb, []any{v})
	}
	out["Sprint"] = fmt.Sprint(v)
	out["Sprintln"] = fmt.Sprintln(v)
	for name, h := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		var b bytes.Buffer
		l := slog.New(h(&b))
		l.Info("msg", "value", v)
		l.Info("msg", slog.Any("value", v))
		l.With("value", v).Info("msg")
		l.Info("msg", slog.Group("g", "value", v))
		out["slog "+name] = b.String()
	}
	return out
}

// assertNoSecret fails when a rendering shows a secret, as is or hex-encoded.
func assertNoSecret(t *testing.T, renders map[string]string, secrets ...string) {
	t.Helper()
	for how, s := range renders {
		for _, secret := range secrets {
			for _, form := range []string{secret, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))} {
				assert.NotContains(t, s, form, "%s shows a secret: %s", how, s)
			}
		}
	}
}

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
			r := renderings(tc.value)
			assertNoSecret(t, r, secrets...)
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
