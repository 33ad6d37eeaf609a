package readme_test

import (
	"context"
	"testing"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
)

// ownTokens is README's "Tokens of your own" configuration, compiled.
func ownTokens(tokens auth.TokenProvider) signkit.Config {
	cfg := signkit.Config{
		Endpoints:   signkit.Sandbox,
		TokenSource: tokens, // an auth.TokenProvider; leave Credentials empty
	}
	return cfg
}

// fixedToken is the smallest auth.TokenProvider: one token, never renewed.
type fixedToken string

func (t fixedToken) Token(context.Context) (auth.Token, error) {
	return auth.Token{AccessToken: string(t)}, nil
}
func (fixedToken) Invalidate(auth.Token) {}

func TestOwnTokensConfigIsAccepted(t *testing.T) {
	t.Parallel()
	if _, err := signkit.NewClient(ownTokens(fixedToken("tok"))); err != nil {
		t.Fatalf("NewClient: %v", err)
	}
}
