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
	leaser queue.Leaser // q's, when its hand-outs are leases
	idem   bool         // q's Enqueue is keyed by the event id
	cfg    asyncConfig
	ctx    context.Context // of fn; cancelled when Shutdown gives up
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool              // deliveries are refused
	stopped bool              // Shutdown gave up: no run of fn starts
	running map[string]string // queue key → event id: fn runs, or its outcome is being recorded
	done    chan struct{}     // closed when every worker has returned
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
// When q's hand-outs are leases (queue.Leaser, as webhooks/redisqueue's
// are), a worker touches its entry every TouchInterval for the whole of its
// handling, runs of fn and waits between them alike. When a touch reports
// the claim lost (queue.ErrClaimLost: another receiver took the entry
// over), the worker cancels fn's context with that cause and stops
// handling the entry: no further call of fn, no dead letter, no release of
// the claim; a run of fn that succeeds all the same is still acknowledged.
// A failed acknowledgement is retried while the worker holds the claim.
//
// When q's Enqueue is idempotent (queue.Idempotent, as redisqueue's is), a
// duplicate delivery is enqueued too before it is answered 200: its first
// delivery may still be storing the event, and may fail; the 2xx then says
// that the event is stored, whichever delivery stored it. With any other
// queue a duplicate is answered 200 at once, as by Handler.
//
// What the 202 is worth is q's durability: with webhooks/redisqueue, an
// event survives a crash of the receiver; with queue.NewMemory, a crash
// loses the events it holds (an error, a panic or a Shutdown does not).
// When q refuses the event (full, closed or failing) the delivery is
// answered 503 or 500 and its claim released, so the platform retries it.
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
	a := &AsyncHandler{v: v, fn: fn, q: q, cfg: cfg, running: map[string]string{}, done: make(chan struct{})}
	a.leaser, _ = q.(queue.Leaser)
	_, a.idem = q.(queue.Idempotent)
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
// verification, then 202 once the event is enqueued (200 to a duplicate),
// 503 when the handler is shutting down or the queue is full or closed, and
// 500 when the queue fails.
func (a *AsyncHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.isClosed() {
		unavailable(w, "shutting down")
		return
	}
	ev, dup := a.v.accept(w, r, a.idem)
	if ev == nil {
		return
	}
	// The platform may hang up while the queue writes: finish the write
	// anyway, so that its outcome is known.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), enqueueTimeout)
	defer cancel()
	err := a.q.Enqueue(ctx, queue.Delivery{ID: ev.ID, Type: string(ev.Type), Body: ev.Raw})
	switch {
	case err == nil && dup:
		w.WriteHeader(http.StatusOK)
		return
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
	if !dup { // a duplicate's claim is its first delivery's
		a.v.release(r.Context(), ev.ID)
	}
}

func unavailable(w http.ResponseWriter, why string) {
	http.Error(w, "webhook receiver "+why+", retry later", http.StatusServiceUnavailable)
}

func (a *AsyncHandler) isClosed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
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

// process handles m until its event succeeds, fails too often, is no longer
// this worker's, or Shutdown gives up; in the last two cases m stays in the
// queue, unacknowledged.
func (a *AsyncHandler) process(m *queue.Message) {
	l := a.hold(m)
	defer l.release()
	// Unreadable members were logged by the Verify that accepted m.
	ev, _, err := decodeEvent(m.ID, EventType(m.Type), m.Body)
	if err != nil { // not from this receiver's Verify: nothing will fix it
		a.deadLetter(m, err.Error())
		return
	}
	if m.Deliveries > a.cfg.attempts {
		a.deadLetter(m, fmt.Sprintf("handed out %d times without being finished", m.Deliveries))
		return
	}
	ev.Handouts = m.Deliveries
	if m.Deliveries > 1 { // taken over: the claim may have run out meanwhile
		a.v.extend(a.ctx, m.ID)
	}
	for attempt := 1; ; attempt++ {
		if !a.begin(m) {
			return
		}
		err := a.v.call(l.ctx, a.fn, ev)
		finished := a.settle(m, l, err, attempt)
		a.end(m)
		if finished || !l.wait(a.backoff(attempt)) || !a.touchBeforeRetry(m, l) {
			return
		}
		a.v.extend(a.ctx, m.ID)
	}
}

// begin records that fn is about to run for m; false when Shutdown has given
// up, and no run may start.
func (a *AsyncHandler) begin(m *queue.Message) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		return false
	}
	a.running[m.Key] = m.ID
	return true
}

// end records that the outcome of m's run is settled.
func (a *AsyncHandler) end(m *queue.Message) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.running, m.Key)
}

func (a *AsyncHandler) isStopped() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stopped
}

// settle records the outcome err of an attempt of m and reports whether m
// is finished with: acknowledged, dead-lettered, no longer this worker's, or
// abandoned because the handler is stopping.
func (a *AsyncHandler) settle(m *queue.Message, l *lease, err error, attempt int) bool {
	late := a.isStopped()
	switch {
	case err == nil:
		l.ack()
		if late {
			a.v.logger.LogAttrs(context.Background(), slog.LevelInfo, "webhooks: event processed after Shutdown returned; acknowledged",
				slog.String("event_id", m.ID), slog.String("event_type", m.Type))
		}
		return true
	case l.lost():
		a.v.logger.LogAttrs(context.Background(), slog.LevelWarn,
			"webhooks: event not retried here: another receiver took it over (claim lost)",
			slog.String("event_id", m.ID), slog.String("event_type", m.Type), slog.String("error", err.Error()))
		return true
	case late || a.ctx.Err() != nil:
		a.abandon(m, err, late)
		return true
	case attempt >= a.cfg.attempts:
		a.deadLetter(m, err.Error())
		return true
	}
	return false
}

// abandon logs an event whose run failed while the handler was stopping: it
// is not retried here.
func (a *AsyncHandler) abandon(m *queue.Message, err error, late bool) {
	level, msg := slog.LevelWarn, "webhooks: event failed while stopping; left in the queue for another receiver"
	if _, volatile := a.q.(queue.Volatile); volatile && late {
		// Shutdown named it as running and handed back the rest: nothing
		// holds it now.
		level, msg = slog.LevelError, "webhooks: event failed after Shutdown returned; the memory queue no longer holds it: it is lost unless you process it again"
	}
	a.v.logger.LogAttrs(context.Background(), level, msg,
		slog.String("event_id", m.ID), slog.String("event_type", m.Type), slog.String("error", err.Error()))
}

// touchBeforeRetry touches m before a retry when q's hand-outs are not
// leases kept by the heartbeat; false when the claim is lost.
func (a *AsyncHandler) touchBeforeRetry(m *queue.Message, l *lease) bool {
	if a.leaser != nil {
		return true
	}
	err := a.q.Touch(a.ctx, m)
	switch {
	case errors.Is(err, queue.ErrClaimLost):
		l.lose()
		return false
	case err != nil:
		a.v.logger.LogAttrs(a.ctx, slog.LevelWarn, "webhooks: cannot keep an event in hand",
			slog.String("event_id", m.ID), slog.String("error", err.Error()))
	}
	return true
}

// deadLetter moves m to the dead-letter list and ends the claim on its id.
// When the queue fails, m stays unacknowledged: a durable queue hands it out
// again later. When the hand-out is no longer this worker's, the claim is
// left to the receiver that has it.
func (a *AsyncHandler) deadLetter(m *queue.Message, reason string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), releaseTimeout)
	defer cancel()
	err := a.q.DeadLetter(ctx, m, reason)
	switch {
	case errors.Is(err, queue.ErrClaimLost):
		a.v.logger.LogAttrs(ctx, slog.LevelWarn, "webhooks: event not dead-lettered: another receiver took it over (claim lost)",
			slog.String("event_id", m.ID), slog.String("reason", reason))
		return
	case err != nil:
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
