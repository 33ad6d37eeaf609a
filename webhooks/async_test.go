package webhooks_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/queue"
)

// events numbers n event deliveries of vecBody.
func events(n int) []http.Header {
	out := make([]http.Header, n)
	for i := range out {
		out[i] = signed(uid(itoa(i)), webhooks.CaseFileCompleted, vecBody)
	}
	return out
}

// countingQueue is a memory queue that counts acknowledgements and
// dead letters.
type countingQueue struct {
	*queue.Memory
	acks, dead atomic.Int32
}

func (q *countingQueue) Ack(ctx context.Context, m *queue.Message) error {
	q.acks.Add(1)
	return q.Memory.Ack(ctx, m)
}

func (q *countingQueue) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	q.dead.Add(1)
	return q.Memory.DeadLetter(ctx, m, reason)
}

// fast retries in tests.
var fast = webhooks.WithBackoff(time.Millisecond, 5*time.Millisecond)

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

func shutdown(t *testing.T, a *webhooks.AsyncHandler) {
	t.Helper()
	if left, err := a.Shutdown(context.Background()); err != nil || len(left) != 0 {
		t.Fatalf("Shutdown = %d events, %v", len(left), err)
	}
}

// fn fails three times, then succeeds: the event is processed once and
// acknowledged once, and the platform got its 202 at once.
func TestAsyncRetriesUntilSuccess(t *testing.T) {
	t.Parallel()
	q := &countingQueue{Memory: queue.NewMemory(8)}
	var calls, done atomic.Int32
	a := newVerifier(t).AsyncHandler(q, func(context.Context, *webhooks.Event) error {
		if calls.Add(1) <= 3 {
			return errors.New("transient")
		}
		done.Add(1)
		return nil
	}, fast)
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	shutdown(t, a)
	if calls.Load() != 4 || done.Load() != 1 || q.acks.Load() != 1 || q.dead.Load() != 0 {
		t.Fatalf("calls %d, processed %d, acks %d, dead %d; want 4, 1, 1, 0",
			calls.Load(), done.Load(), q.acks.Load(), q.dead.Load())
	}
}

// A panicking fn is retried like a failing one; the process survives.
func TestAsyncPanicIsRetried(t *testing.T) {
	t.Parallel()
	q := &countingQueue{Memory: queue.NewMemory(8)}
	var calls atomic.Int32
	a := newVerifier(t).AsyncHandler(q, func(context.Context, *webhooks.Event) error {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		return nil
	}, fast)
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	shutdown(t, a)
	if calls.Load() != 2 || q.acks.Load() != 1 {
		t.Fatalf("calls %d, acks %d; want 2, 1", calls.Load(), q.acks.Load())
	}
}

// After WithMaxAttempts failures the event is dead-lettered and its claim
// released; a replay processes it.
func TestAsyncDeadLetterAndReplay(t *testing.T) {
	t.Parallel()
	q := &countingQueue{Memory: queue.NewMemory(8)}
	var calls atomic.Int32
	var fixed atomic.Bool
	v := newVerifier(t)
	a := v.AsyncHandler(q, func(context.Context, *webhooks.Event) error {
		calls.Add(1)
		if !fixed.Load() {
			return errors.New("poison")
		}
		return nil
	}, fast, webhooks.WithMaxAttempts(3))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	var dead []queue.DeadLetter
	waitFor(t, func() bool {
		dead, _ = q.DeadLetters(context.Background(), 10)
		return len(dead) == 1
	})
	if calls.Load() != 3 || dead[0].ID != vecID || dead[0].Reason != "poison" || string(dead[0].Body) != vecBody {
		t.Fatalf("calls %d, dead letter %+v", calls.Load(), dead[0])
	}
	// The claim ended with the dead letter: a redelivery is accepted.
	if w := deliver(t, v.Handler(func(context.Context, *webhooks.Event) error { return errors.New("x") }),
		http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusInternalServerError {
		t.Fatalf("redelivery after dead letter: %d", w.Code)
	}
	fixed.Store(true)
	if err := q.Replay(context.Background(), dead[0].Key); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return q.acks.Load() == 1 })
	if err := q.Replay(context.Background(), dead[0].Key); !errors.Is(err, queue.ErrNotFound) {
		t.Fatalf("second replay: %v", err)
	}
	shutdown(t, a)
}

// A full queue answers 503 and releases the claim, so nothing is lost.
func TestAsyncQueueFull(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	started := make(chan string, 10)
	var processed sync.Map
	v := newVerifier(t)
	a := v.AsyncHandler(queue.NewMemory(2), func(_ context.Context, ev *webhooks.Event) error {
		started <- ev.ID
		<-block
		processed.Store(ev.ID, true)
		return nil
	}, webhooks.WithWorkers(1))
	hs := events(3)
	if w := deliver(t, a, http.MethodPost, hs[0], vecBody); w.Code != 202 {
		t.Fatalf("first: %d", w.Code)
	}
	<-started // the worker holds the first
	if w := deliver(t, a, http.MethodPost, hs[1], vecBody); w.Code != 202 {
		t.Fatalf("second (queued): %d", w.Code)
	}
	if w := deliver(t, a, http.MethodPost, hs[2], vecBody); w.Code != 503 {
		t.Fatalf("third (queue full): %d", w.Code)
	}
	close(block)
	shutdown(t, a)
	h := v.Handler(func(_ context.Context, ev *webhooks.Event) error { processed.Store(ev.ID, true); return nil })
	if w := deliver(t, h, http.MethodPost, hs[2], vecBody); w.Code != 204 {
		t.Fatalf("redelivery of the refused event: %d", w.Code)
	}
	for i := range 3 {
		if _, ok := processed.Load(uid(itoa(i))); !ok {
			t.Errorf("event %d lost", i)
		}
	}
}

// failingQueue refuses every event.
type failingQueue struct{ *queue.Memory }

func (failingQueue) Enqueue(context.Context, queue.Delivery) error { return errors.New("disk full") }

func TestAsyncEnqueueFailureIs500(t *testing.T) {
	t.Parallel()
	v := newVerifier(t)
	a := v.AsyncHandler(failingQueue{queue.NewMemory(1)}, func(context.Context, *webhooks.Event) error { return nil })
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != 500 {
		t.Fatalf("status %d", w.Code)
	}
	shutdown(t, a)
	// The claim was released: the retry is accepted.
	if w := deliver(t, v.Handler(func(context.Context, *webhooks.Event) error { return nil }), http.MethodPost, vecHeaders(), vecBody); w.Code != 204 {
		t.Fatalf("retry: %d", w.Code)
	}
}

func TestAsyncShutdownDrains(t *testing.T) {
	t.Parallel()
	var done atomic.Int32
	a := newVerifier(t).AsyncHandler(queue.NewMemory(20), func(context.Context, *webhooks.Event) error {
		time.Sleep(5 * time.Millisecond)
		done.Add(1)
		return nil
	}, webhooks.WithWorkers(2))
	for _, h := range events(10) {
		if w := deliver(t, a, http.MethodPost, h, vecBody); w.Code != 202 {
			t.Fatal(w.Code)
		}
	}
	shutdown(t, a)
	if done.Load() != 10 {
		t.Fatalf("drained %d of 10", done.Load())
	}
	if w := deliver(t, a, http.MethodPost, signed(uid("late"), webhooks.CaseFileCompleted, vecBody), vecBody); w.Code != 503 {
		t.Fatalf("after Shutdown: %d", w.Code)
	}
	shutdown(t, a) // twice is fine
}

// Shutdown with a 10 ms deadline while 100 events are queued: every event is
// processed, returned, or named in the error as running, never both
// processed and returned; a named event's run finishes and is processed; a
// returned event's redelivery is accepted.
func TestAsyncShutdownTimeoutReturnsEvents(t *testing.T) {
	t.Parallel()
	var processed sync.Map
	v := newVerifier(t)
	a := v.AsyncHandler(queue.NewMemory(100), func(ctx context.Context, ev *webhooks.Event) error {
		time.Sleep(2 * time.Millisecond) // work that finishes what it started
		processed.Store(ev.ID, true)
		return nil
	}, webhooks.WithWorkers(2))
	hs := events(100)
	for _, h := range hs {
		if w := deliver(t, a, http.MethodPost, h, vecBody); w.Code != 202 {
			t.Fatal(w.Code)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, webhooks.ErrHandedBack) || len(left) == 0 {
		t.Fatalf("Shutdown = %d events, %v; want some events, DeadlineExceeded and ErrHandedBack", len(left), err)
	}
	named := map[string]bool{}
	var se *webhooks.ShutdownError
	if errors.As(err, &se) {
		for _, id := range se.Running {
			named[id] = true
		}
	}
	returned := map[string]bool{}
	for _, ev := range left {
		if ev.Type != webhooks.CaseFileCompleted || ev.CaseFile == nil || ev.CaseFile.ID != 531 {
			t.Fatalf("returned event %+v", ev)
		}
		if named[ev.ID] {
			t.Fatalf("event %s both returned and named as running", ev.ID)
		}
		returned[ev.ID] = true
	}
	waitFor(t, func() bool { // the named runs finish after Shutdown returned
		for id := range named {
			if _, ok := processed.Load(id); !ok {
				return false
			}
		}
		return true
	})
	for i := range hs {
		id := uid(itoa(i))
		_, ok := processed.Load(id)
		switch {
		case ok && returned[id]:
			t.Errorf("event %d processed and returned: the caller would process it twice", i)
		case named[id] && !ok:
			t.Errorf("event %d named as running but never processed", i)
		case !ok && !returned[id]:
			t.Errorf("event %d neither processed nor returned", i)
		}
	}
	t.Logf("%d returned, %d named as running", len(left), len(named))
	var redelivered bool
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	for i, hd := range hs {
		if returned[uid(itoa(i))] {
			if w := deliver(t, h, http.MethodPost, hd, vecBody); w.Code != 204 {
				t.Fatalf("redelivery of returned event %d: %d", i, w.Code)
			}
			redelivered = true
		}
	}
	if !redelivered {
		t.Fatal("no returned event to redeliver")
	}
}

// A run named by Shutdown's error (still under way at the end of the grace)
// that then fails is not retried; with a memory queue nothing holds its
// event any more, and the log says so with the event's id.
func TestAsyncLateFailureIsLogged(t *testing.T) {
	t.Parallel()
	log := &lockedBuilder{}
	v := newVerifier(t, webhooks.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	started, failed, late := make(chan struct{}), make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	a := v.AsyncHandler(queue.NewMemory(2), func(ctx context.Context, ev *webhooks.Event) error {
		calls.Add(1)
		close(started)
		<-ctx.Done() // gives up when Shutdown does, but only after its grace
		<-late
		defer close(failed)
		return context.Cause(ctx)
	}, fast, webhooks.WithShutdownGrace(10*time.Millisecond))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != 202 {
		t.Fatal(w.Code)
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	var se *webhooks.ShutdownError
	if !errors.As(err, &se) || len(se.Running) != 1 || se.Running[0] != vecID || len(left) != 0 {
		t.Fatalf("Shutdown = %d events, %v; want the running event named", len(left), err)
	}
	close(late)
	<-failed
	waitFor(t, func() bool { return strings.Contains(log.String(), "it is lost") })
	if !strings.Contains(log.String(), vecID) || calls.Load() != 1 {
		t.Fatalf("calls %d, log %q", calls.Load(), log.String())
	}
}

// extendingStore records the claims that AsyncHandler extends.
type extendingStore struct {
	dedup.Store
	mu       sync.Mutex
	extended []string
}

func (s *extendingStore) Extend(ctx context.Context, id string, ttl time.Duration) error {
	s.mu.Lock()
	s.extended = append(s.extended, id)
	s.mu.Unlock()
	return s.Store.(dedup.Extender).Extend(ctx, id, ttl)
}

// A retry extends the claim, so that a redelivery meanwhile is a duplicate.
func TestAsyncRetryExtendsClaim(t *testing.T) {
	t.Parallel()
	store := &extendingStore{Store: dedup.NewMemory(10)}
	var calls atomic.Int32
	v := newVerifier(t, webhooks.WithDedup(store))
	a := v.AsyncHandler(queue.NewMemory(4), func(context.Context, *webhooks.Event) error {
		if calls.Add(1) < 3 {
			return errors.New("transient")
		}
		return nil
	}, fast)
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != 202 {
		t.Fatal(w.Code)
	}
	shutdown(t, a)
	store.mu.Lock()
	defer store.mu.Unlock()
	if len(store.extended) != 2 || store.extended[0] != vecID {
		t.Fatalf("extended %v; want the event's id twice", store.extended)
	}
}

// Shutdown's deadline and grace end while fn runs for one event and another
// waits in the memory queue. Only the waiting event is handed back; the
// running one is named in the error and keeps its claim, so that the
// platform's redelivery of it is a duplicate, and its late success is
// acknowledged.
func TestAsyncShutdownKeepsRunningEvent(t *testing.T) {
	t.Parallel()
	running, waiting := uid("running"), uid("waiting")
	started, finish := make(chan struct{}), make(chan struct{})
	finished := make(chan struct{})
	q := &countingQueue{Memory: queue.NewMemory(4)}
	v := newVerifier(t)
	a := v.AsyncHandler(q, func(_ context.Context, ev *webhooks.Event) error {
		if ev.ID == running {
			close(started)
			<-finish // ignores the cancelled context, as slow work does
			close(finished)
		}
		return nil
	}, webhooks.WithWorkers(1), webhooks.WithShutdownGrace(10*time.Millisecond))
	for _, id := range []string{running, waiting} {
		if w := deliver(t, a, http.MethodPost, signed(id, webhooks.CaseFileCompleted, vecBody), vecBody); w.Code != 202 {
			t.Fatal(w.Code)
		}
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, webhooks.ErrHandedBack) {
		t.Fatalf("Shutdown error %v; want DeadlineExceeded and ErrHandedBack", err)
	}
	if len(left) != 1 || left[0].ID != waiting {
		ids := []string{}
		for _, ev := range left {
			ids = append(ids, ev.ID)
		}
		t.Fatalf("Shutdown handed back %v; want only the waiting event %s, not the running %s", ids, waiting, running)
	}
	if !strings.Contains(err.Error(), running) {
		t.Fatalf("Shutdown error %q does not name the running event %s", err, running)
	}
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	if w := deliver(t, h, http.MethodPost, signed(running, webhooks.CaseFileCompleted, vecBody), vecBody); w.Code != http.StatusConflict {
		t.Fatalf("redelivery of the running event: %d; want 409, a duplicate still in flight: its claim is kept", w.Code)
	}
	close(finish)
	<-finished
	waitFor(t, func() bool { return q.acks.Load() == 1 })
	// Acknowledged, so complete: a duplicate now.
	waitFor(t, func() bool {
		return deliver(t, h, http.MethodPost, signed(running, webhooks.CaseFileCompleted, vecBody), vecBody).Code == http.StatusOK
	})
}

// idempotentQueue is a memory queue that says its Enqueue is idempotent,
// and whose first Enqueue waits for release and then fails, as a store
// that answers late and badly would.
type idempotentQueue struct {
	*queue.Memory
	entered, release chan struct{}
	calls            atomic.Int32
	window           time.Duration // time.Hour when 0
}

func (q *idempotentQueue) IdempotencyWindow() time.Duration {
	if q.window == 0 {
		return time.Hour
	}
	return q.window
}

func (q *idempotentQueue) Enqueue(ctx context.Context, d queue.Delivery) error {
	if q.calls.Add(1) == 1 {
		close(q.entered)
		<-q.release
		return errors.New("store timed out")
	}
	return q.Memory.Enqueue(ctx, d)
}

// The platform gave up on a delivery whose enqueue hangs, and sent it
// again: the second delivery is a duplicate, but with an idempotent queue
// it is enqueued before its 2xx, so the event is stored although the first
// delivery's enqueue then fails. fn runs once. With a window at least the
// claim's ttl (10 minutes here) no id is claimed and the re-send is
// answered 202 like any delivery; with a shorter one it is claimed, found a
// duplicate, and answered 200.
func TestAsyncDuplicateIsStoredBeforeItsAnswer(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		window time.Duration
		code   int
	}{{time.Hour, http.StatusAccepted}, {time.Minute, http.StatusOK}} {
		t.Run(tt.window.String(), func(t *testing.T) {
			t.Parallel()
			q := &idempotentQueue{Memory: queue.NewMemory(4), entered: make(chan struct{}), release: make(chan struct{}),
				window: tt.window}
			var calls atomic.Int32
			a := newVerifier(t).AsyncHandler(q, func(context.Context, *webhooks.Event) error {
				calls.Add(1)
				return nil
			})
			first := make(chan int)
			go func() { first <- deliver(t, a, http.MethodPost, vecHeaders(), vecBody).Code }()
			<-q.entered
			if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != tt.code {
				t.Fatalf("re-sent delivery: %d; want %d once stored", w.Code, tt.code)
			}
			close(q.release)
			if code := <-first; code != http.StatusInternalServerError {
				t.Fatalf("first delivery: %d; want 500, its enqueue failed", code)
			}
			shutdown(t, a)
			if calls.Load() != 1 {
				t.Fatalf("fn ran %d times; want once: the 2xx promised the event was stored", calls.Load())
			}
		})
	}
}
