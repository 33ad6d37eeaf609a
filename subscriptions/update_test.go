package subscriptions_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/internal/testkit/sdktest"
	"github.com/signkit/signkit-go/subscriptions"
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
		req      *subscriptions.Request
		wantPut  string
		wantGets int
	}{
		{"IsActive unset keeps active", true, &subscriptions.Request{Endpoint: hook, EventTypes: completed},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":true}`, 1},
		{"IsActive unset keeps inactive", false, &subscriptions.Request{Endpoint: hook, EventTypes: completed},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":false}`, 1},
		{"only IsActive re-enables", false, &subscriptions.Request{IsActive: signkit.Ptr(true)},
			`{"endpoint":"https://old.example.com/hook","eventTypes":["sign.signer.signed"],"isActive":true}`, 1},
		{"only endpoint", true, &subscriptions.Request{Endpoint: hook},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.signer.signed"],"isActive":true}`, 1},
		{"whole request, no GET", true, &subscriptions.Request{Endpoint: hook, EventTypes: completed, IsActive: signkit.Ptr(false)},
			`{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":false}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := sdktest.NewEnv(t)
			get := e.Reply(http.MethodGet, subsURL+"/"+subID, 200, storedJSON(tt.stored))
			put := e.Reply(http.MethodPut, subsURL+"/"+subID, 200, subJSON)
			got, err := e.Client.Subscriptions.Update(t.Context(), subID, tt.req)
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
			got, err := e.Client.Subscriptions.Update(t.Context(), subID, req)
			require.NoError(t, err)
			assert.Equal(t, 1, put.Count())
			assert.Equal(t, 1, get.Count(), "read back after the empty answer")
			assert.Equal(t, &subscriptions.Subscription{ID: subID, CustomerID: 42, IsActive: true, Secret: "whsec-xyz",
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
	_, err := e.Client.Subscriptions.Update(t.Context(), subID, validRequest())
	require.ErrorIs(t, err, signkit.ErrNotFound)
	assert.Zero(t, put.Count())
}
