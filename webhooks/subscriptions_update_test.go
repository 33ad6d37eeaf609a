package webhooks_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/internal/sdktest"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/webhooks"
)

// storedJSON is a subscription as the service holds it before an update.
func storedJSON(active bool) string {
	return `{"id":"` + subID + `","customerId":42,"isActive":` + strconv.FormatBool(active) + `,"secret":"whsec-xyz",` +
		`"endpoint":"https://old.example.com/hook","eventTypes":["sign.signer.signed"]}`
}

// TestUpdateSendsTheWholeSubscription: the PUT always carries endpoint,
// eventTypes and isActive; unset fields come from a GET first, set ones as
// given; a whole request needs no GET.
func TestUpdateSendsTheWholeSubscription(t *testing.T) {
	hook := "https://example.com/hook"
	completed := []webhooks.EventType{webhooks.CaseFileCompleted}
	tests := []struct {
		name     string
		stored   bool // isActive of the stored subscription
		req      *webhooks.SubscriptionRequest
		wantPut  string
		wantGets int
	}{
		{"IsActive unset keeps active", true, &webhooks.SubscriptionRequest{Endpoint: hook, EventTypes: completed},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":true}`, 1},
		{"IsActive unset keeps inactive", false, &webhooks.SubscriptionRequest{Endpoint: hook, EventTypes: completed},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":false}`, 1},
		{"only IsActive re-enables", false, &webhooks.SubscriptionRequest{IsActive: signkit.Ptr(true)},
			`{"endpoint":"https://old.example.com/hook","eventTypes":["sign.signer.signed"],"isActive":true}`, 1},
		{"only endpoint", true, &webhooks.SubscriptionRequest{Endpoint: hook},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.signer.signed"],"isActive":true}`, 1},
		{"whole request, no GET", true, &webhooks.SubscriptionRequest{Endpoint: hook, EventTypes: completed, IsActive: signkit.Ptr(false)},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":false}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := sdktest.NewEnv(t)
			get := e.Reply(http.MethodGet, subsURL+"/"+subID, 200, storedJSON(tt.stored))
			put := e.Reply(http.MethodPut, subsURL+"/"+subID, 200, subJSON)
			got, err := e.Client.Webhooks.UpdateSubscription(t.Context(), subID, tt.req)
			require.NoError(t, err)
			assert.Equal(t, tt.wantGets, get.Count(), "GETs")
			require.Equal(t, 1, put.Count())
			assert.JSONEq(t, tt.wantPut, string(put.Last().Body))
			assert.True(t, sdktest.Bearer(put.Last().Header, "tok-1"), "PUT header %v", put.Last().Header)
			assert.Equal(t, "https://example.com/hook", got.Endpoint, "the PUT answer is decoded")
		})
	}
}

// TestUpdateAnswered204ReadsBack: a PUT answered 204 without a body returns
// the subscription read back with a GET.
func TestUpdateAnswered204ReadsBack(t *testing.T) {
	for _, status := range []int{http.StatusNoContent, http.StatusOK} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			e := sdktest.NewEnv(t)
			get := e.Reply(http.MethodGet, subsURL+"/"+subID, 200, subJSON)
			put := e.Reply(http.MethodPut, subsURL+"/"+subID, status, "")
			req := validRequest()
			req.IsActive = signkit.Ptr(true)
			got, err := e.Client.Webhooks.UpdateSubscription(t.Context(), subID, req)
			require.NoError(t, err)
			assert.Equal(t, 1, put.Count())
			assert.Equal(t, 1, get.Count(), "read back after the empty answer")
			assert.Equal(t, &webhooks.Subscription{ID: subID, CustomerID: 42, IsActive: true, Secret: "whsec-xyz",
				Endpoint: "https://example.com/hook", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}}, got)
		})
	}
}

// TestUpdateOfUnknownSubscriptionSendsNoPut: the GET that fills unset fields
// fails with the service's error, checkable with errors.Is, and no PUT goes.
func TestUpdateOfUnknownSubscriptionSendsNoPut(t *testing.T) {
	e := sdktest.NewEnv(t)
	e.Reply(http.MethodGet, subsURL+"/"+subID, 404, `{"statusCode":404,"error":"not_found","message":"no subscription"}`)
	put := e.Reply(http.MethodPut, subsURL+"/"+subID, 200, subJSON)
	_, err := e.Client.Webhooks.UpdateSubscription(t.Context(), subID, validRequest())
	require.ErrorIs(t, err, signkit.ErrNotFound)
	assert.Zero(t, put.Count())
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
		created, err := c.Webhooks.CreateSubscription(ctx, &webhooks.SubscriptionRequest{
			Endpoint: "http://127.0.0.1:9/hook-" + strconv.Itoa(i), EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted},
			IsActive: signkit.Ptr(active)})
		require.NoError(t, err)
		require.Equal(t, active, created.IsActive)

		moved := "http://127.0.0.1:9/moved-" + strconv.Itoa(i)
		updated, err := c.Webhooks.UpdateSubscription(ctx, created.ID, &webhooks.SubscriptionRequest{
			Endpoint: moved, EventTypes: []webhooks.EventType{webhooks.SignerSigned, webhooks.SubscriptionTest}})
		require.NoError(t, err)
		assert.Equal(t, active, updated.IsActive, "isActive is kept")
		assert.Equal(t, moved, updated.Endpoint)
		assert.Equal(t, []webhooks.EventType{webhooks.SignerSigned, webhooks.SubscriptionTest}, updated.EventTypes)

		again, err := c.Webhooks.GetSubscription(ctx, created.ID)
		require.NoError(t, err)
		assert.Equal(t, active, again.IsActive, "stored as kept")
		assert.Equal(t, created.Secret, again.Secret, "the secret survives an update")
	}
}
