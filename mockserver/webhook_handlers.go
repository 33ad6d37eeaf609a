package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// webhookDomain is the webhook service's state: subscriptions, the delivery
// engine and the journal of delivery attempts.
type webhookDomain struct {
	subs       *subscriptionStore
	engine     *deliveryEngine
	deliveries *deliveryJournal
}

// initWebhooks sets up subscriptions, the delivery engine, the deliveries
// journal and fault injection, with their routes and resets.
func (s *Server) initWebhooks() {
	s.webhooks = &webhookDomain{subs: newSubscriptionStore(), deliveries: newDeliveryJournal(s.cfg.journalSize)}
	s.webhooks.engine = newDeliveryEngine(s)
	s.faults = newFaultStore()
	s.onReset(s.webhooks.subs.reset)
	s.onReset(s.webhooks.engine.reset)
	s.onReset(s.webhooks.deliveries.Reset)
	s.onReset(s.faults.reset)
	s.consumeEventLog()

	if s.cfg.control {
	}
}

// closeWebhooks lets go of the delivery engine's idle connections; Close
// calls it once work in flight has ended.
func (s *Server) closeWebhooks() { s.webhooks.engine.client.Load().CloseIdleConnections() }

// readSubscriptionRequest checks the headers and decodes and validates a
// create or replace body.
func (s *Server) readSubscriptionRequest(w http.ResponseWriter, r *http.Request) (*subscriptionRequest, error) {
	if err := checkWebhookHeaders(r, true); err != nil {
		return nil, err
	}
	var req subscriptionRequest
	if err := wire.DecodeJSON(w, r, s.cfg.maxBodyBytes, &req); err != nil {
		return nil, err
	}
	if err := checkSubscription(&req); err != nil {
		return nil, err
	}
	return &req, nil
}

// handleSubscriptionCreate is POST {Webhook}/api/v1/subscriptions → 201.
func (s *Server) handleSubscriptionCreate(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readSubscriptionRequest(w, r)
	if err != nil {
		return err
	}
	u := userFrom(r)
	sub := &subscription{ID: ids.UUID(), CustomerID: u.CustomerID, CreatorID: u.ID, IsActive: true,
		Secret: ids.Hex(32), Endpoint: req.Endpoint, EventTypes: *req.EventTypes, Created: s.Now()}
	if req.IsActive != nil {
		sub.IsActive = *req.IsActive
	}
	if err := s.quotas.subscriptions.take(u.CustomerID, 1); err != nil {
		return err
	}
	if err := s.webhooks.subs.create(sub); err != nil {
		s.quotas.subscriptions.give(u.CustomerID, 1)
		return err
	}
	wire.WriteJSON(w, http.StatusCreated, sub.toJSON())
	return nil
}

// handleSubscriptionList is GET {Webhook}/api/v1/subscriptions → {"items":[...]}.
func (s *Server) handleSubscriptionList(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	items := []subscriptionJSON{}
	for _, sub := range s.webhooks.subs.list(userFrom(r).CustomerID) {
		items = append(items, sub.toJSON())
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": items})
	return nil
}

// handleSubscriptionGet is GET {Webhook}/api/v1/subscriptions/{id}.
func (s *Server) handleSubscriptionGet(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	sub, err := s.webhooks.subs.get(userFrom(r).CustomerID, r.PathValue("id"))
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, sub.toJSON())
	return nil
}

// handleSubscriptionReplace is PUT {Webhook}/api/v1/subscriptions/{id} → 200
// with the subscription: it replaces the whole subscription, an omitted
// isActive meaning false, an omitted endpoint or event type list a 422
// (docs/platform.md, "Webhook service"). isActive true re-enables a disabled
// subscription: it gets new events only.
func (s *Server) handleSubscriptionReplace(w http.ResponseWriter, r *http.Request) error {
	req, err := s.readSubscriptionRequest(w, r)
	if err != nil {
		return err
	}
	sub, err := s.webhooks.subs.replace(userFrom(r).CustomerID, r.PathValue("id"), req)
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, sub.toJSON())
	return nil
}

// handleSubscriptionDelete is DELETE {Webhook}/api/v1/subscriptions/{id} → 204.
func (s *Server) handleSubscriptionDelete(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	cust := userFrom(r).CustomerID
	if err := s.webhooks.subs.remove(cust, r.PathValue("id")); err != nil {
		return err
	}
	s.quotas.subscriptions.give(cust, 1)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleSubscriptionTest is POST {Webhook}/api/v1/subscriptions/test → 204:
// a webhook.subscription.test event goes to every active subscription of the
// customer that lists it, under the same retry policy as every event. The
// body is `{}` (docs/platform.md, "Webhook service") or empty; any other JSON
// object is accepted and ignored, anything else is a 400.
func (s *Server) handleSubscriptionTest(w http.ResponseWriter, r *http.Request) error {
	if err := checkWebhookHeaders(r, false); err != nil {
		return err
	}
	if err := s.readEmptyObject(w, r); err != nil {
		return err
	}
	s.emitTestEvent(userFrom(r).CustomerID)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// readEmptyObject reads a body that must be empty or a JSON object, bounded
// by the server's body limit: 413 when too large, 400 otherwise.
func (s *Server) readEmptyObject(w http.ResponseWriter, r *http.Request) error {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return wire.TooLarge(s.cfg.maxBodyBytes)
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
