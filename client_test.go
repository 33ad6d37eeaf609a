package signkit_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
)

var goodCreds = auth.Credentials{ClientID: "id", ClientSecret: "cs-secret", APIKey: "key", APISecret: "as-secret"}

func TestNewClientRefusesConfigsThatCannotWork(t *testing.T) {
	local := signkit.LocalEndpoints("http://127.0.0.1:8765")
	withAuth := func(u string) signkit.Endpoints { e := local; e.Auth = u; return e }
	withSend := func(u string) signkit.Endpoints { e := local; e.Send = u; return e }
	tests := []struct {
		name string
		cfg  signkit.Config
		want string
	}{
		{"no endpoints", signkit.Config{Credentials: goodCreds}, "Config.Endpoints.Auth is empty"},
		{"relative URL", signkit.Config{Endpoints: withAuth("/auth"), Credentials: goodCreds}, "Config.Endpoints.Auth must be an absolute"},
		{"wrong scheme", signkit.Config{Endpoints: withSend("ftp://x.test"), Credentials: goodCreds}, "Config.Endpoints.Send must be an absolute"},
		{"bad URL", signkit.Config{Endpoints: withSend("http://[::1"), Credentials: goodCreds}, "Config.Endpoints.Send is not a URL"},
		{"no credentials", signkit.Config{Endpoints: local},
			"Config.Credentials.ClientID, Config.Credentials.ClientSecret, Config.Credentials.APIKey, Config.Credentials.APISecret is empty"},
		{"no API secret", signkit.Config{Endpoints: local, Credentials: auth.Credentials{ClientID: "a", ClientSecret: "b", APIKey: "c"}},
			"Config.Credentials.APISecret is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := signkit.NewClient(tt.cfg)
			assert.Nil(t, c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "cs-secret")
			assert.NotContains(t, err.Error(), "as-secret")
		})
	}
	c, err := signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: goodCreds})
	require.NoError(t, err)
	assert.NotNil(t, c)
}

func TestLocalEndpoints(t *testing.T) {
	assert.Equal(t, signkit.Endpoints{
		Auth: "http://127.0.0.1:1/auth", Forms: "http://127.0.0.1:1/collect/api", Sign: "http://127.0.0.1:1",
		Send: "http://127.0.0.1:1/send", Webhook: "http://127.0.0.1:1/webhook",
	}, signkit.LocalEndpoints("http://127.0.0.1:1/"))
}

func TestErrorIsReexported(t *testing.T) {
	var err error = fmt.Errorf("call: %w", &signkit.Error{StatusCode: 404, Message: "no form"})
	assert.ErrorIs(t, err, signkit.ErrNotFound)
	assert.NotErrorIs(t, err, signkit.ErrConflict)
	var apiErr *signkit.Error
	require.True(t, errors.As(err, &apiErr))
	assert.Equal(t, "no form", apiErr.Message)
}

func ExampleNewClient() {
	client, err := signkit.NewClient(signkit.Config{
		Endpoints: signkit.Sandbox,
		Credentials: auth.Credentials{
			ClientID: "my-client-id", ClientSecret: "my-client-secret",
			APIKey: "my-api-key", APISecret: "my-api-secret",
		},
	})
	fmt.Println(client != nil, err)
	// Output: true <nil>
}

// A client that takes its tokens from a source of your own (here one that
// hands out a fixed token; in real code one that asks your identity
// provider) needs no Credentials.
func ExampleConfig_tokenSource() {
	// A small stand-in of the webhook service, in the platform's shape:
	// GET .../subscriptions answers {"items":[...]} to the source's token.
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer my-token" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"statusCode":401,"message":"no token"}`)
			return
		}
		_, _ = io.WriteString(w, `{"items":[]}`)
	}))
	defer web.Close()

	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(web.URL),
		TokenSource: fixedSource("my-token"), // any auth.TokenProvider
	})
	if err != nil {
		log.Fatal(err)
	}
	subs, err := client.Subscriptions.List(context.Background())
	fmt.Println(len(subs), err)
	// Output: 0 <nil>
}

// fixedSource is a token provider that always hands out the same token.
type fixedSource string

func (s fixedSource) Token(context.Context) (auth.Token, error) {
	return auth.Token{AccessToken: string(s)}, nil
}

func (fixedSource) Invalidate(auth.Token) {}
