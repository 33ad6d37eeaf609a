package webhooks_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// TestWrappedJournalKeepsTheOutcomeOfAnAttemptInFlight holds one delivery
// attempt in flight at a receiver while other deliveries come round a
// deliveries journal of two entries, so that the attempt's pending entry is
// overwritten; once released, the attempt's outcome must be in the journal, in
// Go and over HTTP, as the newest entry
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#webhook-delivery).
func TestWrappedJournalKeepsTheOutcomeOfAnAttemptInFlight(t *testing.T) {
	t.Parallel()
	s := newServer(t, mockserver.WithJournalSize(2))
	entered, release := make(chan struct{}), make(chan struct{})
	held := newReceiver(t, http.StatusNoContent)
	held.Handle = func(w http.ResponseWriter, _ *http.Request) {
		close(entered)
		select { // the engine gives up after 1 s; a failed outcome must be kept too
		case <-release:
		case <-time.After(2 * time.Second):
		}
		w.WriteHeader(http.StatusNoContent)
	}
	tokA := adminToken(t, s)
	subA := subscribe(t, s, tokA, held.URL(), testEventType)
	sendTestEvent(t, s, tokA)
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the held attempt never reached its receiver")
	}

	// Another customer's three deliveries come round the journal meanwhile.
	fast := newReceiver(t, http.StatusNoContent)
	_, tokB := addUser(t, s, mockserver.UserSpec{Name: "Bea", Email: "bea@example.com", Admin: true, NewCustomer: true})
	subscribe(t, s, tokB, fast.URL(), testEventType)
	for range 3 {
		sendTestEvent(t, s, tokB)
		select {
		case <-fast.Got:
		case <-time.After(10 * time.Second):
			t.Fatal("a delivery of the other customer never came")
		}
	}
	for _, d := range s.Deliveries() {
		if d.SubscriptionID == subA.ID {
			t.Fatalf("the journal of two still holds the held attempt: %+v", s.Deliveries())
		}
	}
	close(release)
	s.Advance(0) // waits for the held attempt to end

	var kept []mockserver.Delivery
	for _, d := range s.Deliveries() {
		if d.SubscriptionID == subA.ID {
			kept = append(kept, d)
		}
	}
	if len(kept) != 1 || kept[0].Outcome == mockserver.OutcomePending || kept[0].Attempt != 1 {
		t.Fatalf("held attempt's entries %+v; journal %+v", kept, s.Deliveries())
	}
	if all := s.Deliveries(); all[len(all)-1] != kept[0] {
		t.Errorf("the held attempt's outcome is not the newest entry: %+v", all)
	}
	var page struct {
		Items []struct {
			EventID string `json:"eventId"`
			Outcome string `json:"outcome"`
			Status  int    `json:"status"`
		} `json:"items"`
	}
	if st, b := testkit.Call(t, s, http.MethodGet, "/mock/deliveries?subscriptionId="+subA.ID, "", nil, &page); st != http.StatusOK ||
		len(page.Items) != 1 || page.Items[0].EventID != kept[0].EventID || page.Items[0].Outcome != kept[0].Outcome {
		t.Errorf("GET /mock/deliveries: %d %s", st, b)
	}
}
