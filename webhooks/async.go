package webhooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// Defaults of an AsyncHandler.
const (
	// DefaultWorkers is how many events an AsyncHandler processes at once.
	DefaultWorkers = 4
	// DefaultMaxAttempts is how many times fn is tried on one event before
	// the event is dead-lettered.
	DefaultMaxAttempts = 8
	// DefaultMinBackoff and DefaultMaxBackoff bound the wait between two
	// attempts, which doubles from the first to the second.
	DefaultMinBackoff = 250 * time.Millisecond
	DefaultMaxBackoff = 30 * time.Second
)

// enqueueTimeout bounds one Enqueue, which runs to its end even when the
// platform hangs up meanwhile.
const enqueueTimeout = 10 * time.Second

// AsyncOption configures an AsyncHandler.
type AsyncOption func(*asyncConfig)

type asyncConfig struct {
	workers, attempts      int
	minBackoff, maxBackoff time.Duration
	base                   context.Context
}

// WithWorkers sets how many events an AsyncHandler processes at once
// (default DefaultWorkers).
func WithWorkers(n int) AsyncOption {
	return func(c *asyncConfig) { c.workers = n }
}

// WithMaxAttempts sets how many times fn is called for one event before
// the event moves to the queue's dead-letter list (default
// DefaultMaxAttempts). An event that a queue has handed out more often
// than that, because the receivers that held it stopped, is dead-lettered
// without a further attempt.
func WithMaxAttempts(n int) AsyncOption {
	return func(c *asyncConfig) { c.attempts = n }
}

// WithBackoff sets the wait after the first failed attempt and the longest
// wait between two attempts (defaults DefaultMinBackoff and
// DefaultMaxBackoff); waits double in between, with jitter.
func WithBackoff(minWait, maxWait time.Duration) AsyncOption {
	return func(c *asyncConfig) { c.minBackoff, c.maxBackoff = minWait, maxWait }
}

// WithBaseContext sets the context fn runs in (default
// context.Background()); Shutdown cancels it when its own ctx ends first.
func WithBaseContext(ctx context.Context) AsyncOption {
	return func(c *asyncConfig) { c.base = ctx }
}

// AsyncHandler answers a delivery once its event is stored in a queue and
// processes the events in a pool of workers, for receivers whose processing
// can outlast the platform's 1-second deadline. Build it with
// (*Verifier).AsyncHandler; stop it with Shutdown.
type AsyncHandler struct {
	v      *Verifier
	fn     func(context.Context, *Event) error
	q      queue.Queue
	cfg    asyncConfig
	ctx    context.Context // of fn; cancelled when Shutdown gives up
	cancel context.CancelFunc

	mu     sync.RWMutex
	closed bool
	done   chan struct{} // closed when every worker has returned
}

// AsyncHandler returns a handler that answers like Handler up to
// verification, then stores the event in q and answers 202 only once q has
// it. Workers take the events from q and call fn. An event whose fn
// succeeds is acknowledged in q; one whose fn fails or panics is retried
// with backoff (WithBackoff) and, after WithMaxAttempts failures, moved to
// q's dead-letter list (see queue.DeadLetterList) and its claim released.
// While an event is retried, or taken over from a receiver that stopped, its
// claim in the DedupStore is extended when the store is an Extender, so
// that a redelivery of it is answered as a duplicate.
//
// What the 202 is worth is q's durability: with webhooks/redisqueue, an
// event survives a crash of the receiver; with queue.NewMemory, a crash
// loses the events it holds (an error, a panic or a Shutdown does not).
// When q refuses the event (full, closed or failing) the delivery is
// answered 503 and its claim released, so the platform retries it.
func (v *Verifier) AsyncHandler(q queue.Queue, fn func(context.Context, *Event) error, opts ...AsyncOption) *AsyncHandler {
	cfg := asyncConfig{
		workers: DefaultWorkers, attempts: DefaultMaxAttempts,
		minBackoff: DefaultMinBackoff, maxBackoff: DefaultMaxBackoff,
		base: context.Background(),
	}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.workers, cfg.attempts = max(cfg.workers, 1), max(cfg.attempts, 1)
	cfg.minBackoff = max(cfg.minBackoff, time.Millisecond)
	cfg.maxBackoff = max(cfg.maxBackoff, cfg.minBackoff)
	if cfg.base == nil {
		cfg.base = context.Background()
	}
	a := &AsyncHandler{v: v, fn: fn, q: q, cfg: cfg, done: make(chan struct{})}
	a.ctx, a.cancel = context.WithCancel(cfg.base)
	var wg sync.WaitGroup
	for range cfg.workers {
		wg.Go(a.work)
	}
	go func() {
		wg.Wait()
		close(a.done)
	}()
	return a
}

// ServeHTTP implements http.Handler. It answers like Handler up to
// verification, then 202 once the event is enqueued, 503 when the handler
// is shutting down or the queue is full or closed, and 500 when the queue
// fails.
func (a *AsyncHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.isClosed() {
		unavailable(w, "shutting down")
		return
	}
	ev, ok := a.v.accept(w, r)
	if !ok {
		return
	}
	// The platform may hang up while the queue writes: finish the write
	// anyway, so that its outcome is known.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), enqueueTimeout)
	defer cancel()
	err := a.q.Enqueue(ctx, queue.Delivery{ID: ev.ID, Type: string(ev.Type), Body: ev.Raw})
	switch {
	case err == nil:
		w.WriteHeader(http.StatusAccepted)
		return
	case errors.Is(err, queue.ErrFull), errors.Is(err, queue.ErrClosed):
		unavailable(w, "busy")
	default:
		a.v.logger.LogAttrs(r.Context(), slog.LevelError, "webhooks: cannot enqueue event",
			slog.String("event_id", ev.ID), slog.String("error", err.Error()))
		http.Error(w, "cannot store event, retry later", http.StatusInternalServerError)
	}
	a.v.release(r.Context(), ev.ID)
}

func unavailable(w http.ResponseWriter, why string) {
	http.Error(w, "webhook receiver "+why+", retry later", http.StatusServiceUnavailable)
}

func (a *AsyncHandler) isClosed() bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.closed
}

// work takes events from the queue until it is closed and drained, or
// Shutdown gives up.
func (a *AsyncHandler) work() {
	failures := 0
	for {
		m, err := a.q.Next(a.ctx)
		switch {
		case err == nil:
			failures = 0
			a.process(m)
			continue
		case errors.Is(err, queue.ErrClosed) || a.ctx.Err() != nil:
			return
		}
		failures++
		a.v.logger.LogAttrs(a.ctx, slog.LevelError, "webhooks: cannot take an event from the queue",
			slog.String("error", err.Error()))
		if !sleep(a.ctx, a.backoff(failures)) {
			return
		}
	}
}

// process calls fn for m until it succeeds, fails too often, or Shutdown
// gives up; in the last case m stays in the queue, unacknowledged.
func (a *AsyncHandler) process(m *queue.Message) {
	ev, err := decodeEvent(m.ID, EventType(m.Type), m.Body)
	if err != nil { // not from this receiver's Verify: nothing will fix it
		a.deadLetter(m, err.Error())
		return
	}
	if m.Deliveries > a.cfg.attempts {
		a.deadLetter(m, fmt.Sprintf("handed out %d times without being finished", m.Deliveries))
		return
	}
	if m.Deliveries > 1 { // taken over: the claim may have run out meanwhile
		a.v.extend(a.ctx, m.ID)
	}
	for attempt := 1; ; attempt++ {
		err := a.v.call(a.ctx, a.fn, ev)
		if err == nil {
			a.ack(m)
			return
		}
		if a.ctx.Err() != nil {
			return
		}
		if attempt >= a.cfg.attempts {
			a.deadLetter(m, err.Error())
			return
		}
		if !sleep(a.ctx, a.backoff(attempt)) {
			return
		}
		a.v.extend(a.ctx, m.ID)
		if err := a.q.Touch(a.ctx, m); err != nil {
			a.v.logger.LogAttrs(a.ctx, slog.LevelWarn, "webhooks: cannot keep an event in hand",
				slog.String("event_id", m.ID), slog.String("error", err.Error()))
		}
	}
}

func (a *AsyncHandler) ack(m *queue.Message) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), releaseTimeout)
	defer cancel()
	if err := a.q.Ack(ctx, m); err != nil {
		a.v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot acknowledge a processed event; it will be processed again",
			slog.String("event_id", m.ID), slog.String("error", err.Error()))
	}
}

// deadLetter moves m to the dead-letter list and ends the claim on its id.
// When the queue fails, m stays unacknowledged: a durable queue hands it out
// again later.
func (a *AsyncHandler) deadLetter(m *queue.Message, reason string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), releaseTimeout)
	defer cancel()
	if err := a.q.DeadLetter(ctx, m, reason); err != nil {
		a.v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot dead-letter an event",
			slog.String("event_id", m.ID), slog.String("error", err.Error()))
		return
	}
	a.v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: event dead-lettered",
		slog.String("event_id", m.ID), slog.String("event_type", m.Type),
		slog.String("queue_key", m.Key), slog.String("reason", reason))
	a.v.release(ctx, m.ID)
}

// backoff is the wait after the n-th failure: minBackoff doubled n-1 times,
// at most maxBackoff, less up to a quarter of jitter.
func (a *AsyncHandler) backoff(n int) time.Duration {
	d := a.cfg.minBackoff
	for i := 1; i < n && d < a.cfg.maxBackoff; i++ {
		d *= 2
	}
	d = min(d, a.cfg.maxBackoff)
	return d - rand.N(d/4+1)
}

// sleep waits d; false when ctx ends first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Shutdown stops accepting deliveries (they are answered 503, so the
// platform retries them later), closes the queue and waits until the
// workers have finished what the queue hands out: with a queue in memory,
// every event it holds; with a durable queue, the events in hand (the rest
// stays in the queue for the other receivers, or for this one's restart).
//
// When ctx ends first, Shutdown cancels the context of the events being
// processed and returns ctx's error together with the events that a queue
// in memory (queue.Volatile) still holds, neither processed nor
// dead-lettered: their claims are released, so the platform's redelivery
// of them is accepted by the next receiver, and the caller may process or
// record them itself. A durable queue keeps its events and none are
// returned. Shutdown returns nil, nil when everything was drained.
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
	a.cancel()
	vq, ok := a.q.(queue.Volatile)
	if !ok {
		return nil, err
	}
	var left []*Event
	for _, d := range vq.Unacked() {
		a.v.release(ctx, d.ID)
		ev, derr := decodeEvent(d.ID, EventType(d.Type), d.Body)
		if derr != nil {
			ev = &Event{ID: d.ID, Type: EventType(d.Type), Raw: d.Body}
		}
		left = append(left, ev)
	}
	return left, err
}
