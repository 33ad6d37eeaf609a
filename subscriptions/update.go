package subscriptions

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/signkit/signkit-go/internal/transport"
	"github.com/signkit/signkit-go/webhooks"
)

// replaceBody is the body of PUT /api/v1/subscriptions/{id}. The service
// replaces the whole subscription and clears what the body omits, so every
// field is always sent (see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions).
type replaceBody struct {
	Endpoint   string               `json:"endpoint"`
	EventTypes []webhooks.EventType `json:"eventTypes"`
	IsActive   bool                 `json:"isActive"`
}

// Update replaces the subscription id with r. The service clears whatever a
// replacement leaves out, so the whole subscription is always sent: a field
// r leaves unset (Endpoint "", no EventTypes, IsActive nil) is first read
// from the current subscription with Get and sent unchanged. The fields r
// sets are validated before anything is sent. To re-enable a subscription
// that delivery failures disabled, send IsActive: signkit.Ptr(true). The
// answer is the stored subscription: decoded from the service's answer, or
// read back with a GET when the service answers 204 without a body.
func (c *Client) Update(ctx context.Context, id string, r *Request) (*Subscription, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if err := r.validate(true); err != nil {
		return nil, err
	}
	body, err := c.replacement(ctx, id, r)
	if err != nil {
		return nil, err
	}
	resp, err := c.t().Send(ctx, &transport.Request{Method: http.MethodPut, URL: c.url(id), Auth: transport.Bearer,
		JSON: body, Header: charset()})
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, transport.MaxJSON))
	if err != nil {
		return nil, fmt.Errorf("subscriptions: reading answer of PUT subscription %s: %w", id, err)
	}
	if resp.StatusCode == http.StatusNoContent || len(bytes.TrimSpace(raw)) == 0 {
		return c.Get(ctx, id)
	}
	var s Subscription
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("subscriptions: decoding answer of PUT subscription %s: %w", id, err)
	}
	return &s, nil
}

// replacement is the whole subscription to send for r: the fields r sets,
// the others as the service has them now (read only when one is unset).
func (c *Client) replacement(ctx context.Context, id string, r *Request) (*replaceBody, error) {
	body := &replaceBody{Endpoint: r.Endpoint, EventTypes: r.EventTypes}
	if r.IsActive != nil {
		body.IsActive = *r.IsActive
	}
	if r.Endpoint != "" && len(r.EventTypes) > 0 && r.IsActive != nil {
		return body, nil
	}
	cur, err := c.Get(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("subscriptions: reading subscription %s to fill the fields the update leaves unset: %w", id, err)
	}
	if body.Endpoint == "" {
		body.Endpoint = cur.Endpoint
	}
	if len(body.EventTypes) == 0 {
		body.EventTypes = cur.EventTypes
	}
	if r.IsActive == nil {
		body.IsActive = cur.IsActive
	}
	return body, nil
}
