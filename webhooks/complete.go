package webhooks

import (
	"context"
	"log/slog"
	"net/http"
)

// Completer is implemented by the DedupStores that tell a finished event
// from one still being processed, as both of this module's do. Handler
// marks an event's claim complete once fn has succeeded, and answers a
// duplicate 200 only when its claim is complete: a duplicate whose first
// delivery is still running is answered 409, so that the platform re-sends
// it, and a failure of that first run (which releases the claim) does not
// lose the event. With a store that is not a Completer, Handler answers
// every duplicate 200.
type Completer interface {
	// Complete marks the claim on id as finished for the rest of its ttl. It
	// does nothing when id is not claimed (its claim ended or was
	// released), and returns nil then. A completed claim is still released
	// by Release.
	Complete(ctx context.Context, id string) error
	// Completed reports whether id is claimed and its claim was marked
	// complete, by this store or by another that shares its claims.
	Completed(ctx context.Context, id string) (bool, error)
}

var _ Completer = (*memoryDedup)(nil)

// Complete implements Completer.
func (m *memoryDedup) Complete(_ context.Context, id string) error {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(now)
	if c, ok := m.entries[id]; ok {
		c.done = true
	}
	return nil
}

// Completed implements Completer.
func (m *memoryDedup) Completed(_ context.Context, id string) (bool, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropExpired(now)
	c, ok := m.entries[id]
	return ok && c.done, nil
}

// answerDuplicate answers a delivery whose event id is already claimed: 200
// when its event is finished, or when the DedupStore cannot tell (it is not
// a Completer); 409 Conflict while its first delivery is still being
// processed. Any non-2xx makes the platform re-send, on its own schedule
// (it reads no Retry-After); 409 says that the event is held by another
// request, so that it is not mistaken in logs and dashboards for a failure
// (500) or an unavailable receiver (503).
func (v *Verifier) answerDuplicate(w http.ResponseWriter, r *http.Request, id string) {
	c, ok := v.dedup.(Completer)
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

// complete marks the claim on id complete, when the DedupStore can
// (Completer), even when ctx has ended, and logs a failure: the event was
// processed, but its redeliveries are then answered 409 until the claim
// expires, and processed again after.
func (v *Verifier) complete(ctx context.Context, id string) {
	c, ok := v.dedup.(Completer)
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
