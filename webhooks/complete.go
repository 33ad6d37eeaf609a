package webhooks

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/signkit/signkit-go/webhooks/dedup"
)

// answerDuplicate answers a delivery whose event id is already claimed: 200
// when its event is finished, or when the dedup.Store cannot tell (it is not
// a dedup.Completer); 409 Conflict while its first delivery is still being
// processed. Any non-2xx makes the platform re-send, on its own schedule
// (it reads no Retry-After); 409 says that the event is held by another
// request, so that it is not mistaken in logs and dashboards for a failure
// (500) or an unavailable receiver (503).
func (v *Verifier) answerDuplicate(w http.ResponseWriter, r *http.Request, id string) {
	c, ok := v.dedup.(dedup.Completer)
	if !ok {
		w.WriteHeader(http.StatusOK)
		return
	}
	done, err := c.Completed(r.Context(), id)
	switch {
	case err != nil:
		v.logger.LogAttrs(r.Context(), slog.LevelError, "webhooks: cannot tell whether a duplicate event is finished",
			slog.String("event_id", id), slog.String("error", err.Error()))
		http.Error(w, "cannot verify webhook request", http.StatusInternalServerError)
	case done:
		w.WriteHeader(http.StatusOK)
	default:
		http.Error(w, "event is being processed, retry later", http.StatusConflict)
	}
}

// complete marks the claim on id complete, when the dedup.Store can
// (dedup.Completer), even when ctx has ended, and logs a failure: the event was
// processed, but its redeliveries are then answered 409 until the claim
// expires, and processed again after.
func (v *Verifier) complete(ctx context.Context, id string) {
	c, ok := v.dedup.(dedup.Completer)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if err := c.Complete(ctx, id); err != nil {
		v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot mark an event id complete; its redeliveries are answered 409 until the claim expires",
			slog.String("event_id", id), slog.String("error", err.Error()))
	}
}
