package mockserver

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhook"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
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
// retry), At (the mock time of the attempt, the t of its signature),
// Outcome (OutcomeDelivered or OutcomeFailed), Status (the endpoint's HTTP
// status, 0 when it did not answer), Error (why a failed attempt failed)
// and DurationMs (the real time the attempt took).
type Delivery = webhook.Delivery

// initWebhooks sets up the webhook service (subscriptions, delivery
// engine, deliveries journal), wired to the event log, the accounts and
// the outbox, and fault injection.
func (s *Server) initWebhooks() {
	s.webhooks = webhook.New(webhook.Config{
		Clock: s.clock, MaxBodyBytes: s.cfg.maxBodyBytes, JournalSize: s.cfg.journalSize,
		CallerOf: func(r *http.Request) webhook.Caller {
			u := userFrom(r)
			return webhook.Caller{UserID: u.ID, CustomerID: u.CustomerID}
		},
		TakePlace:  func(customerID int64) error { return s.quotas.subscriptions.take(customerID, 1) },
		GivePlace:  func(customerID int64) { s.quotas.subscriptions.give(customerID, 1) },
		EmitTest:   s.emitTestEvent,
		OnDisabled: s.notifySubscriptionDisabled,
	})
	s.faults = newFaultStore()
	s.onReset(s.webhooks.Reset)
	s.onReset(s.faults.reset)
	s.consumeEventLog()
}

// closeWebhooks lets go of the delivery engine's idle connections; Close
// calls it once work in flight has ended.
func (s *Server) closeWebhooks() { s.webhooks.Close() }

// SetWebhookTLSConfig sets the TLS configuration of webhook deliveries to
// https endpoints, for example to trust the certificate of an
// httptest.NewTLSServer: srv.SetWebhookTLSConfig(ts.Client().Transport.(*http.Transport).TLSClientConfig).
// nil returns to the system's roots. Attempts that have started keep the
// configuration they started with.
func (s *Server) SetWebhookTLSConfig(c *tls.Config) { s.webhooks.SetTLSConfig(c) }

// Deliveries answers the most recent webhook delivery attempts (as many as
// the request journal keeps, see WithJournalSize), oldest first. Call
// Advance (or wait) first: the first attempt of an event runs in the
// background.
func (s *Server) Deliveries() []Delivery { return s.webhooks.Deliveries() }

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

// testEventMessage is the payload of the test event.
const testEventMessage = "This is a test event from the signkit mock server."

// consumeEventLog makes the delivery engine a listener of the event log:
// every event of every case file of a customer (whichever user created it)
// goes to each active subscription of the customer that lists its type.
func (s *Server) consumeEventLog() {
	s.signing.Subscribe(func(ev *signing.Event) {
		s.webhooks.Publish(webhook.Event{CustomerID: ev.CustomerID, Type: ev.Type, Body: ev.Body})
	})
}

// emitTestEvent puts a webhook.subscription.test event of a customer in the
// event log (topic subscription, eventType test, a text message as payload).
func (s *Server) emitTestEvent(customerID int64) {
	s.signing.Emit(customerID, 0, webhook.TestEventType, s.Now(), testEventMessage)
}

// sendNotificationEmail puts an email without a signing link in the outbox.
func (s *Server) sendNotificationEmail(to, subject, text string) {
	s.signing.SendEmail(to, subject, text, "")
}

// notifySubscriptionDisabled emails the creator of a subscription that
// failures disabled, and every admin of its customer, once each.
func (s *Server) notifySubscriptionDisabled(d webhook.Disabled) {
	recipients := []*user{s.accounts.ByID(d.CreatorID)}
	recipients = append(recipients, s.accounts.Admins(d.CustomerID)...)
	seen := map[string]bool{}
	subject := "Webhook subscription disabled after repeated delivery failures"
	text := disabledEmailText(d)
	for _, u := range recipients {
		if u == nil || u.Email == "" || seen[strings.ToLower(u.Email)] {
			continue
		}
		seen[strings.ToLower(u.Email)] = true
		s.sendNotificationEmail(u.Email, subject, text)
	}
}

// disabledEmailText is the text of the notification email.
func disabledEmailText(d webhook.Disabled) string {
	return fmt.Sprintf("Hello,\n\nthe webhook subscription %s for %s has been disabled: "+
		"the delivery of event %s (%s) failed %d times, the last time at %s.\n\n"+
		"Events are no longer sent to this endpoint. Fix the endpoint, then update the subscription "+
		"with isActive set to true to receive new events again.\n",
		d.SubscriptionID, d.Endpoint, d.EventID, d.EventType, d.Attempts, d.At.UTC().Format(time.RFC3339))
}
