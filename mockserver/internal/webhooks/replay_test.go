package webhooks_test

import (
	"bytes"
	"errors"
	"net/http"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Replay delivers a journaled event again, with the same X-Event-Id and
// body, as a new series of attempts; an unknown delivery is a 404, a
// subscription that no longer takes it a 409.
func TestReplayDeliversTheSameEventAgain(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := adminToken(t, s)
	rc := newReceiver(t, http.StatusOK)
	sub := subscribe(t, s, tok, rc.URL(), "webhook.subscription.test")
	sendTestEvent(t, s, tok)
	s.Advance(0)
	first := s.Deliveries()
	if len(first) != 1 || len(rc.Requests()) != 1 {
		t.Fatalf("before the replay: %d attempts, %d received", len(first), len(rc.Requests()))
	}
	if err := testkit.Core(s).Webhooks.Replay(sub.ID, first[0].EventID); err != nil {
		t.Fatal(err)
	}
	s.Advance(0)
	got, reqs := s.Deliveries(), rc.Requests()
	if len(got) != 2 || got[1].EventID != first[0].EventID || got[1].Attempt != 1 || got[1].Outcome != mockserver.OutcomeDelivered ||
		got[0].Replay || !got[1].Replay {
		t.Fatalf("after the replay: %+v", got)
	}
	if len(reqs) != 2 || reqs[1].Header.Get("X-Event-Id") != reqs[0].Header.Get("X-Event-Id") || !bytes.Equal(reqs[1].Body, reqs[0].Body) {
		t.Fatalf("the replay is not the same event: %d requests", len(reqs))
	}
	if _, err := verifySignature(sub.Secret, reqs[1].Header, reqs[1].Body); err != nil {
		t.Fatalf("the replay's signature: %v", err)
	}

	var we *wire.Error
	if err := testkit.Core(s).Webhooks.Replay(sub.ID, "no-such-event"); !errors.As(err, &we) || we.Status != 404 {
		t.Fatalf("replay of an unknown event: %v", err)
	}
	if st, b := sdkCall(t, s, "PUT", "/webhook/api/v1/subscriptions/"+sub.ID, tok, map[string]any{
		"endpoint": rc.URL(), "eventTypes": []string{"webhook.subscription.test"}, "isActive": false}, nil); st != 200 {
		t.Fatalf("deactivate: %d %s", st, b)
	}
	if err := testkit.Core(s).Webhooks.Replay(sub.ID, first[0].EventID); !errors.As(err, &we) || we.Status != 409 {
		t.Fatalf("replay to an inactive subscription: %v", err)
	}
}
