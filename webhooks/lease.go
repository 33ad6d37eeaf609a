package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
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
	// leaseBeats is how many touch intervals make a lease run out: the
	// queue's visibility timeout is three of them (queue.Leaser).
	leaseBeats = 3
)

// lease is a worker's hold on one entry: fn's context, which ends when the
// claim is lost (cause queue.ErrClaimLost) or the handler's context ends,
// and the heartbeat that keeps the entry touched when the queue's hand-outs
// are leases. Only the worker that holds it calls its methods, but for
// lose and lost, which the heartbeat calls too.
type lease struct {
	a        *AsyncHandler
	m        *queue.Message
	ctx      context.Context
	cancel   context.CancelCauseFunc
	gone     chan struct{} // closed when the claim is lost
	loseOnce sync.Once
	every    time.Duration // between touches; 0 when the hand-out is no lease
	touched  atomic.Int64  // when the entry was last touched, or handed out (Unix ns)
	stopBeat func()        // stops the running heartbeat and waits for it; nil when none runs
}

// hold starts holding m: when q's hand-outs are leases, its heartbeat runs
// until pause or release.
func (a *AsyncHandler) hold(m *queue.Message) *lease {
	l := &lease{a: a, m: m, gone: make(chan struct{})}
	l.ctx, l.cancel = context.WithCancelCause(a.ctx)
	l.touched.Store(time.Now().UnixNano())
	if a.leaser != nil {
		l.every = a.leaser.TouchInterval()
		l.resume()
	}
	return l
}

// resume starts the heartbeat, if the hand-out is a lease and none runs.
func (l *lease) resume() {
	if l.every <= 0 || l.stopBeat != nil {
		return
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		l.heartbeat(stop)
	}()
	l.stopBeat = func() {
		close(stop)
		<-done
	}
}

// pause stops the heartbeat and waits until no touch is under way.
func (l *lease) pause() {
	if l.stopBeat != nil {
		l.stopBeat()
		l.stopBeat = nil
	}
}

// release ends the hold: the entry is acknowledged, dead-lettered, or left
// to the queue's visibility timeout.
func (l *lease) release() {
	l.pause()
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

// expired reports whether the lease has run out: no touch succeeded for a
// whole visibility timeout, so another receiver may have the entry now.
func (l *lease) expired() bool {
	return l.every > 0 && time.Since(time.Unix(0, l.touched.Load())) >= leaseBeats*l.every
}

// wait waits d, the entry kept touched meanwhile; false when the claim is
// lost or the handler's context ends first.
func (l *lease) wait(d time.Duration) bool { return sleep(l.ctx, d) }

// heartbeat touches the entry every interval until stop or a lost claim. Its
// touches run on a context of their own, not the handler's: when Shutdown
// gives up, the runs of fn it names keep their claims until they return. A
// touch that fails for another reason is tried again at the next beat.
func (l *lease) heartbeat(stop <-chan struct{}) {
	t := time.NewTicker(l.every)
	defer t.Stop()
	log := l.a.v.logger
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), l.every)
		err := l.a.q.Touch(ctx, l.m)
		cancel()
		switch {
		case err == nil:
			l.touched.Store(time.Now().UnixNano())
		case errors.Is(err, queue.ErrClaimLost):
			log.LogAttrs(context.Background(), slog.LevelWarn,
				"webhooks: claim on an event lost: another receiver took it over; stopping its processing here",
				slog.String("event_id", l.m.ID), slog.String("queue_key", l.m.Key))
			l.lose()
			return
		default:
			log.LogAttrs(context.Background(), slog.LevelWarn, "webhooks: cannot touch an event in hand; trying again",
				slog.String("event_id", l.m.ID), slog.String("error", err.Error()))
		}
	}
}

// ack acknowledges the entry, whose event was processed. The heartbeat is
// paused during each try, so that no touch runs after the entry is gone
// and takes that for a lost claim. A failure (a lost reply, the queue
// restarting) is retried while the worker holds the claim, so that the
// event is not handed out and processed again; it gives up once the claim
// is lost or the lease has run out, or after ackTriesUnleased tries with a
// queue whose hand-outs are not leases, and says so.
func (l *lease) ack() {
	log := l.a.v.logger
	wait := ackMinWait
	for try := 1; ; try++ {
		l.pause()
		ctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
		err := l.a.q.Ack(ctx, l.m)
		cancel()
		if err == nil {
			return
		}
		if l.lost() || l.expired() || l.every == 0 && try >= ackTriesUnleased {
			log.LogAttrs(context.Background(), slog.LevelError,
				"webhooks: cannot acknowledge a processed event; it will be processed again",
				slog.String("event_id", l.m.ID), slog.String("error", err.Error()))
			return
		}
		log.LogAttrs(context.Background(), slog.LevelWarn, "webhooks: cannot acknowledge a processed event yet; trying again",
			slog.String("event_id", l.m.ID), slog.Int("try", try), slog.String("error", err.Error()))
		l.resume()
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-l.gone: // the next try is the last
		}
		t.Stop()
		wait = min(2*wait, ackMaxWait)
	}
}
