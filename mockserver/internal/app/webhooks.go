package app

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// initWebhooks sets up the webhook service (subscriptions, delivery
// engine, deliveries journal), wired to the event log, the accounts and
// the outbox.
func (a *App) initWebhooks() {
	q := a.quotas
	a.Webhooks = webhooks.New(webhooks.Config{
		Clock: a.Clock, MaxBodyBytes: a.Cfg.MaxBodyBytes, JournalSize: a.Cfg.JournalSize,
		CallerOf: func(r *http.Request) webhooks.Caller {
			u := auth.From(r.Context())
			return webhooks.Caller{UserID: u.ID, CustomerID: u.CustomerID}
		},
		TakePlace:  func(customerID int64) error { return q.Subscriptions.Take(customerID, 1) },
		GivePlace:  func(customerID int64) { q.Subscriptions.Give(customerID, 1) },
		EmitTest:   a.emitTestEvent,
		OnDisabled: a.notifySubscriptionDisabled,
	})
	a.onReset(a.Webhooks.Reset)
	a.consumeEventLog()
}

// consumeEventLog makes the delivery engine a listener of the event log:
// every event of every case file of a customer (whichever user created it)
// goes to each active subscription of the customer that lists its type.
func (a *App) consumeEventLog() {
	a.Signing.Subscribe(func(ev *signing.Event) {
		a.Webhooks.Publish(webhooks.Event{CustomerID: ev.CustomerID, Type: ev.Type, Body: ev.Body})
	})
}

// emitTestEvent puts a webhook.subscription.test event of a customer in the
// event log (topic subscription, eventType test, a text message as payload).
func (a *App) emitTestEvent(customerID int64) {
	a.Signing.Emit(customerID, 0, webhooks.TestEventType, a.Clock.Now(), signing.TestEventMessage)
}

// sendNotificationEmail puts an email without a signing link in the outbox.
func (a *App) sendNotificationEmail(to, subject, text string) {
	a.Signing.SendEmail(to, subject, text, "")
}

// notifySubscriptionDisabled emails the creator of a subscription that
// failures disabled, and every admin of its customer, once each.
func (a *App) notifySubscriptionDisabled(d webhooks.Disabled) {
	recipients := []*auth.User{a.Auth.ByID(d.CreatorID)}
	recipients = append(recipients, a.Auth.Admins(d.CustomerID)...)
	seen := map[string]bool{}
	subject := "Webhook subscription disabled after repeated delivery failures"
	text := disabledEmailText(d)
	for _, u := range recipients {
		if u == nil || u.Email == "" || seen[strings.ToLower(u.Email)] {
			continue
		}
		seen[strings.ToLower(u.Email)] = true
		a.sendNotificationEmail(u.Email, subject, text)
	}
}

// disabledEmailText is the text of the notification email.
func disabledEmailText(d webhooks.Disabled) string {
	return fmt.Sprintf("Hello,\n\nthe webhook subscription %s for %s has been disabled: "+
		"the delivery of event %s (%s) failed %d times, the last time at %s.\n\n"+
		"Events are no longer sent to this endpoint. Fix the endpoint, then update the subscription "+
		"with isActive set to true to receive new events again.\n",
		d.SubscriptionID, d.Endpoint, d.EventID, d.EventType, d.Attempts, d.At.UTC().Format(time.RFC3339))
}
