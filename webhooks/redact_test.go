package webhooks_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/testkit/redacttest"
	"github.com/signkit/signkit-go/webhooks"
)

func TestNoVerbOrHandlerPrintsTheWebhookSecret(t *testing.T) {
	const secret = "whsec-very-secret-1"
	v, err := webhooks.NewVerifier(secret)
	require.NoError(t, err)
	noDedup, err := webhooks.NewVerifier(secret, webhooks.WithDedup(nil))
	require.NoError(t, err)
	for _, tc := range []struct {
		name  string
		value any
		shows []string // useful parts that %v and slog still show
	}{
		{"*Verifier", v, []string{"5m0s", "1048576"}},
		{"*Verifier without dedup", noDedup, []string{"off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			renders := redacttest.Renderings(tc.value)
			redacttest.AssertNoSecret(t, renders, secret)
			for how, out := range renders {
				if how == "%v" || strings.HasPrefix(how, "slog") {
					assert.Contains(t, out, "[redacted]", how)
					for _, want := range tc.shows {
						assert.Contains(t, out, want, how)
					}
				}
			}
		})
	}
}

func TestRedactedShapes(t *testing.T) {
	v, err := webhooks.NewVerifier("s3cret")
	require.NoError(t, err)
	assert.Equal(t, "webhooks.Verifier{Secret:[redacted], Tolerance:5m0s, MaxBodyBytes:1048576, Dedup:*dedup.memoryStore}",
		fmt.Sprint(v))
	var nilV *webhooks.Verifier
	assert.Equal(t, "<nil>", fmt.Sprint(nilV))
}
