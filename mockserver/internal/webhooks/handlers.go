package webhooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// readSubscriptionRequest checks the headers and decodes and validates a
// create or replace body.
func (svc *Service) readSubscriptionRequest(w http.ResponseWriter, r *http.Request) (*subscriptionRequest, error) {
	if err := checkWebhookHeaders(r, true); err != nil {
		return nil, err
	}
	var req subscriptionRequest
	if err := wire.DecodeJSON(w, r, svc.cfg.MaxBodyBytes, &req); err != nil {
		return nil, err
	}
	if err := checkSubscription(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// HandleCreate is POST {Webhook}/api/v1/subscriptions → 201.
func (svc *Service) HandleCreate(w http.ResponseWriter, r *http.Request) error {
	req, err := svc.readSubscriptionRequest(w, r)
	if err != nil {
		return err
	}
	u := svc.cfg.CallerOf(r)
	sub := &subscription{ID: ids.UUID(), CustomerID: u.CustomerID, CreatorID: u.UserID, IsActive: true,
		Secret: ids.Hex(32), Endpoint: req.Endpoint, EventTypes: *req.EventTypes, Created: svc.cfg.Clock.Now()}
	if req.IsActive != nil {
		sub.IsActive = *req.IsActive
	}
	if err := svc.cfg.TakePlace(u.CustomerID); err != nil {
		return err
	}
	if err := svc.subs.create(sub); err != nil {
		svc.cfg.GivePlace(u.CustomerID)
		return err
	}
	wire.WriteJSON(w, http.StatusCreated, sub.toJSON())
	return nil
}

// HandleList is GET {Webhook}/api/v1/subscriptions → {"items":[...]}.
func (svc *Service) HandleList(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	items := []subscriptionJSON{}
	for _, sub := range svc.subs.list(svc.cfg.CallerOf(r).CustomerID) {
		items = append(items, sub.toJSON())
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}

// HandleGet is GET {Webhook}/api/v1/subscriptions/{id}.
func (svc *Service) HandleGet(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	sub, err := svc.subs.get(svc.cfg.CallerOf(r).CustomerID, r.PathValue("id"))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, sub.toJSON())
	return nil
}

// HandleReplace is PUT {Webhook}/api/v1/subscriptions/{id} → 200 with the
// subscription: it replaces the whole subscription, an omitted isActive meaning
// false, an omitted endpoint or event type list a 422
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions).
// isActive true re-enables a disabled subscription: it gets new events only.
func (svc *Service) HandleReplace(w http.ResponseWriter, r *http.Request) error {
	req, err := svc.readSubscriptionRequest(w, r)
	if err != nil {
		return err
	}
	sub, err := svc.subs.replace(svc.cfg.CallerOf(r).CustomerID, r.PathValue("id"), req)
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, sub.toJSON())
	return nil
}

// HandleDelete is DELETE {Webhook}/api/v1/subscriptions/{id} → 204.
func (svc *Service) HandleDelete(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	cust := svc.cfg.CallerOf(r).CustomerID
	if err := svc.subs.remove(cust, r.PathValue("id")); err != nil {
		return err
	}
	svc.cfg.GivePlace(cust)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// HandleTest is POST {Webhook}/api/v1/subscriptions/test → 204: a
// webhook.subscription.test event goes to every active subscription of the
// customer that lists it, under the same retry policy as every event. The body
// is `{}`
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#webhook-service--webhookapiv1subscriptions)
// or empty; any other JSON object is accepted and ignored, anything else is a
// 400.
func (svc *Service) HandleTest(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	if err := svc.readEmptyObject(w, r); err != nil {
		return err
	}
	svc.cfg.EmitTest(svc.cfg.CallerOf(r).CustomerID)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// readEmptyObject reads a body that must be empty or a JSON object, bounded
// by the server's body limit: 413 when too large, 400 otherwise.
func (svc *Service) readEmptyObject(w http.ResponseWriter, r *http.Request) error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, svc.cfg.MaxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return wire.TooLarge(svc.cfg.MaxBodyBytes)
		}
		return wire.BadRequest("reading the body failed")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil || obj == nil {
		return wire.BadRequest("the body must be empty or a JSON object such as {}")
	}
	return nil
}

// CtlDeliveries is GET /mock/deliveries[?subscriptionId=…][&eventId=…][&eventType=…]:
// {"items":[{"eventId","eventType","subscriptionId","attempt","at","outcome","status","error","durationMs"}]}.
// Another parameter is a 400 that names it; an eventType that is not an event type
// (sign.casefile.completed, not completed) a 422
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
func (svc *Service) CtlDeliveries(w http.ResponseWriter, r *http.Request) error {
	if err := wire.OnlyParams(r, "subscriptionId", "eventId", "eventType"); err != nil {
		return err
	}
	q := r.URL.Query()
	if typ := q.Get("eventType"); typ != "" && !isKnownEventType(typ) {
		var p wire.Problems
		p.Add("eventType", "is not an event type: give one as X-Event-Type names it, such as sign.casefile.completed")
		return p.BadQuery()
	}
	passes := func(filter, v string) bool { return filter == "" || filter == v }
	items := []Delivery{}
	for _, d := range svc.Deliveries() {
		if passes(q.Get("subscriptionId"), d.SubscriptionID) && passes(q.Get("eventId"), d.EventID) &&
			passes(q.Get("eventType"), d.EventType) {
			d.At = d.At.UTC()
			items = append(items, d)
		}
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}
