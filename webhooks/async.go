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
	// DefaultShutdownGrace is how long a Shutdown that gives up waits for
	// the runs of fn whose context it cancelled to return.
	DefaultShutdownGrace = time.Second
)

// enqueueTimeout bounds one Enqueue, which runs to its end even when the
// platform hangs up meanwhile.
const enqueueTimeout = 10 * time.Second

// AsyncOption configures an AsyncHandler.
type AsyncOption func(*asyncConfig)

type asyncConfig struct {
	workers, attempts      int
	minBackoff, maxBackoff time.Duration
	grace                  time.Duration
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
// When ctx ends (an application's signal context, say), the handler stops
// as Shutdown does when it gives up: deliveries are answered 503, so that
// the platform re-sends them, no new run of fn starts, and what the queue
// holds stays there for Shutdown, which a memory queue's events come back
// from.
func WithBaseContext(ctx context.Context) AsyncOption {
	return func(c *asyncConfig) { c.base = ctx }
}

// WithShutdownGrace sets how long a Shutdown whose ctx has ended waits,
// after cancelling fn's context, for the runs of fn under way to return
// (default DefaultShutdownGrace; 0 waits not at all). An event whose run
// returns within the grace is acknowledged when fn succeeded, and
// otherwise handed back like a waiting one (memory queue) or left in the
// queue (durable queue); only the runs still under way when the grace ends
// are named in the *ShutdownError.
func WithShutdownGrace(d time.Duration) AsyncOption {
	return func(c *asyncConfig) { c.grace = max(d, 0) }
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
	claims bool         // delivery ids are claimed in the dedup.Store (enqueueIsDedup)
	cfg    asyncConfig
	ctx    context.Context // of fn; cancelled when Shutdown gives up
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool              // deliveries are refused
	stopped bool              // Shutdown gave up: no run of fn starts
	running map[string]string // queue key → event id: fn runs, or its outcome is being recorded
	named   map[string]bool   // queue keys of the runs that a Shutdown named as running
	idle    chan struct{}     // closed when running empties, while a Shutdown waits for that
	done    chan struct{}     // closed when every worker has returned
}

// AsyncHandler returns a handler that answers like Handler up to
// verification, then stores the event in q and answers 202 only once q has
// it. Workers take the events from q and call fn. An event whose fn
// succeeds is acknowledged in q; one whose fn fails or panics is retried
// with backoff (WithBackoff) and, after WithMaxAttempts failures, moved to
// q's dead-letter list (see queue.DeadLetterList) and its claim released.
// While an event is retried, or taken over from a receiver that stopped, its
// claim in the dedup.Store is extended when the store is a dedup.Extender, so
// that a redelivery of it is answered as a duplicate.
//
// When q's hand-outs are leases (queue.Leaser, as webhooks/redisqueue's
// are), a worker touches its entry every TouchInterval for the whole of its
// handling, runs of fn and waits between them alike. When a touch reports
// the claim lost (queue.ErrClaimLost: another receiver took the entry
// over), the worker cancels fn's context with that cause and stops
// handling the entry: no further call of fn, no dead letter, no release of
// the claim; a run of fn that succeeds all the same is still acknowledged.
// When no touch has succeeded for three intervals (the lease ran out, and
// another receiver may hold the entry), no further run of fn starts for it
// and it is not dead-lettered here.
// A failed acknowledgement is retried while the worker holds the claim.
//
// When q's Enqueue is idempotent (queue.Idempotent, as redisqueue's is)
// for at least the claim's ttl (twice the Verifier's tolerance; redisqueue
// remembers ids for 31 hours), the enqueue is the dedup: no event id is
// claimed in the dedup.Store, every delivery is enqueued and answered 202
// once q has it (a duplicate adds nothing), and the ack path makes one
// round trip to the queue and none to the store. With a shorter window the
// id is claimed, and a duplicate delivery is enqueued too before it is
// answered 200: its first delivery may still be storing the event, and may
// fail; the 2xx then says that the event is stored, whichever delivery
// stored it. With any other queue the id is claimed and a duplicate is
// answered 200 at once. Verify always claims.
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
		grace: DefaultShutdownGrace, base: context.Background(),
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
	a := &AsyncHandler{v: v, fn: fn, q: q, cfg: cfg, running: map[string]string{}, named: map[string]bool{},
		done: make(chan struct{})}
	a.leaser, _ = q.(queue.Leaser)
	_, a.idem = q.(queue.Idempotent)
	a.claims = v.dedup != nil && !enqueueIsDedup(q, v.claimTTL())
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
// 503 when the handler is shutting down (Shutdown was called, or the base
// context ended) or the queue is full or closed, and 500 when the queue
// fails.
func (a *AsyncHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.isClosed() {
		unavailable(w, "shutting down")
		return
	}
	ev, dup := a.v.accept(w, r, a.idem, a.claims)
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
	if a.claims && !dup { // a duplicate's claim is its first delivery's
		a.v.release(r.Context(), ev.ID)
	}
}

// enqueueIsDedup reports whether q's Enqueue does the dedup.Store's work:
// it is keyed by the event id (queue.Idempotent) and remembers an id for at
// least claimTTL, so that it absorbs every duplicate a claim would refuse,
// and the claim, one more round trip per delivery, is dropped.
func enqueueIsDedup(q queue.Queue, claimTTL time.Duration) bool {
	iq, ok := q.(queue.Idempotent)
	return ok && iq.IdempotencyWindow() >= claimTTL
}

func unavailable(w http.ResponseWriter, why string) {
	http.Error(w, "webhook receiver "+why+", retry later", http.StatusServiceUnavailable)
}

func (a *AsyncHandler) isClosed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.closed || a.ctx.Err() != nil
}

// work takes events from the queue until it is closed and drained, or
// Shutdown gives up, or the base context ends.
func (a *AsyncHandler) work() {
	failures := 0
	for a.ctx.Err() == nil { // a memory queue hands out even on an ended context
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

// outcome is what an attempt's settlement leaves to do.
type outcome int

const (
	again     outcome = iota // wait, then call fn again
	finished                 // acknowledged, dead-lettered, or no longer this worker's
	abandoned                // failed while the handler stops: left in the queue
)

// process handles m until its event succeeds, fails too often, is no longer
// this worker's, its lease runs out, or the handler stops; in the last three
// cases m stays in the queue, unacknowledged.
func (a *AsyncHandler) process(m *queue.Message) {
	l := a.hold(m)
	defer l.release()
	// Unreadable members were logged by the Verify that accepted m.
	ev, _, err := decodeEvent(m.ID, EventType(m.Type), m.Body)
	if err != nil { // not from this receiver's Verify: nothing will fix it
		a.deadLetter(m, l, err.Error())
		return
	}
	if m.Deliveries > a.cfg.attempts {
		a.deadLetter(m, l, fmt.Sprintf("handed out %d times without being finished", m.Deliveries))
		return
	}
	ev.Handouts = m.Deliveries
	for attempt := 1; ; attempt++ {
		if !a.begin(m) {
			return
		}
		// Retried, or taken over: the claim may have run out meanwhile. It is
		// extended only once the run is recorded, so that a Shutdown that
		// hands m back, and releases its claim, does so after.
		if a.claims && (attempt > 1 || m.Deliveries > 1) {
			a.v.extend(a.ctx, m.ID)
		}
		err := a.v.call(l.ctx, a.fn, ev)
		out := a.settle(m, l, err, attempt)
		a.report(m, err, out, a.end(m))
		if out != again || !l.wait(a.backoff(attempt)) || !a.keep(m, l) {
			return
		}
	}
}

// begin records that fn is about to run for m; false when the handler
// stops (Shutdown gave up, or the base context ended), and no run may
// start.
func (a *AsyncHandler) begin(m *queue.Message) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped || a.ctx.Err() != nil {
		return false
	}
	a.running[m.Key] = m.ID
	return true
}

// end records that the outcome of m's run is settled, and reports whether
// a Shutdown named the run as running (and so did not hand m back).
func (a *AsyncHandler) end(m *queue.Message) (named bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.running, m.Key)
	if len(a.running) == 0 && a.idle != nil {
		close(a.idle)
		a.idle = nil
	}
	return a.named[m.Key]
}

// wasNamed reports whether a Shutdown named m's run as running.
func (a *AsyncHandler) wasNamed(m *queue.Message) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.named[m.Key]
}

func (a *AsyncHandler) isStopped() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stopped
}

// settle records the outcome err of an attempt of m: acknowledged,
// dead-lettered, no longer this worker's, abandoned because the handler is
// stopping, or to be retried.
func (a *AsyncHandler) settle(m *queue.Message, l *lease, err error, attempt int) outcome {
	switch {
	case err == nil:
		l.ack()
		if a.claims {
			a.v.complete(a.ctx, m.ID) // for Handler's duplicates (complete.go)
		}
		return finished
	case l.lost():
		a.v.logger.LogAttrs(context.Background(), slog.LevelWarn,
			"webhooks: event not retried here: another receiver took it over (claim lost)",
			slog.String("event_id", m.ID), slog.String("event_type", m.Type), slog.String("error", err.Error()))
		return finished
	case a.isStopped() || a.ctx.Err() != nil:
		return abandoned
	case attempt >= a.cfg.attempts:
		a.deadLetter(m, l, err.Error())
		return finished
	}
	return again
}

// report logs what became of a run that ended once a Shutdown had named it
// (named), or that failed while the handler stops.
func (a *AsyncHandler) report(m *queue.Message, err error, out outcome, named bool) {
	attrs := []slog.Attr{slog.String("event_id", m.ID), slog.String("event_type", m.Type)}
	_, volatile := a.q.(queue.Volatile)
	level, msg := slog.LevelWarn, "webhooks: event failed while stopping; left in the queue for another receiver"
	switch {
	case out == finished && err == nil && named:
		level, msg = slog.LevelInfo, "webhooks: event processed after Shutdown returned; acknowledged"
	case out != abandoned:
		return
	case volatile && named:
		// Shutdown named it as running and handed back the rest: nothing
		// holds it now.
		level, msg = slog.LevelError, "webhooks: event failed after Shutdown returned; the memory queue no longer holds it: it is lost unless you process it again"
	case volatile:
		level, msg = slog.LevelInfo, "webhooks: event failed while stopping; the memory queue keeps it for Shutdown to hand back"
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	a.v.logger.LogAttrs(context.Background(), level, msg, attrs...)
}

// keep reports whether m may be retried here: with leases kept by the
// heartbeat, whether a touch succeeded within the last visibility timeout;
// otherwise after touching m. False when the claim is lost or the lease ran
// out, so that no run of fn starts while another receiver may hold m.
func (a *AsyncHandler) keep(m *queue.Message, l *lease) bool {
	if a.leaser != nil {
		if !l.expired() {
			return true
		}
		a.v.logger.LogAttrs(context.Background(), slog.LevelWarn,
			"webhooks: event not retried here: no touch succeeded for a whole visibility timeout (lease ran out); another receiver may hold it",
			slog.String("event_id", m.ID), slog.String("queue_key", m.Key))
		return false
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
// The heartbeat is stopped first: a touch between the move and its reply
// would find the entry gone and report a lost claim. When the queue fails,
// m stays unacknowledged: a durable queue hands it out again later. When
// the hand-out is no longer this worker's, the claim is left to the
// receiver that has it.
func (a *AsyncHandler) deadLetter(m *queue.Message, l *lease, reason string) {
	l.pause()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), releaseTimeout)
	defer cancel()
	err := a.q.DeadLetter(ctx, m, reason)
	switch {
	case errors.Is(err, queue.ErrClaimLost):
		a.notDeadLettered(ctx, m, reason)
		return
	case err != nil:
		a.v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot dead-letter an event",
			slog.String("event_id", m.ID), slog.String("error", err.Error()))
		return
	}
	a.v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: event dead-lettered",
		slog.String("event_id", m.ID), slog.String("event_type", m.Type),
		slog.String("queue_key", m.Key), slog.String("reason", reason))
	if a.claims {
		a.v.release(ctx, m.ID)
	}
}

// notDeadLettered logs a dead letter refused because the entry is no longer
// this worker's: with a memory queue, Shutdown took it out, and handed it
// back unless it named the run as running; with a durable queue, another
// receiver took it over.
func (a *AsyncHandler) notDeadLettered(ctx context.Context, m *queue.Message, reason string) {
	level, msg := slog.LevelWarn, "webhooks: event not dead-lettered: another receiver took it over (claim lost)"
	if _, volatile := a.q.(queue.Volatile); volatile {
		level, msg = slog.LevelInfo, "webhooks: event not dead-lettered: Shutdown handed it back"
		if a.wasNamed(m) {
			level, msg = slog.LevelError, "webhooks: event not dead-lettered: Shutdown returned while it ran, and the memory queue no longer holds it: it is lost unless you process it again"
		}
	}
	a.v.logger.LogAttrs(ctx, level, msg, slog.String("event_id", m.ID), slog.String("event_type", m.Type),
		slog.String("reason", reason))
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
