package signkit_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/testkit/redacttest"
)

// redactServer is a platform that issues secretToken and answers every other
// request with an empty list of items.
func redactServer(t *testing.T, secretToken string) *httptest.Server {
	return tokenCountingServer(t, secretToken, "600", new(atomic.Int32))
}

// tokenCountingServer is a platform that issues token with the raw JSON
// expiresIn, counts token requests in n, and answers every other request
// with an empty list of items.
func tokenCountingServer(t *testing.T, token, expiresIn string, n *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/oauth/token") {
			n.Add(1)
			fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":%s}`, token, expiresIn)
			return
		}
		fmt.Fprint(w, `{"items":[]}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestConfigAndClientPrintNoSecret(t *testing.T) {
	const token = "tok-root-very-secret"
	creds := auth.Credentials{ClientID: "client-7", ClientSecret: "cs-very-secret", APIKey: "key-7", APISecret: "as-very-secret"}
	srv := redactServer(t, token)
	cfg := signkit.Config{
		Endpoints:   signkit.LocalEndpoints(srv.URL),
		Credentials: creds,
		HTTPClient:  &http.Client{},
		Logger:      slog.New(slog.DiscardHandler),
		UserAgent:   "app/1",
	}
	c, err := signkit.NewClient(cfg)
	require.NoError(t, err)
	_, err = c.Subscriptions.List(t.Context()) // the client now caches the token
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		value any
		shows []string // useful parts that %v and the JSON handler still show
	}{
		{"Config", cfg, []string{"client-7", "key-7", srv.URL, "app/1"}},
		{"*Config", &cfg, []string{"client-7", "key-7", srv.URL}},
		{"Config without client", signkit.Config{Credentials: creds}, []string{"client-7", "key-7"}},
		{"*Client", c, []string{"client-7", "key-7", srv.URL}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			secrets := []string{creds.ClientSecret, creds.APISecret, token}
			renders := redacttest.Renderings(tc.value)
			redacttest.AssertNoSecret(t, renders, secrets...)
			for how, out := range renders {
				assert.NotContains(t, out, "!ERROR", how)
				if how == "%v" || how == "slog json" {
					assert.Contains(t, out, "[redacted]", how)
					for _, want := range tc.shows {
						assert.Contains(t, out, want, how)
					}
				}
			}
		})
	}
}

func TestConfigRedactionShapes(t *testing.T) {
	cfg := signkit.Config{Endpoints: signkit.Sandbox, MaxRetries: 3,
		Credentials: auth.Credentials{ClientID: "id", ClientSecret: "cs", APIKey: "k", APISecret: "as"}}
	assert.True(t, strings.HasPrefix(fmt.Sprintf("%#v", cfg), "signkit.Config{Endpoints:signkit.Endpoints{Auth:"), fmt.Sprintf("%#v", cfg))
	assert.Contains(t, fmt.Sprint(cfg), "MaxRetries:3")
	assert.Equal(t, fmt.Sprintf("%q", cfg.String()), fmt.Sprintf("%q", cfg))
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("m", "cfg", cfg)
	assert.Contains(t, b.String(), `"Credentials":{"ClientID":"id","ClientSecret":"[redacted]","APIKey":"k","APISecret":"[redacted]"}`)
	assert.Contains(t, b.String(), `"HTTPClient":"<nil>"`)
	assert.Contains(t, b.String(), `"MaxRetries":3`)
	var nilClient *signkit.Client
	assert.Equal(t, "<nil>", fmt.Sprint(nilClient))
}

// Through the whole client: an expires_in below the renewal margin or beyond
// any duration neither makes every call fetch a token nor fails a call.
func TestClientCachesTokensWhateverExpiresInSays(t *testing.T) {
	for _, expiresIn := range []string{"30", "60", "1e19"} {
		t.Run(expiresIn, func(t *testing.T) {
			var n atomic.Int32
			srv := tokenCountingServer(t, "tok", expiresIn, &n)
			c, err := signkit.NewClient(signkit.Config{Endpoints: signkit.LocalEndpoints(srv.URL),
				Credentials: auth.Credentials{ClientID: "a", ClientSecret: "b", APIKey: "c", APISecret: "d"}})
			require.NoError(t, err)
			start := time.Now()
			for range 10 {
				_, err := c.Subscriptions.List(t.Context())
				require.NoError(t, err)
				time.Sleep(80 * time.Millisecond)
			}
			require.Less(t, time.Since(start), 1500*time.Millisecond)
			assert.LessOrEqual(t, n.Load(), int32(2))
		})
	}
}
