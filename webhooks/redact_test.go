package webhooks_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
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
	sub := webhooks.Subscription{ID: "sub-1", CustomerID: 42, IsActive: true, Secret: secret,
		Endpoint: "https://hooks.example.com/penneo", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}}
	for _, tc := range []struct {
		name   string
		value  any
		shows  []string // useful parts that %v and slog still show
		noJSON bool     // slog's JSON handler marshals it: see below
	}{
		{"Subscription", sub, []string{"sub-1", "https://hooks.example.com/penneo", "sign.casefile.completed"}, false},
		{"*Subscription", &sub, []string{"sub-1", "https://hooks.example.com/penneo"}, false},
		// slog's JSON handler encodes a slice with encoding/json, which keeps
		// the secret (users store it): log subscriptions one by one.
		{"[]Subscription", []webhooks.Subscription{sub}, []string{"sub-1"}, true},
		{"*Verifier", v, []string{"5m0s", "1048576"}, false},
		{"*Verifier without dedup", noDedup, []string{"off"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forms := []string{secret, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))}
			for how, out := range renderings(tc.value) {
				if tc.noJSON && how == "slog json" {
					continue
				}
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

func TestSubscriptionJSONKeepsTheSecret(t *testing.T) {
	sub := webhooks.Subscription{ID: "sub-1", Secret: "whsec-kept", Endpoint: "https://e.com"}
	b, err := json.Marshal(sub)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"secret":"whsec-kept"`, "users store the secret")
	var back webhooks.Subscription
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, sub, back)
}

func TestRedactedShapes(t *testing.T) {
	v, err := webhooks.NewVerifier("s3cret")
	require.NoError(t, err)
	assert.Equal(t, "webhooks.Verifier{Secret:[redacted], Tolerance:5m0s, MaxBodyBytes:1048576, Dedup:*dedup.memoryStore}",
		fmt.Sprint(v))
	var nilV *webhooks.Verifier
	assert.Equal(t, "<nil>", fmt.Sprint(nilV))
	sub := webhooks.Subscription{ID: "x", Secret: "s3cret"}
	assert.Equal(t, sub.String(), fmt.Sprintf("%+v", sub))
	assert.Equal(t, fmt.Sprintf("%q", sub.String()), fmt.Sprintf("%q", sub))
	assert.Contains(t, fmt.Sprint(webhooks.Subscription{ID: "x"}), `Secret:""`, "a missing secret shows as empty")
}
