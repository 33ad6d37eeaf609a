package webhooks

import (
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// ReplayRequest is the body of POST /mock/deliveries/replay: which event
// to deliver again, to which subscription.
type ReplayRequest struct {
	SubscriptionID string `json:"subscriptionId"`
	EventID        string `json:"eventId"` // the X-Event-Id of its deliveries
}

// CtlReplay is POST /mock/deliveries/replay {"subscriptionId","eventId"}:
// Replay for code, the dashboard's Replay button without its page
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
// It answers 202 with the two ids once the new series of attempts is under way
// (GET /mock/deliveries lists them), or Replay's error: 404 for a delivery the
// journal does not hold, 409 for a subscription that is gone, inactive or no
// longer lists the type. A body that is not one JSON object is a 400, a missing
// or empty id a 422 whose details name it, as on the other control routes; a
// body not sent as JSON never gets here (the guard's 415).
func (svc *Service) CtlReplay(w http.ResponseWriter, r *http.Request) error {
	var req ReplayRequest
	if err := wire.DecodeBody(w, r, svc.cfg.MaxBodyBytes, &req); err != nil {
		return err
	}
	var p wire.Problems
	if req.SubscriptionID == "" {
		p.Add("subscriptionId", "is required: the id of the subscription to deliver the event to again")
	}
	if req.EventID == "" {
		p.Add("eventId", "is required: the event's id, the X-Event-Id of its deliveries (GET /mock/deliveries lists them)")
	}
	if len(p) > 0 {
		return wire.Validation(p) // 422, as every control route answers a missing field
	}
	if err := svc.Replay(req.SubscriptionID, req.EventID); err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusAccepted, req)
	return nil
}
