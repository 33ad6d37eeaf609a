package webhooks

import (
	"time"
)

// Outcomes of a delivery attempt, as Delivery.Outcome reports them.
const (
	// OutcomePending is an attempt whose request is on its way: journaled
	// before it leaves, so that the receiver never sees an event the
	// journal does not list yet. It becomes OutcomeDelivered or
	// OutcomeFailed in place once the attempt ends (within about 1.2 s:
	// the connect and response limits); had the journal come round
	// meanwhile, the completed attempt is journaled again as the newest
	// entry.
	OutcomePending = "pending"
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
	// Replay marks the attempts of an event sent again by the mock's
	// Replay (the dashboard's button); they count from 1 again.
	Replay bool `json:"replay,omitempty"`
	// At is the mock time of the attempt (the t of its signature).
	At time.Time `json:"at"`
	// Outcome is OutcomePending while the request is on its way, then
	// OutcomeDelivered or OutcomeFailed.
	Outcome string `json:"outcome"`
	// Status is the endpoint's HTTP status, 0 when it did not answer (or
	// has not answered yet).
	Status int `json:"status"`
	// Error says why a failed attempt failed; empty when delivered or pending.
	Error string `json:"error"`
	// DurationMs is the real time the attempt took, in milliseconds; 0
	// while pending.
	DurationMs int64 `json:"durationMs"`

	body string // the event's body, for Replay; never listed (a string keeps Delivery comparable)
}
