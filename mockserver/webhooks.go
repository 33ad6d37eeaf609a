package mockserver

import (
	"crypto/tls"

	"github.com/signkit/signkit-go/mockserver/internal/webhook"
)

// Outcomes of a delivery attempt, as Delivery.Outcome reports them.
const (
	// OutcomeDelivered is an attempt the endpoint acknowledged with 2xx in time.
	OutcomeDelivered = webhook.OutcomeDelivered
	// OutcomeFailed is any other attempt: no connection within 200 ms, no
	// complete answer within 1 s, or a status outside 2xx.
	OutcomeFailed = webhook.OutcomeFailed
)

// Delivery is one attempt to deliver an event to a webhook subscription, as
// GET /mock/deliveries and Server.Deliveries list it: EventID (X-Event-Id,
// the same on every attempt of the event to this subscription), EventType,
// SubscriptionID, Attempt (from 1, the first attempt, to 36, the 35th
// retry), Replay (sent again by the dashboard's Replay; counts from 1
// again), At (the mock time of the attempt, the t of its signature),
// Outcome (OutcomeDelivered or OutcomeFailed), Status (the endpoint's HTTP
// status, 0 when it did not answer), Error (why a failed attempt failed)
// and DurationMs (the real time the attempt took).
type Delivery = webhook.Delivery

// SetWebhookTLSConfig sets the TLS configuration of webhook deliveries to
// https endpoints, for example to trust the certificate of an
// httptest.NewTLSServer: srv.SetWebhookTLSConfig(ts.Client().Transport.(*http.Transport).TLSClientConfig).
// nil returns to the system's roots. Attempts that have started keep the
// configuration they started with.
func (s *Server) SetWebhookTLSConfig(c *tls.Config) { s.core.Webhooks.SetTLSConfig(c) }

// Deliveries answers the most recent webhook delivery attempts (as many as
// the request journal keeps, see WithJournalSize), oldest first. Call
// Advance (or wait) first: the first attempt of an event runs in the
// background.
func (s *Server) Deliveries() []Delivery { return s.core.Webhooks.Deliveries() }
