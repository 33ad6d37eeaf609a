package mockserver

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
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
	// maxAttempts is the first attempt plus every retry.
	maxAttempts = 1 + fastRetries + slowRetries
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
		e.s.clock.At(at.Add(delay), func() { e.submit(d) })
		return
	}
	sub, ok := e.s.webhooks.subs.disable(d.subID, d.gen)
	if !ok {
		return // someone else disabled, re-enabled or deleted it meanwhile
	}
	e.s.notifySubscriptionDisabled(sub, d, at)
}

// notifySubscriptionDisabled emails the creator of a subscription that
// failures disabled, and every admin of its customer, once each.
func (s *Server) notifySubscriptionDisabled(sub subscription, d *delivery, at time.Time) {
	recipients := []*user{s.accounts.byID(sub.CreatorID)}
	recipients = append(recipients, adminsOf(s.accounts, sub.CustomerID)...)
	seen := map[string]bool{}
	subject := "Webhook subscription disabled after repeated delivery failures"
	text := disabledEmailText(sub, d, at)
	for _, u := range recipients {
		if u == nil || u.Email == "" || seen[strings.ToLower(u.Email)] {
			continue
		}
		seen[strings.ToLower(u.Email)] = true
		s.sendNotificationEmail(u.Email, subject, text)
	}
}

// disabledEmailText is the text of the notification email.
func disabledEmailText(sub subscription, d *delivery, at time.Time) string {
	return fmt.Sprintf("Hello,\n\nthe webhook subscription %s for %s has been disabled: "+
		"the delivery of event %s (%s) failed %d times, the last time at %s.\n\n"+
		"Events are no longer sent to this endpoint. Fix the endpoint, then update the subscription "+
		"with isActive set to true to receive new events again.\n",
		sub.ID, sub.Endpoint, d.eventID, d.typ, maxAttempts, at.UTC().Format(time.RFC3339))
}

// adminsOf answers the admin users of a customer, by id.
func adminsOf(a *accountStore, customerID int64) []*user {
	a.mu.RLock()
	defer a.mu.RUnlock()
	var out []*user
	for _, u := range a.users {
		if u.CustomerID == customerID && u.Admin {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, func(x, y *user) int { return cmp.Compare(x.ID, y.ID) })
	return out
}
