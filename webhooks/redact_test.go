package webhooks_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/webhooks"
)

// renderings formats v with every verb a caller might use and logs it with
// slog's text and JSON handlers, as a value and inside other values.
func renderings(v any) map[string]string {
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.40s"} {
		out[verb] = fmt.Sprintf(verb, v)
		out["field "+verb] = fmt.Sprintf(verb, struct{ V any }{v})
		out["slice "+verb] = fmt.Sprintf(verb, []any{v})
	}
	out["Sprint"] = fmt.Sprint(v)
	for name, h := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		var b bytes.Buffer
		l := slog.New(h(&b))
		l.Info("msg", "value", v)
		l.With("value", v).Info("msg")
		l.Info("msg", slog.Group("g", "value", v))
		out["slog "+name] = b.String()
	}
	return out
}

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
			forms := []string{secret, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))}
			for how, out := range renderings(tc.value) {
				for _, f := range forms {
					assert.NotContains(t, out, f, "%s shows the secret: %s", how, out)
				}
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
