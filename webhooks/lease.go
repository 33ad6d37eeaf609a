package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// Bounds of the retried acknowledgement of a processed event.
const (
	ackMinWait = 20 * time.Millisecond
	ackMaxWait = time.Second
	// ackTriesUnleased bounds the tries with a queue whose hand-outs are not
	// leases: no heartbeat tells when the claim is lost.
	ackTriesUnleased = 5
)

// lease is a worker's hold on one entry: fn's context, which ends when the
// claim is lost (cause queue.ErrClaimLost) or the handler's context ends,
// and the heartbeat that keeps the entry touched when the queue's hand-outs
// are leases.
type lease struct {
	ctx      context.Context
	cancel   context.CancelCauseFunc
	gone     chan struct{} // closed when the claim is lost
	loseOnce sync.Once
	stop     chan struct{}
	wg       sync.WaitGroup
}

// hold starts holding m: its heartbeat runs until release.
func (a *AsyncHandler) hold(m *queue.Message) *lease {
	l := &lease{stop: make(chan struct{}), gone: make(chan struct{})}
	l.ctx, l.cancel = context.WithCancelCause(a.ctx)
	if a.leaser != nil {
		every := a.leaser.TouchInterval()
		l.wg.Go(func() { a.heartbeat(m, l, every) })
	}
	return l
}

// release stops the heartbeat; the entry is acknowledged, dead-lettered, or
// left to the queue's visibility timeout.
func (l *lease) release() {
	close(l.stop)
	l.wg.Wait()
	l.cancel(nil)
}

// lose records that the claim is lost and cancels fn's context.
func (l *lease) lose() {
	l.loseOnce.Do(func() {
		close(l.gone)
		l.cancel(queue.ErrClaimLost)
	})
}

// lost reports whether the claim is known to be lost.
func (l *lease) lost() bool {
	select {
	case <-l.gone:
		return true
	default:
		return false
	}
}

// wait waits d, the entry kept touched meanwhile; false when the claim is
// lost or the handler's context ends first.
func (l *lease) wait(d time.Duration) bool { return sleep(l.ctx, d) }

// heartbeat touches m every interval until release or a lost claim. It
// runs on its own context, not the handler's: when Shutdown gives up, the
// runs of fn it names keep their claims until they return. A touch that
// fails for another reason is tried again at the next beat.
func (a *AsyncHandler) heartbeat(m *queue.Message, l *lease, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), every)
		err := a.q.Touch(ctx, m)
		cancel()
		switch {
		case errors.Is(err, queue.ErrClaimLost):
			a.v.logger.LogAttrs(context.Background(), slog.LevelWarn,
				"webhooks: claim on an event lost: another receiver took it over; stopping its processing here",
				slog.String("event_id", m.ID), slog.String("queue_key", m.Key))
			l.lose()
			return
		case err != nil:
			a.v.logger.LogAttrs(context.Background(), slog.LevelWarn, "webhooks: cannot touch an event in hand; trying again",
				slog.String("event_id", m.ID), slog.String("error", err.Error()))
		}
	}
}

// ack acknowledges m, whose event was processed. A failure (a lost reply,
// the queue restarting) is retried while the worker holds the claim, so
// that the event is not handed out and processed again; once the claim is
// lost, or after ackTriesUnleased tries with a queue whose hand-outs are
// not leases, it gives up and says so.
func (a *AsyncHandler) ack(m *queue.Message, l *lease) {
	wait := ackMinWait
	for try := 1; ; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		err := a.q.Ack(ctx, m)
		cancel()
		if err == nil {
			return
		}
		if l.lost() || a.leaser == nil && try >= ackTriesUnleased {
			a.v.logger.LogAttrs(context.Background(), slog.LevelError,
				"webhooks: cannot acknowledge a processed event; it will be processed again",
				slog.String("event_id", m.ID), slog.String("error", err.Error()))
			return
		}
		a.v.logger.LogAttrs(context.Background(), slog.LevelWarn, "webhooks: cannot acknowledge a processed event yet; trying again",
			slog.String("event_id", m.ID), slog.Int("try", try), slog.String("error", err.Error()))
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-l.gone: // the next try is the last
		}
		t.Stop()
		wait = min(2*wait, ackMaxWait)
	}
}
