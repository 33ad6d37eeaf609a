package webhook

import (
	"time"
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
	// Replay marks the attempts of an event sent again by the mock's
	// Replay (the dashboard's button); they count from 1 again.
	Replay bool `json:"replay,omitempty"`
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

	body string // the event's body, for Replay; never listed (a string keeps Delivery comparable)
}
