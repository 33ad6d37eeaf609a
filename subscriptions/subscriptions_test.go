package subscriptions_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/internal/testkit/sdktest"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

const (
	subsURL = `https://platform\.test/base/webhook/api/v1/subscriptions`
	subJSON = `{"id":"5b0f6d1e-1d1a-4c1e-9f3a-2f1f6f1b7e11","customerId":42,"isActive":true,"secret":"whsec-xyz",` +
		`"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"]}`
	subID = "5b0f6d1e-1d1a-4c1e-9f3a-2f1f6f1b7e11"
)

func validRequest() *subscriptions.Request {
	return &subscriptions.Request{Endpoint: "https://example.com/hook", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}}
}

func subscriptionCalls() []sdktest.Call {
	return []sdktest.Call{
		{Name: "Create", Method: http.MethodPost, URL: subsURL, Status: 201, Body: subJSON, TokenCheck: sdktest.Bearer,
			Do: func(ctx context.Context, c *signkit.Client) error {
				_, err := c.Subscriptions.Create(ctx, validRequest())
				return err
			}},
		{Name: "List", Method: http.MethodGet, URL: subsURL, Status: 200, Body: `{"items":[` + subJSON + `]}`, TokenCheck: sdktest.Bearer,
			Do: func(ctx context.Context, c *signkit.Client) error {
				_, err := c.Subscriptions.List(ctx)
				return err
			}},
		{Name: "Get", Method: http.MethodGet, URL: subsURL + "/" + subID, Status: 200, Body: subJSON, TokenCheck: sdktest.Bearer,
			Do: func(ctx context.Context, c *signkit.Client) error {
				_, err := c.Subscriptions.Get(ctx, subID)
				return err
			}},
		{Name: "Update", Method: http.MethodPut, URL: subsURL + "/" + subID, Status: 200, Body: subJSON, TokenCheck: sdktest.Bearer,
			Do: func(ctx context.Context, c *signkit.Client) error {
				whole := validRequest()
				whole.IsActive = signkit.Ptr(true) // a whole request: no GET first
				_, err := c.Subscriptions.Update(ctx, subID, whole)
				return err
			}},
		{Name: "Delete", Method: http.MethodDelete, URL: subsURL + "/" + subID, Status: 204, TokenCheck: sdktest.Bearer,
			Do: func(ctx context.Context, c *signkit.Client) error {
				return c.Subscriptions.Delete(ctx, subID)
			}},
		{Name: "SendTestEvent", Method: http.MethodPost, URL: subsURL + "/test", Status: 204, TokenCheck: sdktest.Bearer,
			Do: func(ctx context.Context, c *signkit.Client) error {
				return c.Subscriptions.SendTestEvent(ctx)
			}},
	}
}

func TestSubscriptionFailurePaths(t *testing.T) {
	t.Parallel()
	for _, c := range subscriptionCalls() {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			sdktest.RunFailurePaths(t, c)
		})
	}
}

func TestSubscriptionCalls(t *testing.T) {
	e := sdktest.NewEnv(t)
	create := e.Reply(http.MethodPost, subsURL, 201, subJSON)
	list := e.Reply(http.MethodGet, subsURL, 200, `{"items":[`+subJSON+`,`+subJSON+`]}`)
	get := e.Reply(http.MethodGet, subsURL+"/"+subID, 200, subJSON)
	put := e.Reply(http.MethodPut, subsURL+"/"+subID, 200, subJSON)
	del := e.Reply(http.MethodDelete, subsURL+"/"+subID, 204, "")
	test := e.Reply(http.MethodPost, subsURL+"/test", 204, "")
	ctx := t.Context()
	sc := e.Client.Subscriptions

	s, err := sc.Create(ctx, validRequest())
	require.NoError(t, err)
	assert.Equal(t, &subscriptions.Subscription{ID: subID, CustomerID: 42, IsActive: true, Secret: "whsec-xyz",
		Endpoint: "https://example.com/hook", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}}, s)
	req := create.Last()
	assert.JSONEq(t, `{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"]}`, string(req.Body))
	for header, want := range map[string]string{
		"Authorization": "Bearer tok-1", "X-Auth-Token": "", "Accept": "application/json",
		"Accept-Charset": "utf-8", "Content-Type": "application/json",
	} {
		assert.Equal(t, want, req.Header.Get(header), header)
	}

	all, err := sc.List(ctx)
	require.NoError(t, err)
	assert.Len(t, all, 2)
	_, err = sc.Get(ctx, subID)
	require.NoError(t, err)

	reenable := validRequest()
	reenable.IsActive = signkit.Ptr(true)
	_, err = sc.Update(ctx, subID, reenable)
	require.NoError(t, err)
	assert.JSONEq(t, `{"endpoint":"https://example.com/hook","eventTypes":["sign.casefile.completed"],"isActive":true}`, string(put.Last().Body))

	require.NoError(t, sc.Delete(ctx, subID))
	require.NoError(t, sc.SendTestEvent(ctx))
	assert.JSONEq(t, `{}`, string(test.Last().Body), "the test event is asked for with an empty JSON object")
	assert.Equal(t, "application/json", test.Last().Header.Get("Content-Type"))
	for name, rec := range map[string]*sdktest.Recorder{"list": list, "get": get, "put": put, "delete": del, "test": test} {
		assert.Equal(t, 1, rec.Count(), name)
	}
}

func TestRequestValidation(t *testing.T) {
	completed := []webhooks.EventType{webhooks.CaseFileCompleted}
	tests := []struct {
		name     string
		req      *subscriptions.Request
		problems []signkit.Problem
		// updateProblems are what Update refuses, which fills
		// unset fields from the current subscription; nil: the same.
		updateProblems []signkit.Problem
		updateOK       bool // an update with it is sent (all unset: filled)
	}{
		{name: "https", req: &subscriptions.Request{Endpoint: "https://example.com/h", EventTypes: completed}},
		{name: "http on 127.0.0.1", req: &subscriptions.Request{Endpoint: "http://127.0.0.1:8080/h", EventTypes: completed}},
		{name: "http on 127.8.9.10", req: &subscriptions.Request{Endpoint: "http://127.8.9.10/h", EventTypes: completed}},
		{name: "http on ::1", req: &subscriptions.Request{Endpoint: "http://[::1]:9/h", EventTypes: completed}},
		{name: "http on localhost", req: &subscriptions.Request{Endpoint: "http://LOCALHOST:9/h", EventTypes: completed}},
		{name: "all event types", req: &subscriptions.Request{Endpoint: "https://e.com", EventTypes: webhooks.AllEventTypes()}},
		{name: "http elsewhere", req: &subscriptions.Request{Endpoint: "http://example.com/h", EventTypes: completed},
			problems: []signkit.Problem{{Field: "endpoint", Message: "must use https (http is accepted only for loopback hosts)"}}},
		{name: "http on a private address", req: &subscriptions.Request{Endpoint: "http://10.0.0.1/h", EventTypes: completed},
			problems: []signkit.Problem{{Field: "endpoint", Message: "must use https (http is accepted only for loopback hosts)"}}},
		{name: "other scheme", req: &subscriptions.Request{Endpoint: "ftp://example.com/h", EventTypes: completed},
			problems: []signkit.Problem{{Field: "endpoint", Message: `must use https, not "ftp"`}}},
		{name: "relative", req: &subscriptions.Request{Endpoint: "/hook", EventTypes: completed},
			problems: []signkit.Problem{{Field: "endpoint", Message: "must be an absolute URL"}}},
		{name: "empty", req: &subscriptions.Request{},
			problems: []signkit.Problem{{Field: "endpoint", Message: "is required"}, {Field: "eventTypes", Message: "must list at least one event type"}},
			updateOK: true},
		{name: "everything wrong", req: &subscriptions.Request{Endpoint: "ftp://e.com"},
			problems:       []signkit.Problem{{Field: "endpoint", Message: `must use https, not "ftp"`}, {Field: "eventTypes", Message: "must list at least one event type"}},
			updateProblems: []signkit.Problem{{Field: "endpoint", Message: `must use https, not "ftp"`}}},
		// The platform may add types: an unknown one is sent, for the
		// service to judge (TestUnknownEventTypeMeetsTheMock's 422).
		{name: "unknown type is sent", req: &subscriptions.Request{Endpoint: "https://e.com",
			EventTypes: []webhooks.EventType{"sign.casefile.complete", webhooks.SignerSigned}}},
		{name: "empty and repeated types", req: &subscriptions.Request{Endpoint: "https://e.com",
			EventTypes: []webhooks.EventType{"", "sign.casefile.archived", webhooks.SignerSigned, webhooks.SignerSigned, "sign.casefile.archived"}},
			problems: []signkit.Problem{
				{Field: "eventTypes[0]", Message: "must not be empty"},
				{Field: "eventTypes[3]", Message: `"sign.signer.signed" is listed twice`},
				{Field: "eventTypes[4]", Message: `"sign.casefile.archived" is listed twice`},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := sdktest.NewEnv(t) // any request without a responder fails the test
			if tt.problems == nil {
				rec := e.Reply(http.MethodPost, subsURL, 201, subJSON)
				_, err := e.Client.Subscriptions.Create(t.Context(), tt.req)
				require.NoError(t, err)
				assert.Equal(t, 1, rec.Count())
				return
			}
			_, err := e.Client.Subscriptions.Create(t.Context(), tt.req)
			require.ErrorIs(t, err, signkit.ErrValidation)
			var verr *signkit.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tt.problems, verr.Problems)
			if tt.updateOK {
				assert.Equal(t, int32(0), e.Tokens.Load(), "nothing was sent")
				return
			}
			_, err = e.Client.Subscriptions.Update(t.Context(), subID, tt.req)
			require.ErrorAs(t, err, &verr)
			want := tt.updateProblems
			if want == nil {
				want = tt.problems
			}
			assert.Equal(t, want, verr.Problems, "update")
			assert.Equal(t, int32(0), e.Tokens.Load(), "nothing was sent")
		})
	}
}

// TestValidationErrorNamesThePackage: a refused request's error says which
// package refused it and lists every problem.
func TestValidationErrorNamesThePackage(t *testing.T) {
	err := (&subscriptions.Request{Endpoint: "ftp://e.com"}).Validate()
	assert.EqualError(t, err, `subscriptions: invalid subscription request: 2 problems: endpoint: must use https, not "ftp"; `+
		`eventTypes: must list at least one event type`)
	var nilReq *subscriptions.Request
	assert.EqualError(t, nilReq.Validate(), "subscriptions: invalid subscription request: request: is nil")
}

func TestEmptyIDIsRefused(t *testing.T) {
	e := sdktest.NewEnv(t)
	_, err := e.Client.Subscriptions.Get(t.Context(), "")
	assert.ErrorIs(t, err, signkit.ErrValidation)
	assert.ErrorIs(t, e.Client.Subscriptions.Delete(t.Context(), ""), signkit.ErrValidation)
	_, err = e.Client.Subscriptions.Update(t.Context(), "", validRequest())
	assert.ErrorIs(t, err, signkit.ErrValidation)
}

// TestCreateResolvesItsOwnConflict: a create re-sent after an answer that left
// its outcome in doubt and then refused with 409 returns the subscription its
// first copy made
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md); a 409 to a
// create sent once, or a 409 with no subscription that matches the request,
// stays an error.
func TestCreateResolvesItsOwnConflict(t *testing.T) {
	other := `{"id":"other","customerId":42,"isActive":true,"secret":"s2","endpoint":"https://example.com/hook","eventTypes":["sign.signer.signed"]}`
	tests := []struct {
		name     string
		statuses []int  // answers to the POSTs, in turn
		items    string // the list's items
		wantID   string // "": ErrConflict
		lists    int
	}{
		{"re-sent after 503, then 409", []int{503, 409}, subJSON, subID, 1},
		{"re-sent after 429, then 409, endpoint in another case", []int{429, 409},
			`{"id":"x1","isActive":true,"secret":"s","endpoint":"HTTPS://EXAMPLE.COM/hook","eventTypes":["sign.casefile.completed"]}`, "x1", 1},
		{"409 at once", []int{409}, subJSON, "", 0},
		{"re-sent, 409, but no match", []int{503, 409}, other, "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := sdktest.NewEnv(t, 2)
			post := e.Handle(http.MethodPost, subsURL, func(_ *http.Request, n int) (*http.Response, error) {
				st := tt.statuses[min(n-1, len(tt.statuses)-1)]
				r := sdktest.JSON(st, fmt.Sprintf(`{"statusCode":%d,"message":"no"}`, st))
				r.Header.Set("Retry-After", "0")
				return r, nil
			})
			list := e.Reply(http.MethodGet, subsURL, 200, `{"items":[`+tt.items+`]}`)
			s, err := e.Client.Subscriptions.Create(t.Context(), validRequest())
			assert.Equal(t, len(tt.statuses), post.Count(), "POSTs sent")
			assert.Equal(t, tt.lists, list.Count(), "lists")
			if tt.wantID == "" {
				assert.ErrorIs(t, err, signkit.ErrConflict)
				assert.Nil(t, s)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantID, s.ID)
			assert.NotEmpty(t, s.Secret)
		})
	}
}
