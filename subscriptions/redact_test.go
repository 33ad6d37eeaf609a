package subscriptions_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/testkit/redacttest"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

func TestNoVerbOrHandlerPrintsTheWebhookSecret(t *testing.T) {
	const secret = "whsec-very-secret-1"
	sub := subscriptions.Subscription{ID: "sub-1", CustomerID: 42, IsActive: true, Secret: secret,
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
		{"[]Subscription", []subscriptions.Subscription{sub}, []string{"sub-1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			renders := redacttest.Renderings(tc.value)
			if tc.noJSON {
				delete(renders, "slog json")
			}
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

func TestSubscriptionJSONKeepsTheSecret(t *testing.T) {
	sub := subscriptions.Subscription{ID: "sub-1", Secret: "whsec-kept", Endpoint: "https://e.com"}
	b, err := json.Marshal(sub)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"secret":"whsec-kept"`, "users store the secret")
	var back subscriptions.Subscription
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, sub, back)
}

func TestRedactedShapes(t *testing.T) {
	sub := subscriptions.Subscription{ID: "x", Secret: "s3cret"}
	assert.Equal(t, sub.String(), fmt.Sprintf("%+v", sub))
	assert.Equal(t, fmt.Sprintf("%q", sub.String()), fmt.Sprintf("%q", sub))
	assert.Contains(t, fmt.Sprint(subscriptions.Subscription{ID: "x"}), `Secret:""`, "a missing secret shows as empty")
	assert.Equal(t, `subscriptions.Subscription{ID:"x", CustomerID:0, IsActive:false, Secret:[redacted], Endpoint:"", EventTypes:[]}`,
		fmt.Sprintf("%#v", sub), "the type is named after its package")
}
