package webhooks

import (
	"cmp"
	"slices"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Replay delivers an event to a subscription again, from the start: a new
// series of attempts (numbered from 1 again) of the same body with the same
// X-Event-Id, as if the event had just arrived. The platform has no such call:
// the mock's dashboard offers it, to test a receiver's handling of a redelivery
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
// The event must be in the deliveries journal and the subscription active;
// otherwise it answers a 404 or 409 error.
func (svc *Service) Replay(subscriptionID, eventID string) error {
	var last *Delivery
	for _, d := range svc.deliveries.List() {
		if d.SubscriptionID == subscriptionID && d.EventID == eventID {
			last = &d
		}
	}
	if last == nil {
		return wire.NotFound("no delivery of event %s to subscription %s in the journal", eventID, subscriptionID)
	}
	svc.subs.mu.Lock()
	sub := svc.subs.byID[subscriptionID]
	var gen uint64
	active := sub != nil && sub.IsActive && sub.lists(last.EventType)
	if active {
		gen = sub.gen
	}
	svc.subs.mu.Unlock()
	if !active {
		return wire.Conflict("subscription %s is gone, inactive or no longer lists %s", subscriptionID, last.EventType)
	}
	svc.engine.submit(&delivery{subID: subscriptionID, gen: gen, eventID: eventID, typ: last.EventType, body: []byte(last.body),
		replay: true})
	return nil
}

// View is a subscription as the dashboard shows it: never its secret.
type View struct {
	ID, Endpoint string
	CustomerID   int64
	EventTypes   []string
	IsActive     bool
}

// Views answers every customer's subscriptions, oldest first, without
// their secrets.
func (svc *Service) Views() []View {
	svc.subs.mu.Lock()
	subs := make([]subscription, 0, len(svc.subs.byID))
	for _, sub := range svc.subs.byID {
		subs = append(subs, *sub)
	}
	svc.subs.mu.Unlock()
	slices.SortFunc(subs, func(a, b subscription) int {
		return cmp.Or(a.Created.Compare(b.Created), strings.Compare(a.ID, b.ID))
	})
	out := make([]View, len(subs))
	for i, sub := range subs {
		out[i] = View{ID: sub.ID, Endpoint: sub.Endpoint, CustomerID: sub.CustomerID,
			EventTypes: slices.Clone(sub.EventTypes), IsActive: sub.IsActive}
	}
	return out
}
