package webhooks_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
)

// leftIDs lists the ids of the events Shutdown handed back, sorted.
func leftIDs(left []*webhooks.Event) []string {
	out := []string{}
	for _, ev := range left {
		out = append(out, ev.ID)
	}
	slices.Sort(out)
	return out
}

// Shutdown gives up while 4 workers run fn on 4 of 6 events and fn honours
// its context: each run returns ctx.Err() within the grace, so all 6 events
// come back (none is named as running), the error says so, and the
// platform's redelivery of each is processed.
func TestShutdownHandsBackRunsThatHonourTheirContext(t *testing.T) {
	t.Parallel()
	v := newVerifier(t)
	started := make(chan string, 6)
	a := v.AsyncHandler(queue.NewMemory(8), func(ctx context.Context, ev *webhooks.Event) error {
		started <- ev.ID
		<-ctx.Done()
		return ctx.Err()
	}, webhooks.WithWorkers(4))
	hs := events(6)
	for _, h := range hs {
		if w := deliver(t, a, http.MethodPost, h, vecBody); w.Code != http.StatusAccepted {
			t.Fatal(w.Code)
		}
	}
	for range 4 {
		<-started
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	var se *webhooks.ShutdownError
	if errors.As(err, &se) {
		t.Fatalf("Shutdown named %v as running; their fn had returned ctx.Err() within the grace (handed back %d)", se.Running, len(left))
	}
	if len(left) != 6 || !errors.Is(err, webhooks.ErrHandedBack) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %d events, %v; want all 6 back, ErrHandedBack and DeadlineExceeded", len(left), err)
	}
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	for i, hd := range hs {
		if w := deliver(t, h, http.MethodPost, hd, vecBody); w.Code != http.StatusNoContent {
			t.Errorf("redelivery of event %d: %d; want 204, its claim released", i, w.Code)
		}
	}
}

// A run that succeeds after Shutdown cancelled its context, within the
// grace, is acknowledged: neither handed back nor named.
func TestShutdownAcknowledgesASuccessWithinTheGrace(t *testing.T) {
	t.Parallel()
	q := &countingQueue{Memory: queue.NewMemory(2)}
	started := make(chan struct{})
	a := newVerifier(t).AsyncHandler(q, func(ctx context.Context, _ *webhooks.Event) error {
		close(started)
		<-ctx.Done()
		return nil // finishes what it started
	})
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	if err != context.DeadlineExceeded || len(left) != 0 || q.acks.Load() != 1 {
		t.Fatalf("Shutdown = %d events, %v, acks %d; want none, ctx's error alone, 1 ack", len(left), err, q.acks.Load())
	}
}

// A run still under way when the grace ends is named; Shutdown returns
// about the grace after its ctx ended, not later.
func TestShutdownNamesRunsPastTheGrace(t *testing.T) {
	t.Parallel()
	started, finish := make(chan struct{}), make(chan struct{})
	defer close(finish)
	a := newVerifier(t).AsyncHandler(queue.NewMemory(2), func(context.Context, *webhooks.Event) error {
		close(started)
		<-finish // ignores its context
		return nil
	}, webhooks.WithShutdownGrace(40*time.Millisecond))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	left, err := a.Shutdown(ctx)
	took := time.Since(t0)
	var se *webhooks.ShutdownError
	if !errors.As(err, &se) || len(se.Running) != 1 || se.Running[0] != vecID || len(left) != 0 ||
		errors.Is(err, webhooks.ErrHandedBack) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %d events, %v; want the running event named, nothing handed back", len(left), err)
	}
	if took < 50*time.Millisecond || took > time.Second {
		t.Fatalf("Shutdown took %v; want its 10 ms and the 40 ms grace", took)
	}
}

// When the base context ends, the workers stop: the run under way returns
// (its fn honours the context), no further run starts, a new delivery is
// answered 503 and its id left unclaimed, and Shutdown hands back both
// accepted events with an error that says so.
func TestBaseContextEndRefusesAndKeeps(t *testing.T) {
	t.Parallel()
	base, stop := context.WithCancel(context.Background())
	v := newVerifier(t)
	started, returned := make(chan struct{}, 1), make(chan struct{}, 1)
	var calls atomic.Int32
	a := v.AsyncHandler(queue.NewMemory(8), func(ctx context.Context, _ *webhooks.Event) error {
		calls.Add(1)
		started <- struct{}{}
		<-ctx.Done()
		defer func() { returned <- struct{}{} }()
		return ctx.Err()
	}, webhooks.WithWorkers(1), webhooks.WithBaseContext(base), fast)
	first, second, late := uid("first"), uid("second"), uid("late")
	for _, id := range []string{first, second} {
		if w := deliver(t, a, http.MethodPost, signed(id, webhooks.CaseFileCompleted, vecBody), vecBody); w.Code != http.StatusAccepted {
			t.Fatal(w.Code)
		}
	}
	<-started
	stop() // the app's signal context, at SIGTERM
	<-returned
	lateH := signed(late, webhooks.CaseFileCompleted, vecBody)
	if w := deliver(t, a, http.MethodPost, lateH, vecBody); w.Code != http.StatusServiceUnavailable {
		t.Errorf("delivery after the base context ended: %d; want 503, so that the platform re-sends it", w.Code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	left, err := a.Shutdown(ctx)
	if got := leftIDs(left); !slices.Equal(got, leftIDs([]*webhooks.Event{{ID: first}, {ID: second}})) {
		t.Errorf("Shutdown handed back %v; want %s and %s", got, first, second)
	}
	if !errors.Is(err, webhooks.ErrHandedBack) || !errors.Is(err, context.Canceled) {
		t.Errorf("Shutdown error %v; want ErrHandedBack and the base context's Canceled", err)
	}
	if calls.Load() != 1 {
		t.Errorf("fn ran %d times; want once: no run starts after the base context ended", calls.Load())
	}
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	if w := deliver(t, h, http.MethodPost, lateH, vecBody); w.Code != http.StatusNoContent {
		t.Errorf("re-send of the refused delivery: %d; want 204", w.Code)
	}
}

// blockingQueue is a memory queue whose Touch, once armed, pauses after
// checking the hand-out, and whose DeadLetter pauses before acting: each
// says it entered and waits for resume.
type blockingQueue struct {
	*queue.Memory
	touchArmed, deadArmed atomic.Bool
	entered, resume       chan struct{}
}

func newBlockingQueue() *blockingQueue {
	return &blockingQueue{Memory: queue.NewMemory(4), entered: make(chan struct{}), resume: make(chan struct{})}
}

func (q *blockingQueue) Touch(ctx context.Context, m *queue.Message) error {
	err := q.Memory.Touch(ctx, m)
	if q.touchArmed.CompareAndSwap(true, false) {
		close(q.entered)
		<-q.resume
	}
	return err
}

func (q *blockingQueue) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	if q.deadArmed.CompareAndSwap(true, false) {
		close(q.entered)
		<-q.resume
	}
	return q.Memory.DeadLetter(ctx, m, reason)
}

// A worker checks its hand-out before a retry, and Shutdown hands the event
// back (releasing its claim) before the worker goes on: the worker does not
// claim the id again, so the event's re-send is processed.
func TestShutdownHandBackIsNotReclaimed(t *testing.T) {
	t.Parallel()
	q := newBlockingQueue()
	q.touchArmed.Store(true)
	v := newVerifier(t)
	var calls atomic.Int32
	a := v.AsyncHandler(q, func(context.Context, *webhooks.Event) error {
		if calls.Add(1) == 1 {
			return errors.New("transient")
		}
		return nil
	}, fast)
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	<-q.entered // between the touch and the retry
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	left, err := a.Shutdown(gone)
	if len(left) != 1 || left[0].ID != vecID {
		t.Fatalf("Shutdown = %v, %v; want the waiting event back", leftIDs(left), err)
	}
	close(q.resume)
	if left, err := a.Shutdown(context.Background()); len(left) != 0 || err != nil { // waits for the worker
		t.Fatalf("second Shutdown = %v, %v", leftIDs(left), err)
	}
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	if w := deliver(t, h, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusNoContent {
		t.Fatalf("re-send of the handed-back event: %d; want 204: the worker claimed its id again", w.Code)
	}
	if calls.Load() != 1 {
		t.Fatalf("fn ran %d times after the hand-back", calls.Load()-1)
	}
	if !errors.Is(err, webhooks.ErrHandedBack) || !errors.Is(err, context.Canceled) {
		t.Fatalf("first Shutdown's error %v; want ErrHandedBack and Canceled", err)
	}
}

// The last attempt fails and its dead letter is under way when Shutdown
// gives up: the memory queue hands nothing back for it (it was running), so
// when the dead letter then finds the entry gone, the event is lost, and
// the log says so at error level, not as a take-over by another receiver.
func TestLateDeadLetterIsLoggedAsLost(t *testing.T) {
	t.Parallel()
	log := &lockedBuilder{}
	v := newVerifier(t, webhooks.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	q := newBlockingQueue()
	q.deadArmed.Store(true)
	a := v.AsyncHandler(q, func(context.Context, *webhooks.Event) error {
		return errors.New("poison")
	}, webhooks.WithMaxAttempts(1), webhooks.WithShutdownGrace(10*time.Millisecond))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	<-q.entered
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	var se *webhooks.ShutdownError
	if !errors.As(err, &se) || len(left) != 0 {
		t.Fatalf("Shutdown = %v, %v; want the event named as running", leftIDs(left), err)
	}
	close(q.resume)
	waitFor(t, func() bool { return strings.Contains(log.String(), "not dead-lettered") })
	out := log.String()
	if strings.Contains(out, "took it over") || !strings.Contains(out, "level=ERROR msg=\"webhooks: event not dead-lettered") ||
		!strings.Contains(out, "it is lost") {
		t.Fatalf("log %q; want the lost event at error level", out)
	}
}

// leasingQueue is a memory queue whose hand-outs are leases touched every
// 5 ms; fail makes every touch fail (Redis unreachable), lateDead makes a
// dead letter's reply arrive 30 ms after it took effect, and lostTouches
// counts the touches answered ErrClaimLost.
type leasingQueue struct {
	*queue.Memory
	fail, lateDead bool
	lostTouches    atomic.Int32
	deadLetters    atomic.Int32
}

func (q *leasingQueue) TouchInterval() time.Duration { return 5 * time.Millisecond }

func (q *leasingQueue) Touch(ctx context.Context, m *queue.Message) error {
	if q.fail {
		return errors.New("redis unreachable")
	}
	err := q.Memory.Touch(ctx, m)
	if errors.Is(err, queue.ErrClaimLost) {
		q.lostTouches.Add(1)
	}
	return err
}

func (q *leasingQueue) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	err := q.Memory.DeadLetter(ctx, m, reason)
	if q.lateDead {
		time.Sleep(30 * time.Millisecond)
	}
	q.deadLetters.Add(1)
	return err
}

// Every touch fails while fn fails and waits to retry longer than the
// lease (3 touch intervals): once the lease has run out without a
// successful touch, no further run of fn starts, and the event is not
// dead-lettered here (another receiver may hold it).
func TestNoRunAfterTheLeaseRanOut(t *testing.T) {
	t.Parallel()
	q := &leasingQueue{Memory: queue.NewMemory(2), fail: true}
	var calls atomic.Int32
	a := newVerifier(t).AsyncHandler(q, func(context.Context, *webhooks.Event) error {
		calls.Add(1)
		return errors.New("transient")
	}, webhooks.WithBackoff(60*time.Millisecond, 60*time.Millisecond), webhooks.WithMaxAttempts(3))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	left, err := a.Shutdown(ctx) // waits for the worker
	if calls.Load() != 1 || q.deadLetters.Load() != 0 {
		t.Fatalf("fn ran %d times, %d dead letters; want 1 run and none: the lease had run out", calls.Load(), q.deadLetters.Load())
	}
	if len(left) != 1 || !errors.Is(err, webhooks.ErrHandedBack) {
		t.Fatalf("Shutdown = %v, %v; want the event back from the memory queue", leftIDs(left), err)
	}
}

// The heartbeat is paused while an entry is dead-lettered: a touch between
// the dead letter taking effect and its reply would find the entry gone and
// report a lost claim that is not one.
func TestNoTouchDuringADeadLetter(t *testing.T) {
	t.Parallel()
	log := &lockedBuilder{}
	q := &leasingQueue{Memory: queue.NewMemory(2), lateDead: true}
	a := newVerifier(t, webhooks.WithLogger(slog.New(slog.NewTextHandler(log, nil)))).AsyncHandler(q,
		func(context.Context, *webhooks.Event) error { return errors.New("poison") }, webhooks.WithMaxAttempts(1))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
		t.Fatal(w.Code)
	}
	shutdown(t, a)
	if q.deadLetters.Load() != 1 || q.lostTouches.Load() != 0 || strings.Contains(log.String(), "claim on an event lost") {
		t.Fatalf("%d dead letters, %d touches answered claim lost; want 1 and 0; log %q",
			q.deadLetters.Load(), q.lostTouches.Load(), log.String())
	}
}
