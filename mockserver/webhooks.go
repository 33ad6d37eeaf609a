package mockserver

import (
	"crypto/tls"

	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// Outcomes of a delivery attempt, as Delivery.Outcome reports them.
const (
	// OutcomePending is an attempt whose request is on its way: the
	// journal lists an attempt before the receiver can get it, and sets its
	// outcome once it ends (within about 1.2 s of real time).
	OutcomePending = webhooks.OutcomePending
	// OutcomeDelivered is an attempt the endpoint acknowledged with 2xx in time.
	OutcomeDelivered = webhooks.OutcomeDelivered
	// OutcomeFailed is any other attempt: no connection within 200 ms, no
	// complete answer within 1 s, or a status outside 2xx.
	OutcomeFailed = webhooks.OutcomeFailed
)

// Delivery is one attempt to deliver an event to a webhook subscription, as
// GET /mock/deliveries and Server.Deliveries list it: EventID (X-Event-Id,
// the same on every attempt of the event to this subscription), EventType,
// SubscriptionID, Attempt (from 1, the first attempt, to 36, the 35th
// retry), Replay (sent again by the dashboard's Replay; counts from 1
// again), At (the mock time of the attempt, the t of its signature),
// Outcome (OutcomePending while the request is on its way, then
// OutcomeDelivered or OutcomeFailed), Status (the endpoint's HTTP status, 0
// when it did not answer or has not yet), Error (why a failed attempt
// failed) and DurationMs (the real time the attempt took).
type Delivery = webhooks.Delivery

// SetWebhookTLSConfig sets the TLS configuration of webhook deliveries to
// https endpoints, for example to trust the certificate of an
// httptest.NewTLSServer: srv.SetWebhookTLSConfig(ts.Client().Transport.(*http.Transport).TLSClientConfig).
// nil returns to the system's roots. Attempts that have started keep the
// configuration they started with.
func (s *Server) SetWebhookTLSConfig(c *tls.Config) { s.core.Webhooks.SetTLSConfig(c) }

// Deliveries answers the most recent webhook delivery attempts (as many as
// the request journal keeps, see WithJournalSize), in the order they
// started, oldest first; an attempt whose entry newer ones overwrote while
// it was in flight comes back, complete, as the newest entry. An attempt is listed before its request leaves,
// so a receiver that calls Deliveries on getting an event finds the
// attempt, OutcomePending until the receiver has answered. The first
// attempt of an event runs in the background: with the manual clock,
// Advance returns once attempts in flight have ended; with the real clock,
// poll until the attempt's Outcome is no longer OutcomePending.
func (s *Server) Deliveries() []Delivery { return s.core.Webhooks.Deliveries() }
