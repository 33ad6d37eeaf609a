package webhooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// ErrHandedBack is matched (errors.Is) by the error of a Shutdown that
// returns events: a memory queue's events that were neither processed nor
// dead-lettered, which the caller must record or process, since the
// platform got its 2xx for them and will not send them again.
var ErrHandedBack = errors.New("webhooks: shutdown handed back events it did not process")

// ShutdownError is the error of Shutdown when fn was still running for
// some events at the end of the grace (WithShutdownGrace) that followed its
// ctx. Those events were not handed back: their claims are kept, and their
// outcome is logged when fn returns (a success is acknowledged). With a
// durable queue an event whose fn fails then stays in the queue and another
// receiver takes it over after the visibility timeout; with a memory queue
// it is lost. errors.Is(err, context.DeadlineExceeded) (or Canceled) holds,
// as for ctx's own error, and errors.Is(err, ErrHandedBack) when Shutdown
// returned events too.
type ShutdownError struct {
	// Running are the ids of the events whose fn was running.
	Running []string
	// Err is ctx's error, wrapped with ErrHandedBack when Shutdown returned
	// events too.
	Err error
}

// Error names the running events.
func (e *ShutdownError) Error() string {
	return fmt.Sprintf("webhooks: shutdown gave up while %d events were being processed (%s): %v",
		len(e.Running), strings.Join(e.Running, ", "), e.Err)
}

// Unwrap returns Err.
func (e *ShutdownError) Unwrap() error { return e.Err }

// Shutdown stops accepting deliveries (they are answered 503, so the
// platform retries them later), closes the queue and waits until the
// workers have finished what the queue hands out: with a queue in memory,
// every event it holds; with a durable queue, the events in hand (the rest
// stays in the queue for the other receivers, or for this one's restart).
// It returns nil, nil when everything was finished.
//
// When ctx ends first, Shutdown cancels the context of fn, no new run of fn
// starts, and it waits up to the grace (WithShutdownGrace, default 1 s) for
// the runs under way to return: a success is acknowledged, and an event
// whose run returned without success is treated like one that was waiting.
// When the base context (WithBaseContext) ended before, the workers have
// stopped already and nothing more is processed.
//
// A queue in memory (queue.Volatile) is then emptied: Shutdown returns the
// events it held that were neither processed nor dead-lettered, and whose
// fn is not running, with an error matching ErrHandedBack (and ctx's error,
// or the base context's). The platform got its 2xx for them and will not
// send them again on its own: the caller records or processes them. Their
// claims are released, so that a copy sent again by hand is accepted. A
// durable queue keeps its events and none are returned.
//
// An event whose fn is still running at the end of the grace is never
// handed back, since its fn may yet succeed: the error is then a
// *ShutdownError naming it.
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
	running := a.stop()
	left := a.handBack(ctx, running)
	return left, a.shutdownError(err, running, len(left))
}

// stop cancels fn's context so that no new run starts, waits up to the
// grace for the runs under way to return, and names those still running:
// it returns their event ids.
func (a *AsyncHandler) stop() map[string]bool {
	a.mu.Lock()
	a.stopped = true
	a.mu.Unlock()
	a.cancel()
	a.awaitRuns()
	a.mu.Lock()
	defer a.mu.Unlock()
	running := map[string]bool{}
	for key, id := range a.running {
		running[id] = true
		a.named[key] = true
	}
	return running
}

// awaitRuns waits until no run of fn is under way, or the grace has passed.
func (a *AsyncHandler) awaitRuns() {
	a.mu.Lock()
	if a.cfg.grace <= 0 || len(a.running) == 0 {
		a.mu.Unlock()
		return
	}
	if a.idle == nil {
		a.idle = make(chan struct{})
	}
	idle := a.idle
	a.mu.Unlock()
	t := time.NewTimer(a.cfg.grace)
	defer t.Stop()
	select {
	case <-idle:
	case <-t.C:
	}
}

// shutdownError is Shutdown's error: ctx's, wrapped with ErrHandedBack when
// handed events were returned, in a *ShutdownError when runs are named.
func (a *AsyncHandler) shutdownError(ctxErr error, running map[string]bool, handed int) error {
	err := ctxErr
	if handed > 0 {
		cause := ctxErr
		if cause == nil && a.cfg.base.Err() != nil {
			cause = fmt.Errorf("the handler's base context ended: %w", context.Cause(a.cfg.base))
		}
		if cause != nil {
			err = fmt.Errorf("%w (%d): %w", ErrHandedBack, handed, cause)
		} else {
			err = fmt.Errorf("%w (%d)", ErrHandedBack, handed)
		}
	}
	if len(running) == 0 {
		return err
	}
	ids := make([]string, 0, len(running))
	for id := range running {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return &ShutdownError{Running: ids, Err: err}
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
		if a.claims {
			a.v.release(ctx, d.ID)
		}
		ev, _, derr := decodeEvent(d.ID, EventType(d.Type), d.Body)
		if derr != nil {
			ev = &Event{ID: d.ID, Type: EventType(d.Type), Raw: d.Body}
		}
		left = append(left, ev)
	}
	return left
}
