package signkit_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/testkit/redacttest"
)

// leakySource is a token provider that would show its token if printed by
// reflection, through its String method, or marshalled to JSON.
type leakySource struct{ Secret string }

func (s leakySource) Token(context.Context) (auth.Token, error) {
	return auth.Token{AccessToken: s.Secret}, nil
}
func (leakySource) Invalidate(auth.Token) {}
func (s leakySource) String() string      { return "leakySource holding " + s.Secret }

// loggedSource logs itself through its own slog.LogValuer.
type loggedSource struct{ leakySource }

func (loggedSource) LogValue() slog.Value { return slog.StringValue("my-oauth2-source") }

func TestNewClientTokenSourceOrCredentials(t *testing.T) {
	local := signkit.LocalEndpoints("http://127.0.0.1:8765")
	src := leakySource{Secret: "tok-secret"}
	var nilSource *auth.TokenSource
	const both = "signkit: set Config.Credentials or Config.TokenSource, not both"
	tests := []struct {
		name  string
		creds auth.Credentials
		src   auth.TokenProvider
		want  string // "" when the config is accepted
	}{
		{"source, no credentials", auth.Credentials{}, src, ""},
		{"the SDK's own source", auth.Credentials{}, auth.NewTokenSource(local.Auth, goodCreds), ""},
		{"source and all credentials", goodCreds, src, both},
		{"source and ClientID", auth.Credentials{ClientID: "id"}, src, both},
		{"source and ClientSecret", auth.Credentials{ClientSecret: "cs-secret"}, src, both},
		{"source and APIKey", auth.Credentials{APIKey: "key"}, src, both},
		{"source and APISecret", auth.Credentials{APISecret: "as-secret"}, src, both},
		{"neither", auth.Credentials{}, nil,
			"signkit: Config.Credentials.ClientID, Config.Credentials.ClientSecret, Config.Credentials.APIKey, Config.Credentials.APISecret is empty"},
		{"nil pointer source", auth.Credentials{}, nilSource, "signkit: Config.TokenSource is a nil *auth.TokenSource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := signkit.NewClient(signkit.Config{Endpoints: local, Credentials: tt.creds, TokenSource: tt.src})
			if tt.want == "" {
				require.NoError(t, err)
				assert.NotNil(t, c)
				return
			}
			assert.Nil(t, c)
			require.EqualError(t, err, tt.want)
			for _, secret := range []string{"cs-secret", "as-secret", "tok-secret"} {
				assert.NotContains(t, err.Error(), secret)
			}
		})
	}
}

// TestConfigAndClientPrintNoSourceSecret: a token source of the user's is
// printed by its type and logged by its type (or its own LogValuer), never
// through its fields or its String method.
func TestConfigAndClientPrintNoSourceSecret(t *testing.T) {
	const token = "tok-of-the-source-very-secret"
	srv := redactServer(t, "unused")
	for _, src := range []auth.TokenProvider{leakySource{Secret: token}, &leakySource{Secret: token}, loggedSource{leakySource{Secret: token}}} {
		cfg := signkit.Config{Endpoints: signkit.LocalEndpoints(srv.URL), TokenSource: src, UserAgent: "app/1"}
		c, err := signkit.NewClient(cfg)
		require.NoError(t, err)
		_, err = c.Subscriptions.List(t.Context())
		require.NoError(t, err)
		typ := fmt.Sprintf("%T", src)
		for _, tc := range []struct {
			name  string
			value any
		}{{"Config", cfg}, {"*Config", &cfg}, {"*Client", c}} {
			t.Run(typ+" "+tc.name, func(t *testing.T) {
				renders := redacttest.Renderings(tc.value)
				redacttest.AssertNoSecret(t, renders, token)
				for how, out := range renders {
					assert.NotContains(t, out, "!ERROR", how)
					switch {
					case how == "%v":
						assert.Contains(t, out, typ, how)
					case how == "slog json":
						if _, ok := src.(slog.LogValuer); ok {
							assert.Contains(t, out, "my-oauth2-source", how)
						} else {
							assert.Contains(t, out, typ, how)
						}
					}
				}
			})
		}
	}
}
