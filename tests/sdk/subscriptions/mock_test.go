package subscriptions_test

// The tests in this file run the calls against the mock server; package
// subscriptions' own tests need no more than a fake transport or an
// httptest server.

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// TestUnknownEventTypeMeetsTheMock: Create and Update send an event type
// the SDK does not know, since the platform may add types; the mock, like
// the service, answers 422, which reaches the caller as a *signkit.Error
// matching signkit.ErrValidation whose message lists the accepted types.
// Nothing is stored or changed.
func TestUnknownEventTypeMeetsTheMock(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	client, err := signkit.NewClient(srv.Config())
	require.NoError(t, err)
	sc := client.Subscriptions
	const unknown webhooks.EventType = "sign.casefile.archived"
	require.False(t, unknown.IsKnown())

	existing, err := sc.Create(t.Context(), &subscriptions.Request{
		Endpoint: "https://hooks.example.test/known", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
	require.NoError(t, err)

	tests := []struct {
		name string
		call func() (*subscriptions.Subscription, error)
		verb string
	}{
		{"create", func() (*subscriptions.Subscription, error) {
			return sc.Create(t.Context(), &subscriptions.Request{
				Endpoint: "https://hooks.example.test/new", EventTypes: []webhooks.EventType{webhooks.SignerSigned, unknown}})
		}, http.MethodPost},
		{"update", func() (*subscriptions.Subscription, error) {
			return sc.Update(t.Context(), existing.ID, &subscriptions.Request{
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
	subs, err := sc.List(t.Context())
	require.NoError(t, err)
	require.Len(t, subs, 1, "nothing was stored")
	assert.Equal(t, []webhooks.EventType{webhooks.CaseFileCompleted}, subs[0].EventTypes, "nothing was changed")
}

// TestUpdateKeepsActiveStateOnTheMock is the acceptance test against the
// mock: an update that leaves IsActive unset keeps an active subscription
// active and an inactive one inactive.
func TestUpdateKeepsActiveStateOnTheMock(t *testing.T) {
	s := mockserver.Start(t)
	c, err := signkit.NewClient(s.Config())
	require.NoError(t, err)
	ctx := t.Context()
	for i, active := range []bool{true, false} {
		created, err := c.Subscriptions.Create(ctx, &subscriptions.Request{
			Endpoint: "http://127.0.0.1:9/hook-" + strconv.Itoa(i), EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted},
			IsActive: signkit.Ptr(active)})
		require.NoError(t, err)
		require.Equal(t, active, created.IsActive)

		moved := "http://127.0.0.1:9/moved-" + strconv.Itoa(i)
		updated, err := c.Subscriptions.Update(ctx, created.ID, &subscriptions.Request{
			Endpoint: moved, EventTypes: []webhooks.EventType{webhooks.SignerSigned, webhooks.SubscriptionTest}})
		require.NoError(t, err)
		assert.Equal(t, active, updated.IsActive, "isActive is kept")
		assert.Equal(t, moved, updated.Endpoint)
		assert.Equal(t, []webhooks.EventType{webhooks.SignerSigned, webhooks.SubscriptionTest}, updated.EventTypes)

		again, err := c.Subscriptions.Get(ctx, created.ID)
		require.NoError(t, err)
		assert.Equal(t, active, again.IsActive, "stored as kept")
		assert.Equal(t, created.Secret, again.Secret, "the secret survives an update")
	}
}
