package mockserver

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ring"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Outcomes of a delivery attempt, as Delivery.Outcome reports them.
const (
	// OutcomeDelivered is an attempt the endpoint acknowledged with 2xx in time.
	OutcomeDelivered = "delivered"
	// OutcomeFailed is any other attempt: no connection within 200 ms, no
	// complete answer within 1 s, or a status outside 2xx.
	OutcomeFailed = "failed"
)

// Delivery is one attempt to deliver an event to a webhook subscription, as
// GET /mock/deliveries and Server.Deliveries list it.
type Delivery struct {
	// EventID is the X-Event-Id sent: the same on every attempt of the
	// event to this subscription.
	EventID string `json:"eventId"`
	// EventType is the X-Event-Type sent, such as sign.casefile.completed.
	EventType      string `json:"eventType"`
	SubscriptionID string `json:"subscriptionId"`
	// Attempt counts from 1 (the first attempt) to 36 (the 35th retry).
	Attempt int `json:"attempt"`
	// At is the mock time of the attempt (the t of its signature).
	At time.Time `json:"at"`
	// Outcome is OutcomeDelivered or OutcomeFailed.
	Outcome string `json:"outcome"`
	// Status is the endpoint's HTTP status, 0 when it did not answer.
	Status int `json:"status"`
	// Error says why a failed attempt failed; empty when delivered.
	Error string `json:"error"`
	// DurationMs is the real time the attempt took, in milliseconds.
	DurationMs int64 `json:"durationMs"`
}

// deliveryJournal remembers the last delivery attempts.
type deliveryJournal = ring.Ring[Delivery]

func newDeliveryJournal(size int) *deliveryJournal { return ring.New[Delivery](size) }

// Deliveries answers the most recent webhook delivery attempts (as many as
// the request journal keeps, see WithJournalSize), oldest first. Call
// Advance (or wait) first: the first attempt of an event runs in the
// background.
func (s *Server) Deliveries() []Delivery { return s.webhooks.deliveries.List() }

// ctlDeliveries is GET /mock/deliveries[?subscriptionId=…][&eventId=…][&eventType=…]:
// {"items":[{"eventId","eventType","subscriptionId","attempt","at","outcome","status","error","durationMs"}]}.
func (s *Server) ctlDeliveries(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	items := []Delivery{}
	for _, d := range s.Deliveries() {
		if passesFilter(q.Get("subscriptionId"), d.SubscriptionID) && passesFilter(q.Get("eventId"), d.EventID) &&
			passesFilter(q.Get("eventType"), d.EventType) {
			d.At = d.At.UTC()
			items = append(items, d)
		}
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}

// passesFilter reports whether a value passes a filter; an empty filter passes all.
func passesFilter(filter, v string) bool { return filter == "" || filter == v }
