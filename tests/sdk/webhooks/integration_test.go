package webhooks_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// receiver is an integrator's webhook endpoint built with Verifier.Handler.
// Its handler fails the first delivery of failType, as a handler whose
// database is briefly down would.
type receiver struct {
	*httptest.Server
	handler  atomic.Pointer[http.Handler]
	failType webhooks.EventType

	mu        sync.Mutex
	failed    bool
	processed map[string]int // event id → times processed
	events    []*webhooks.Event
}

func newReceiver(t *testing.T, failType webhooks.EventType) *receiver {
	r := &receiver{failType: failType, processed: map[string]int{}}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		(*r.handler.Load()).ServeHTTP(w, req)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) use(v *webhooks.Verifier) {
	h := v.Handler(r.process)
	r.handler.Store(&h)
}

func (r *receiver) process(_ context.Context, ev *webhooks.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ev.Type == r.failType && !r.failed {
		r.failed = true
		return errors.New("database is down")
	}
	r.processed[ev.ID]++
	r.events = append(r.events, ev)
	return nil
}

func (r *receiver) snapshot() (map[string]int, []*webhooks.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	counts := make(map[string]int, len(r.processed))
	for id, n := range r.processed {
		counts[id] = n
	}
	return counts, append([]*webhooks.Event(nil), r.events...)
}

// TestIntegrationReceiveVerifiedEvents subscribes a receiver built with
// Handler, signs a case file through the mock, and checks that every event
// arrives verified and is processed exactly once, including one whose first
// delivery the handler failed: the platform's retry is accepted.
func TestIntegrationReceiveVerifiedEvents(t *testing.T) {
	srv := mockserver.Start(t, mockserver.WithManualClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)))
	client, err := signkit.NewClient(srv.Config())
	require.NoError(t, err)
	ctx := t.Context()
	recv := newReceiver(t, webhooks.SignerSigned)

	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: recv.URL + "/hooks/signkit", EventTypes: webhooks.AllEventTypes(),
	})
	require.NoError(t, err)
	require.True(t, sub.IsActive)
	v, err := webhooks.NewVerifier(sub.Secret, webhooks.WithClock(srv.Now))
	require.NoError(t, err)
	recv.use(v)

	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Employment contract",
		Signers:   []casefiles.Signer{{Name: "Ada Lovelace", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "contract.pdf", Title: "Contract"}},
	}, casefiles.BytesUpload("contract.pdf", mockserver.SamplePDF("Agreement")))
	require.NoError(t, err)
	srv.Advance(2 * time.Second) // the job runs; activation events are delivered
	result, err := client.CaseFiles.Wait(ctx, job)
	require.NoError(t, err)
	details, err := client.CaseFiles.Get(ctx, result.CaseFileID)
	require.NoError(t, err)
	require.Len(t, details.Signers, 1)

	require.NoError(t, srv.SignerAction(result.CaseFileID, details.Signers[0].ID, mockserver.ActionSign))
	srv.Advance(0)               // the first attempts of signed, completed and finalized
	srv.Advance(5 * time.Second) // the first retry of the failed signed delivery

	counts, events := recv.snapshot()
	var types []webhooks.EventType
	for _, ev := range events {
		types = append(types, ev.Type)
		assert.Equal(t, result.CaseFileID, ev.CaseFile.ID, "%s names the case file", ev.Type)
	}
	assert.ElementsMatch(t, []webhooks.EventType{
		webhooks.SignerRequestActivated, webhooks.SignerRequestSent, webhooks.SignerSigned,
		webhooks.CaseFileCompleted, webhooks.SignerFinalized,
	}, types)
	for id, n := range counts {
		assert.Equal(t, 1, n, "event %s processed exactly once", id)
	}

	attempts := map[string][]mockserver.Delivery{}
	for _, d := range srv.Deliveries() {
		attempts[d.EventType] = append(attempts[d.EventType], d)
	}
	signed := attempts[string(webhooks.SignerSigned)]
	require.Len(t, signed, 2, "the failed delivery was retried once")
	assert.Equal(t, 500, signed[0].Status)
	assert.Equal(t, mockserver.OutcomeDelivered, signed[1].Outcome)
	assert.Equal(t, signed[0].EventID, signed[1].EventID, "a retry keeps the event id")
	assert.Equal(t, 5*time.Second, signed[1].At.Sub(signed[0].At))
	for typ, ds := range attempts {
		if typ != string(webhooks.SignerSigned) {
			require.Len(t, ds, 1, typ)
			assert.Equal(t, mockserver.OutcomeDelivered, ds[0].Outcome, typ)
		}
	}
}

// TestIntegrationTestEvent asks the service for a test event and receives it
// verified; a receiver with the wrong secret refuses it, so it is retried.
func TestIntegrationTestEvent(t *testing.T) {
	srv := mockserver.Start(t, mockserver.WithManualClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)))
	client, err := signkit.NewClient(srv.Config())
	require.NoError(t, err)
	ctx := t.Context()
	good, wrong := newReceiver(t, ""), newReceiver(t, "")
	for _, r := range []*receiver{good, wrong} {
		sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
			Endpoint: r.URL, EventTypes: []webhooks.EventType{webhooks.SubscriptionTest},
		})
		require.NoError(t, err)
		secret := sub.Secret
		if r == wrong {
			secret = "not-the-secret"
		}
		v, err := webhooks.NewVerifier(secret, webhooks.WithClock(srv.Now))
		require.NoError(t, err)
		r.use(v)
	}

	require.NoError(t, client.Subscriptions.SendTestEvent(ctx))
	srv.Advance(0)
	_, events := good.snapshot()
	require.Len(t, events, 1)
	assert.Equal(t, webhooks.SubscriptionTest, events[0].Type)
	assert.Equal(t, "subscription", events[0].Topic)
	assert.NotEmpty(t, events[0].Message)
	_, refused := wrong.snapshot()
	assert.Empty(t, refused, "a signature made with another secret is refused")

	var statuses []int
	for _, d := range srv.Deliveries() {
		statuses = append(statuses, d.Status)
	}
	assert.ElementsMatch(t, []int{204, 400}, statuses)
}
