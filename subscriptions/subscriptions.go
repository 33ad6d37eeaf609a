package subscriptions

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/signkit/signkit-go/internal/apierror"
	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/transport"
	"github.com/signkit/signkit-go/webhooks"
)

// Client manages the account's webhook subscriptions. Get it as the
// Subscriptions field of a signkit.Client; it is safe for concurrent use.
//
// signkit.NewClient is the only way to make one: a Client is defined over the
// SDK's internal connection
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#one-way-in).
type Client transport.Service

// t answers the transport the client's requests go through.
func (c *Client) t() *transport.Client { return (*transport.Service)(c).Transport() }

// base answers {Webhook}, e.g. https://app.penneo.com/webhook.
func (c *Client) base() string { return (*transport.Service)(c).URLs().Webhook }

// Request creates or replaces a subscription. On update, a field left unset
// (Endpoint "", no EventTypes, IsActive nil) keeps its current value: Update
// reads it first, because the service replaces the whole subscription and
// clears what a request omits.
type Request struct {
	// Endpoint is the https URL that receives the events (http is allowed
	// only for loopback hosts: 127.0.0.0/8, ::1, localhost).
	Endpoint string `json:"endpoint"`
	// EventTypes are the subscribed types: at least one, none empty or
	// listed twice. A type this SDK does not know
	// (webhooks.EventType.IsKnown) is sent as given, since the platform may
	// add types: the service judges it, and answers 422
	// (signkit.ErrValidation) to one it does not accept.
	EventTypes []webhooks.EventType `json:"eventTypes"`
	// IsActive enables (true) or disables (false) the subscription; nil
	// leaves the service's default (active) on create and keeps the current
	// state on update. Set it to true on update to re-enable a subscription
	// that failures disabled.
	IsActive *bool `json:"isActive,omitempty"`
}

// Validate checks r before it is sent and reports every problem in one
// *signkit.ValidationError: the endpoint is an absolute https URL (or http on a
// loopback host), and there is at least one event type, none empty or listed
// twice. It checks the list's structure only: whether each type exists is the
// service's to answer
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#subscriptions).
func (r *Request) Validate() error { return r.validate(false) }

// validate checks r; with partial, an unset endpoint or event type list is
// no problem (an update fills it from the current subscription).
func (r *Request) validate(partial bool) error {
	if r == nil {
		return apierror.Invalid("subscriptions", "subscription request", apierror.Problem{Field: "request", Message: "is nil"})
	}
	var problems []apierror.Problem
	if r.Endpoint != "" || !partial {
		if msg := checkEndpoint(r.Endpoint); msg != "" {
			problems = append(problems, apierror.Problem{Field: "endpoint", Message: msg})
		}
	}
	if len(r.EventTypes) == 0 && !partial {
		problems = append(problems, apierror.Problem{Field: "eventTypes", Message: "must list at least one event type"})
	}
	seen := make(map[webhooks.EventType]bool, len(r.EventTypes))
	for i, et := range r.EventTypes {
		field := fmt.Sprintf("eventTypes[%d]", i)
		switch {
		case et == "":
			problems = append(problems, apierror.Problem{Field: field, Message: "must not be empty"})
		case seen[et]:
			problems = append(problems, apierror.Problem{Field: field, Message: fmt.Sprintf("%q is listed twice", et)})
		}
		seen[et] = true
	}
	return apierror.Invalid("subscriptions", "subscription request", problems...)
}

// checkEndpoint returns what is wrong with a subscription endpoint, or "".
func checkEndpoint(endpoint string) string {
	if endpoint == "" {
		return "is required"
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || !u.IsAbs() {
		return "must be an absolute URL"
	}
	switch u.Scheme {
	case "https":
		return ""
	case "http":
		if isLoopback(u.Hostname()) {
			return ""
		}
		return "must use https (http is accepted only for loopback hosts)"
	}
	return fmt.Sprintf("must use https, not %q", u.Scheme)
}

// isLoopback reports whether host (without port) is localhost, in
// 127.0.0.0/8 or ::1: the hosts whose webhook endpoints may use plain http.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.Unmap().IsLoopback()
}

// Subscription is a webhook subscription as the service stores it.
type Subscription struct {
	ID         string               `json:"id"`
	CustomerID int64                `json:"customerId"`
	IsActive   bool                 `json:"isActive"`
	Secret     string               `json:"secret"` // HMAC key of X-Event-Signature; pass it to webhooks.NewVerifier
	Endpoint   string               `json:"endpoint"`
	EventTypes []webhooks.EventType `json:"eventTypes"`
}

func (c *Client) url(segments ...string) string {
	return transport.JoinURL(c.base()+"/api/v1/subscriptions", segments...)
}

// Create validates r and creates the subscription; the answer carries its
// id and the secret that signs its deliveries. At most five subscriptions
// of a customer are active at once: a sixth is refused with a
// *signkit.Error matching signkit.ErrConflict, as is a second subscription
// for the same endpoint.
//
// That refusal makes the create safe to re-send, and the SDK does so after a
// 429, 502, 503, 504 or a lost connection
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md): the first
// copy may have been created before its answer was lost. When a re-sent copy
// meets the 409, Create looks for the subscription to r's endpoint with r's
// event types (List) and returns it. A 409 to a create that was sent once stays
// an error. When every attempt failed, the error matches
// signkit.ErrOutcomeUnknown (502, 503, 504, a lost connection) or
// signkit.ErrRateLimited (429).
func (c *Client) Create(ctx context.Context, r *Request) (*Subscription, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var s Subscription
	req := &transport.Request{Method: http.MethodPost, URL: c.url(), Auth: transport.Bearer, JSON: r, Header: charset(),
		Resend: retry.ConflictSafe}
	err := c.t().Do(ctx, req, &s)
	if err != nil && req.Resent && errors.Is(err, apierror.ErrConflict) {
		return c.findCreated(ctx, r, err)
	}
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// findCreated returns the subscription that an earlier copy of the create
// r made, or conflict when there is none that matches r exactly.
func (c *Client) findCreated(ctx context.Context, r *Request, conflict error) (*Subscription, error) {
	subs, err := c.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("subscriptions: create was re-sent and refused (%w); listing the subscriptions to find the first copy: %w", conflict, err)
	}
	for i := range subs {
		if sameEndpoint(subs[i].Endpoint, r.Endpoint) && sameTypes(subs[i].EventTypes, r.EventTypes) {
			return &subs[i], nil
		}
	}
	return nil, conflict
}

// sameEndpoint compares two endpoint URLs, the scheme and host in any case.
func sameEndpoint(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) &&
		ua.Path == ub.Path && ua.RawQuery == ub.RawQuery
}

// sameTypes reports whether a and b hold the same event types, in any order.
func sameTypes(a, b []webhooks.EventType) bool {
	set := make(map[webhooks.EventType]bool, len(a))
	for _, t := range a {
		set[t] = true
	}
	for _, t := range b {
		if !set[t] {
			return false
		}
	}
	other := make(map[webhooks.EventType]bool, len(b))
	for _, t := range b {
		other[t] = true
	}
	return len(set) == len(other)
}

// List returns the customer's subscriptions, active or not.
func (c *Client) List(ctx context.Context) ([]Subscription, error) {
	var page struct {
		Items []Subscription `json:"items"`
	}
	if err := c.t().Do(ctx, &transport.Request{Method: http.MethodGet, URL: c.url(), Auth: transport.Bearer, Header: charset()}, &page); err != nil {
		return nil, err
	}
	return page.Items, nil
}

// Get returns the subscription with the given id.
func (c *Client) Get(ctx context.Context, id string) (*Subscription, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var s Subscription
	if err := c.t().Do(ctx, &transport.Request{Method: http.MethodGet, URL: c.url(id), Auth: transport.Bearer, Header: charset()}, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Delete deletes the subscription with the given id. When the first
// attempt's answer is lost (a timeout, a dropped connection) and the retry
// finds the subscription gone, the delete counts as done.
func (c *Client) Delete(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	return c.t().Do(ctx, &transport.Request{Method: http.MethodDelete, URL: c.url(id), Auth: transport.Bearer,
		Header: charset(), GoneIsDone: true}, nil)
}

// SendTestEvent asks the service to send a webhook.subscription.test event to
// every active subscription of the customer that lists that type. The body is
// the empty JSON object the service expects (see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions).
func (c *Client) SendTestEvent(ctx context.Context) error {
	return c.t().Do(ctx, &transport.Request{Method: http.MethodPost, URL: c.url("test"), Auth: transport.Bearer,
		JSON: struct{}{}, Header: charset()}, nil)
}

// charset is the Accept-Charset header that the webhook service's
// documentation lists for every request.
func charset() http.Header { return http.Header{"Accept-Charset": {"utf-8"}} }

func checkID(id string) error {
	if id == "" {
		return apierror.Invalid("subscriptions", "request", apierror.Problem{Field: "id", Message: "is required"})
	}
	return nil
}
