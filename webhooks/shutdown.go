package webhooks

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// ShutdownError is the error of Shutdown when its ctx ended while fn was
// still running for some events. Those events were not handed back: their
// claims are kept, and their outcome is logged when fn returns (a success
// is acknowledged). With a durable queue an event whose fn fails then stays
// in the queue and another receiver takes it over after the visibility
// timeout; with a memory queue it is lost when the process exits.
// errors.Is(err, context.DeadlineExceeded) (or Canceled) holds, as for
// ctx's own error.
type ShutdownError struct {
	// Running are the ids of the events whose fn was running.
	Running []string
	// Err is ctx's error.
	Err error
}

// Error names the running events.
func (e *ShutdownError) Error() string {
	return fmt.Sprintf("webhooks: shutdown gave up while %d events were being processed (%s): %v",
		len(e.Running), strings.Join(e.Running, ", "), e.Err)
}

// Unwrap returns ctx's error.
func (e *ShutdownError) Unwrap() error { return e.Err }

// Shutdown stops accepting deliveries (they are answered 503, so the
// platform retries them later), closes the queue and waits until the
// workers have finished what the queue hands out: with a queue in memory,
// every event it holds; with a durable queue, the events in hand (the rest
// stays in the queue for the other receivers, or for this one's restart).
// It returns nil, nil when everything was finished.
//
// When ctx ends first, Shutdown cancels the context of fn and no new run of
// fn starts. It returns, with ctx's error, the events that a queue in memory
// (queue.Volatile) still holds and whose fn is not running, neither
// processed nor dead-lettered. The platform got its 2xx for them and will
// not send them again on its own: the caller records or processes them.
// Their claims are released, so that a copy sent again by hand is
// accepted. Events whose fn is still running are never handed back, since
// their fn may yet succeed: the error is then a *ShutdownError naming them.
// A durable queue keeps its events and none are returned.
func (a *AsyncHandler) Shutdown(ctx context.Context) ([]*Event, error) {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	if err := a.q.Close(); err != nil {
		a.v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot close the queue",
			slog.String("error", err.Error()))
	}
	var err error
	select {
	case <-a.done:
	case <-ctx.Done():
		err = ctx.Err()
	}
	a.mu.Lock()
	a.stopped = true
	running := map[string]bool{}
	for _, id := range a.running {
		running[id] = true
	}
	a.mu.Unlock()
	a.cancel()
	left := a.handBack(ctx, running)
	if len(running) > 0 {
		ids := make([]string, 0, len(running))
		for id := range running {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		err = &ShutdownError{Running: ids, Err: err}
	}
	return left, err
}

// handBack takes out of a memory queue the events it still holds, but for
// those running, releases their claims and returns them.
func (a *AsyncHandler) handBack(ctx context.Context, running map[string]bool) []*Event {
	vq, ok := a.q.(queue.Volatile)
	if !ok {
		return nil
	}
	var left []*Event
	for _, d := range vq.Unacked() {
		if running[d.ID] {
			continue // in hand: its outcome is logged when fn returns
		}
		a.v.release(ctx, d.ID)
		ev, _, derr := decodeEvent(d.ID, EventType(d.Type), d.Body)
		if derr != nil {
			ev = &Event{ID: d.ID, Type: EventType(d.Type), Raw: d.Body}
		}
		left = append(left, ev)
	}
	return left
}
