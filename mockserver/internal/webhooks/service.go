// Package webhooks is the mock's webhook service, the one behind the SDK's
// subscription calls and the events its receiver verifies: subscriptions
// (create, list, get, replace, delete, the test event) and the delivery
// engine that posts every event to the subscriptions that list it, signed,
// under the platform's retry schedule on the mock clock, journaling every
// attempt. The mock server wires it to the event log, the accounts and the
// outbox through Config.
package webhooks

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/ring"
)

// Caller is who makes a request, as the server authenticated them.
type Caller struct {
	UserID, CustomerID int64
}

// Disabled describes a subscription that failures disabled, for the
// notification the server sends.
type Disabled struct {
	SubscriptionID, Endpoint string
	CustomerID, CreatorID    int64
	// EventID and EventType are those of the delivery whose last retry
	// failed, after Attempts attempts, the last at At (mock time).
	EventID, EventType string
	Attempts           int
	At                 time.Time
}

// Config connects the service to the rest of the server.
type Config struct {
	// Clock schedules retries and dates attempts.
	Clock *clock.Clock
	// MaxBodyBytes bounds a request body.
	MaxBodyBytes int64
	// JournalSize is how many delivery attempts Deliveries remembers.
	JournalSize int
	// CallerOf answers who made an authenticated request.
	CallerOf func(*http.Request) Caller
	// TakePlace reserves room for one more subscription of a customer, or
	// answers the server's limit error; GivePlace frees it.
	TakePlace func(customerID int64) error
	GivePlace func(customerID int64)
	// EmitTest puts a test event of the customer in the event log.
	EmitTest func(customerID int64)
	// OnDisabled tells the people concerned that a subscription was
	// disabled.
	OnDisabled func(Disabled)
}

// Service holds the subscriptions, the delivery engine and the journal of
// attempts. Its methods are safe for concurrent use.
type Service struct {
	cfg        Config
	subs       *subscriptionStore
	engine     *deliveryEngine
	deliveries *ring.Ring[Delivery]
}

// New answers a service with no subscriptions.
func New(cfg Config) *Service {
	svc := &Service{cfg: cfg, subs: newSubscriptionStore(), deliveries: ring.New[Delivery](cfg.JournalSize)}
	svc.engine = newDeliveryEngine(svc)
	return svc
}

// Reset forgets every subscription, queued delivery and journaled attempt
// (the server's clock has dropped the scheduled retries).
func (svc *Service) Reset() {
	svc.subs.reset()
	svc.engine.reset()
	svc.deliveries.Reset()
}

// Close lets go of the delivery client's idle connections; call it once
// work in flight has ended.
func (svc *Service) Close() { svc.engine.client.Load().CloseIdleConnections() }

// Deliveries answers the journaled delivery attempts in the order they
// started, oldest first; an attempt in flight is OutcomePending.
func (svc *Service) Deliveries() []Delivery { return svc.deliveries.List() }

// Count answers how many subscriptions there are, of every customer.
func (svc *Service) Count() int {
	svc.subs.mu.Lock()
	defer svc.subs.mu.Unlock()
	return len(svc.subs.byID)
}
