package webhooks

import (
	"time"
)

// The retry policy of the spec: after the first failed attempt, fastRetries
// retries fastStep, 2×fastStep, … after the previous attempt, then
// slowRetries retries slowInterval apart; after the last one fails the
// subscription is disabled.
const (
	fastRetries  = 5
	fastStep     = 5 * time.Second
	slowRetries  = 30
	slowInterval = time.Hour
	// MaxAttempts is the first attempt plus every retry.
	MaxAttempts = 1 + fastRetries + slowRetries
)

// retryDelay answers how long after a failed attempt the retry numbered
// retry (1 is the first retry) comes, and false when there is none.
func retryDelay(retry int) (time.Duration, bool) {
	switch {
	case retry < 1:
		return 0, false
	case retry <= fastRetries:
		return time.Duration(retry) * fastStep, true
	case retry <= fastRetries+slowRetries:
		return slowInterval, true
	}
	return 0, false
}

// failed handles a failed attempt made at mock time at: the next attempt is
// scheduled on the mock clock, or, after the last retry, the subscription is
// disabled and its creator and the customer's admins are told.
func (e *deliveryEngine) failed(d *delivery, at time.Time) {
	if delay, ok := retryDelay(d.attempt); ok {
		e.svc.cfg.Clock.At(at.Add(delay), func() { e.submit(d) })
		return
	}
	sub, ok := e.svc.subs.disable(d.subID, d.gen)
	if !ok {
		return // someone else disabled, re-enabled or deleted it meanwhile
	}
	e.svc.cfg.OnDisabled(Disabled{SubscriptionID: sub.ID, Endpoint: sub.Endpoint, CustomerID: sub.CustomerID,
		CreatorID: sub.CreatorID, EventID: d.eventID, EventType: d.typ, Attempts: d.attempt, At: at})
}
