package webhooks_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/webhooks"
)

// TestUnknownEventTypeMeetsTheMock: CreateSubscription and
// UpdateSubscription send an event type the SDK does not know, since the
// platform may add types; the mock, like the service, answers 422, which
// reaches the caller as a *signkit.Error matching signkit.ErrValidation
// whose message lists the accepted types. Nothing is stored or changed.
func TestUnknownEventTypeMeetsTheMock(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	client, err := signkit.NewClient(srv.Config())
	require.NoError(t, err)
	wh := client.Webhooks
	const unknown webhooks.EventType = "sign.casefile.archived"
	require.False(t, unknown.IsKnown())

	existing, err := wh.CreateSubscription(t.Context(), &webhooks.SubscriptionRequest{
		Endpoint: "https://hooks.example.test/known", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
	require.NoError(t, err)

	tests := []struct {
		name string
		call func() (*webhooks.Subscription, error)
		verb string
	}{
		{"create", func() (*webhooks.Subscription, error) {
			return wh.CreateSubscription(t.Context(), &webhooks.SubscriptionRequest{
				Endpoint: "https://hooks.example.test/new", EventTypes: []webhooks.EventType{webhooks.SignerSigned, unknown}})
		}, http.MethodPost},
		{"update", func() (*webhooks.Subscription, error) {
			return wh.UpdateSubscription(t.Context(), existing.ID, &webhooks.SubscriptionRequest{
				EventTypes: []webhooks.EventType{unknown}})
		}, http.MethodPut},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub, err := tt.call()
			assert.Nil(t, sub)
			require.ErrorIs(t, err, signkit.ErrValidation)
			var apiErr *signkit.Error
			require.True(t, errors.As(err, &apiErr), "err %T is not a *signkit.Error: the SDK refused it itself", err)
			assert.Equal(t, http.StatusUnprocessableEntity, apiErr.StatusCode)
			assert.Equal(t, tt.verb, apiErr.Method, "the service answered, not the SDK")
			assert.Contains(t, apiErr.Message, string(unknown))
			for _, typ := range webhooks.AllEventTypes() {
				assert.Contains(t, apiErr.Message, string(typ), "the message names every accepted type")
			}
			assert.True(t, strings.Contains(err.Error(), "accepted:"), err.Error())
		})
	}
	subs, err := wh.ListSubscriptions(t.Context())
	require.NoError(t, err)
	require.Len(t, subs, 1, "nothing was stored")
	assert.Equal(t, []webhooks.EventType{webhooks.CaseFileCompleted}, subs[0].EventTypes, "nothing was changed")
}
