package webhooks

import (
	"fmt"
	"mime"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// MaxActive is how many subscriptions of one customer may be active at once
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions).
const MaxActive = 5

// TestEventType is the event type of the on-demand test event.
const TestEventType = "webhook.subscription.test"

// eventTypes are the event types a subscription may list (the service
// specification's); EventTypes hands out copies.
var eventTypes = [...]string{"sign.casefile.completed", "sign.casefile.expired", "sign.casefile.failed",
	"sign.casefile.rejected", "sign.signer.requestActivated", "sign.signer.requestSent", "sign.signer.reminderSent",
	"sign.signer.requestOpened", "sign.signer.undeliverable", "sign.signer.opened", "sign.signer.rejected",
	"sign.signer.signed", "sign.signer.signedWithImageUploadAndNAP", "sign.signer.finalized",
	"sign.signer.deleted", "sign.signer.transientBounce", TestEventType}

// EventTypes answers the event types a subscription may list, in a fresh
// slice.
func EventTypes() []string { return slices.Clone(eventTypes[:]) }

// isKnownEventType reports whether a subscription may list typ.
func isKnownEventType(typ string) bool { return slices.Contains(eventTypes[:], typ) }

// subscription is a webhook subscription of a customer. The secret is only
// ever written to the create, get, list and update answers.
type subscription struct {
	ID         string
	CustomerID int64
	CreatorID  int64
	IsActive   bool
	Secret     string
	Endpoint   string
	EventTypes []string
	Created    time.Time
	// gen changes whenever the subscription is disabled, re-enabled or
	// deleted; a delivery started under another generation stops.
	gen uint64
}

// subscriptionJSON is the wire shape of a subscription
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions).
type subscriptionJSON struct {
	CustomerID int64    `json:"customerId"`
	ID         string   `json:"id"`
	IsActive   bool     `json:"isActive"`
	Secret     string   `json:"secret"`
	EventTypes []string `json:"eventTypes"`
	Endpoint   string   `json:"endpoint"`
}

// subscriptionRequest is the body of create and replace.
type subscriptionRequest struct {
	Endpoint   string    `json:"endpoint"`
	EventTypes *[]string `json:"eventTypes"`
	IsActive   *bool     `json:"isActive"`
}

func (sub *subscription) toJSON() subscriptionJSON {
	return subscriptionJSON{CustomerID: sub.CustomerID, ID: sub.ID, IsActive: sub.IsActive, Secret: sub.Secret,
		EventTypes: slices.Clone(sub.EventTypes), Endpoint: sub.Endpoint}
}

// lists reports whether the subscription wants events of type typ.
func (sub *subscription) lists(typ string) bool { return slices.Contains(sub.EventTypes, typ) }

// subscriptionStore holds every customer's subscriptions.
type subscriptionStore struct {
	mu   sync.Mutex
	byID map[string]*subscription
	gen  uint64
}

func newSubscriptionStore() *subscriptionStore {
	st := &subscriptionStore{}
	st.reset()
	return st
}

func (st *subscriptionStore) reset() {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.byID = map[string]*subscription{}
}

// nextGenLocked answers a generation number never used before.
func (st *subscriptionStore) nextGenLocked() uint64 {
	st.gen++
	return st.gen
}

// conflictLocked checks the limits of the customer for sub becoming (or
// staying) what it is: at most five active, one subscription per endpoint.
func (st *subscriptionStore) conflictLocked(sub *subscription) error {
	active := 0
	key := endpointKey(sub.Endpoint)
	for _, o := range st.byID {
		if o.CustomerID != sub.CustomerID || o.ID == sub.ID {
			continue
		}
		if endpointKey(o.Endpoint) == key {
			return wire.Conflict("subscription %s already delivers to this endpoint", o.ID)
		}
		if o.IsActive {
			active++
		}
	}
	if sub.IsActive && active >= MaxActive {
		return wire.Conflict("customer %d already has %d active subscriptions, the most allowed; disable or delete one first",
			sub.CustomerID, MaxActive)
	}
	return nil
}

// create stores a new subscription unless it breaks a limit.
func (st *subscriptionStore) create(sub *subscription) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.conflictLocked(sub); err != nil {
		return err
	}
	sub.gen = st.nextGenLocked()
	st.byID[sub.ID] = sub
	return nil
}

// get answers a copy of the customer's subscription id, or a 404.
func (st *subscriptionStore) get(customerID int64, id string) (subscription, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	sub := st.byID[id]
	if sub == nil || sub.CustomerID != customerID {
		return subscription{}, wire.NotFound("no subscription %s", id)
	}
	return *sub, nil
}

// list answers copies of the customer's subscriptions, oldest first.
func (st *subscriptionStore) list(customerID int64) []subscription {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []subscription
	for _, sub := range st.byID {
		if sub.CustomerID == customerID {
			out = append(out, *sub)
		}
	}
	slices.SortFunc(out, func(a, b subscription) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

// replace replaces the customer's subscription id as a whole: endpoint, event
// types and isActive, an omitted isActive meaning false (an omitted field is
// cleared,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions),
// checking the limits. Disabling or enabling starts a new generation, so older
// deliveries stop. Id, customer, creator, secret and creation time stay.
func (st *subscriptionStore) replace(customerID int64, id string, req *subscriptionRequest) (subscription, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	cur := st.byID[id]
	if cur == nil || cur.CustomerID != customerID {
		return subscription{}, wire.NotFound("no subscription %s", id)
	}
	next := *cur
	next.Endpoint, next.EventTypes = req.Endpoint, slices.Clone(*req.EventTypes)
	next.IsActive = req.IsActive != nil && *req.IsActive
	if err := st.conflictLocked(&next); err != nil {
		return subscription{}, err
	}
	if next.IsActive != cur.IsActive {
		next.gen = st.nextGenLocked()
	}
	*cur = next
	return next, nil
}

// remove deletes the customer's subscription id.
func (st *subscriptionStore) remove(customerID int64, id string) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	sub := st.byID[id]
	if sub == nil || sub.CustomerID != customerID {
		return wire.NotFound("no subscription %s", id)
	}
	delete(st.byID, id)
	return nil
}

// targets answers copies of the customer's active subscriptions that list typ.
func (st *subscriptionStore) targets(customerID int64, typ string) []subscription {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []subscription
	for _, sub := range st.byID {
		if sub.CustomerID == customerID && sub.IsActive && sub.lists(typ) {
			out = append(out, *sub)
		}
	}
	return out
}

// current answers the subscription id if a delivery of generation gen and
// type typ may still go to it: it exists, is active, is of that generation
// and still lists the type.
func (st *subscriptionStore) current(id string, gen uint64, typ string) (subscription, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	sub := st.byID[id]
	if sub == nil || !sub.IsActive || sub.gen != gen || !sub.lists(typ) {
		return subscription{}, false
	}
	return *sub, true
}

// disable turns subscription id of generation gen off; it reports whether
// it did (false when it was already off, changed or gone).
func (st *subscriptionStore) disable(id string, gen uint64) (subscription, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	sub := st.byID[id]
	if sub == nil || !sub.IsActive || sub.gen != gen {
		return subscription{}, false
	}
	sub.IsActive = false
	sub.gen = st.nextGenLocked()
	return *sub, true
}

// endpointKey is the endpoint compared for duplicates: scheme and host in
// lower case, the rest as given.
func endpointKey(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	return u.String()
}

// checkSubscription validates a create or replace body: 422 with one detail per
// problem. Endpoint and at least one event type are required, by create and by
// replace alike (a replacement without them would leave a subscription that
// cannot deliver). An unknown event type is refused with a detail that lists
// the accepted ones: the SDK sends types it does not know for the service to
// judge
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#subscriptions).
func checkSubscription(req *subscriptionRequest) error {
	var p wire.Problems
	if msg := checkWebhookEndpoint(req.Endpoint); msg != "" {
		p.Add("endpoint", "%s", msg)
	}
	if req.EventTypes == nil || len(*req.EventTypes) == 0 {
		p.Add("eventTypes", "must list at least one event type")
	} else {
		seen := map[string]bool{}
		for i, typ := range *req.EventTypes {
			field := fmt.Sprintf("eventTypes[%d]", i)
			switch {
			case !isKnownEventType(typ):
				p.Add(field, "unknown event type %q; accepted: %s", typ, strings.Join(eventTypes[:], ", "))
			case seen[typ]:
				p.Add(field, "%q is listed twice", typ)
			}
			seen[typ] = true
		}
	}
	return p.Err()
}

// checkWebhookEndpoint answers what is wrong with an endpoint URL, or "": it must be
// an absolute https URL, or http on a loopback host.
func checkWebhookEndpoint(endpoint string) string {
	if endpoint == "" {
		return "is required"
	}
	if len(endpoint) > 2048 {
		return "must be at most 2048 characters"
	}
	u, err := url.Parse(endpoint)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Hostname() == "" {
		return "must be an absolute URL"
	}
	if u.User != nil {
		return "must not carry user information"
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return ""
	case "http":
		if isLoopbackHost(u.Hostname()) {
			return ""
		}
		return "must use https (http is accepted only for loopback hosts: 127.0.0.0/8, ::1, localhost)"
	}
	return fmt.Sprintf("must use https, not %q", u.Scheme)
}

// isLoopbackHost reports whether host is localhost, in 127.0.0.0/8 or ::1.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// checkWebhookHeaders enforces the headers the webhook service documents:
// a body is JSON (Content-Type application/json, 415 otherwise), and the
// client accepts JSON in UTF-8 (Accept and Accept-Charset, 406 otherwise;
// absent headers accept anything).
func checkWebhookHeaders(r *http.Request, hasBody bool) error {
	if hasBody {
		mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil || mt != "application/json" {
			return &wire.Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
				Message: "send the body as Content-Type: application/json"}
		}
	}
	if !acceptsAny(r.Header.Values("Accept"), "application/json", "application/*", "*/*") {
		return &wire.Error{Status: http.StatusNotAcceptable, Code: "not_acceptable",
			Message: "the webhook service answers application/json; accept it"}
	}
	if !acceptsAny(r.Header.Values("Accept-Charset"), "utf-8", "*") {
		return &wire.Error{Status: http.StatusNotAcceptable, Code: "not_acceptable",
			Message: "the webhook service answers in utf-8; accept it"}
	}
	return nil
}

// acceptsAny reports whether a list header (Accept, Accept-Charset) is
// absent or names one of want with a non-zero quality.
func acceptsAny(values []string, want ...string) bool {
	if len(values) == 0 {
		return true
	}
	for _, v := range values {
		for item := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(item, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if !slices.Contains(want, name) {
				continue
			}
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			if q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000" {
				return true
			}
		}
	}
	return false
}
