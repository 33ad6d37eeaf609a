package webhooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// releaseTimeout bounds a Release made after the request that claimed the id
// has ended or been cancelled.
const releaseTimeout = 10 * time.Second

// Handler returns an http.Handler that verifies each delivery and passes its
// event to fn. It answers:
//
//   - 405 with "Allow: POST" to other methods;
//   - 413 when the body exceeds the limit (WithMaxBodyBytes, default 1 MiB);
//   - 400 with a generic body when verification fails;
//   - 200 to a duplicate, without calling fn (any other status would make
//     the platform retry it for hours);
//   - 500 when the DedupStore fails, or when fn fails or panics: the claim
//     on the event id is then released, so the platform's retry is
//     processed;
//   - 204 when fn succeeds.
//
// The platform waits at most 1 second for an answer; when fn can be slow use
// AsyncHandler.
func (v *Verifier) Handler(fn func(context.Context, *Event) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ev, ok := v.accept(w, r)
		if !ok {
			return
		}
		if err := v.run(r.Context(), fn, ev); err != nil {
			http.Error(w, "event processing failed", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// accept reads and verifies a delivery. When it returns false it has
// answered the request.
func (v *Verifier) accept(w http.ResponseWriter, r *http.Request) (*Event, bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return nil, false
	}
	body, err := readBody(w, r, v.maxBody)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		} else {
			http.Error(w, "cannot read request body", http.StatusBadRequest)
		}
		return nil, false
	}
	ev, err := v.Verify(r.Context(), r.Header, body)
	switch {
	case err == nil:
		return ev, true
	case errors.Is(err, ErrDuplicateEvent):
		w.WriteHeader(http.StatusOK)
	case isRejection(err):
		v.logger.LogAttrs(r.Context(), slog.LevelWarn, "webhooks: delivery rejected",
			slog.String("reason", err.Error()))
		http.Error(w, "invalid webhook request", http.StatusBadRequest)
	default:
		v.logger.LogAttrs(r.Context(), slog.LevelError, "webhooks: cannot verify delivery",
			slog.String("error", err.Error()))
		http.Error(w, "cannot verify webhook request", http.StatusInternalServerError)
	}
	return nil, false
}

// readBody reads the body through a limit; a Content-Length that announces
// too much fails before reading.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, &http.MaxBytesError{Limit: limit}
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	if r.ContentLength >= 0 {
		buf := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(body, buf); err != nil {
			return nil, err
		}
		return buf, nil
	}
	return io.ReadAll(body)
}

// run calls fn, turns a panic into an error, and releases the claim on the
// event id when fn fails.
func (v *Verifier) run(ctx context.Context, fn func(context.Context, *Event) error, ev *Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("webhooks: handler panicked: %v", p)
		}
		if err != nil {
			v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: event processing failed",
				slog.String("event_id", ev.ID), slog.String("event_type", string(ev.Type)),
				slog.String("error", err.Error()))
			v.release(ctx, ev)
		}
	}()
	return fn(ctx, ev)
}

// release releases the claim on ev's id even when ctx has ended, and logs a
// failure.
func (v *Verifier) release(ctx context.Context, ev *Event) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if err := v.Release(ctx, ev.ID); err != nil {
		v.logger.LogAttrs(ctx, slog.LevelError, "webhooks: cannot release event id; its redelivery will be taken for a duplicate until the claim expires",
			slog.String("event_id", ev.ID), slog.String("error", err.Error()))
	}
}

// AsyncOption configures an AsyncHandler.
type AsyncOption func(*asyncConfig)

type asyncConfig struct {
	workers, queue int
	base           context.Context
}

// WithWorkers sets how many events an AsyncHandler processes at once
// (default 4).
func WithWorkers(n int) AsyncOption {
	return func(c *asyncConfig) { c.workers = n }
}

// WithQueueSize sets how many verified events may wait for a worker (default
// 64); a delivery that finds the queue full is answered 503.
func WithQueueSize(n int) AsyncOption {
	return func(c *asyncConfig) { c.queue = n }
}

// WithBaseContext sets the context fn runs in (default
// context.Background()); Shutdown cancels it when its own ctx ends first.
func WithBaseContext(ctx context.Context) AsyncOption {
	return func(c *asyncConfig) { c.base = ctx }
}

// AsyncHandler acknowledges deliveries as soon as they are verified and
// processes them in a bounded pool of workers, for receivers whose
// processing can take longer than the platform's 1-second deadline. Build it
// with (*Verifier).AsyncHandler.
type AsyncHandler struct {
	v      *Verifier
	fn     func(context.Context, *Event) error
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.RWMutex
	closed bool
	queue  chan *Event
	done   chan struct{} // closed when every worker has returned
}

// AsyncHandler returns a handler that answers like Handler up to
// verification, then queues the event and answers 202 at once. Workers call
// fn for each queued event; when fn fails or panics, the failure is logged
// (see WithLogger) and the claim on the event id is released, so the
// platform's retry is accepted and processed. When the queue is full the
// delivery is answered 503 and its claim released: the platform retries it
// and nothing is lost. Call Shutdown to stop it.
func (v *Verifier) AsyncHandler(fn func(context.Context, *Event) error, opts ...AsyncOption) *AsyncHandler {
	cfg := asyncConfig{workers: 4, queue: 64, base: context.Background()}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.workers = max(cfg.workers, 1)
	cfg.queue = max(cfg.queue, 0)
	if cfg.base == nil {
		cfg.base = context.Background()
	}
	a := &AsyncHandler{
		v:     v,
		fn:    fn,
		queue: make(chan *Event, cfg.queue),
		done:  make(chan struct{}),
	}
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

// ServeHTTP implements http.Handler.
func (a *AsyncHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if a.isClosed() {
		unavailable(w, "shutting down")
		return
	}
	ev, ok := a.v.accept(w, r)
	if !ok {
		return
	}
	if !a.enqueue(ev) {
		a.v.release(r.Context(), ev)
		unavailable(w, "busy")
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func unavailable(w http.ResponseWriter, why string) {
	http.Error(w, "webhook receiver "+why+", retry later", http.StatusServiceUnavailable)
}

func (a *AsyncHandler) isClosed() bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.closed
}

// enqueue queues ev unless the queue is full or the handler is shut down.
func (a *AsyncHandler) enqueue(ev *Event) bool {
	a.mu.RLock()
	defer a.mu.RUnlock()
	if a.closed {
		return false
	}
	select {
	case a.queue <- ev:
		return true
	default:
		return false
	}
}

func (a *AsyncHandler) work() {
	for ev := range a.queue {
		if a.ctx.Err() != nil {
			// Shutdown gave up waiting: hand the event back to the platform.
			a.v.release(a.ctx, ev)
			continue
		}
		_ = a.v.run(a.ctx, a.fn, ev)
	}
}

// Shutdown stops accepting deliveries (they are answered 503, so the
// platform retries them later) and waits until the queued events are
// processed. When ctx ends first it returns ctx's error, cancels the context
// of the events being processed, and releases the claims of the events still
// queued, in the background, so that their redeliveries are accepted.
func (a *AsyncHandler) Shutdown(ctx context.Context) error {
	a.mu.Lock()
	if !a.closed {
		a.closed = true
		close(a.queue)
	}
	a.mu.Unlock()
	select {
	case <-a.done:
		a.cancel()
		return nil
	case <-ctx.Done():
		a.cancel()
		return ctx.Err()
	}
}
