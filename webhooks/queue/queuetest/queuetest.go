// Package queuetest is the conformance suite of queue.Queue: the memory
// queue of package queue and webhooks/redisqueue pass it, and a queue of
// your own (on Postgres, say) proves with it that it keeps the contract
// webhooks.(*Verifier).AsyncHandler relies on. It needs nothing but the
// standard library:
//
//	func TestConformance(t *testing.T) {
//		db := startTestDatabase(t)
//		queuetest.Run(t, func(t *testing.T) queue.Queue {
//			q, err := pgqueue.New(db, pgqueue.WithTable(newTable(t, db)),
//				pgqueue.WithVisibilityTimeout(300*time.Millisecond))
//			if err != nil {
//				t.Fatal(err)
//			}
//			t.Cleanup(func() { q.Close() })
//			return q
//		})
//	}
//
// Every queue must, as the documentation of queue.Queue says:
//
//   - hand out what was enqueued, unchanged (id, type and body), with a
//     Key and a Deliveries count of 1 ("EnqueueNext");
//   - hand each entry to one caller, also to callers of Next running at
//     once ("EachEntryOnce");
//   - make Next wait until an entry comes or its ctx ends, returning an
//     error that matches ctx's then ("NextWaits");
//   - leave an entry handed out with its caller, not handing it out again,
//     and let the caller touch it ("EntryStaysWithCaller");
//   - remove an acknowledged entry, accept Ack again, and answer Touch and
//     DeadLetter of it with queue.ErrClaimLost ("AckRemoves");
//   - remove a dead-lettered entry from what Next hands out
//     ("DeadLetterRemoves");
//   - after Close, refuse Enqueue with queue.ErrClosed, return
//     queue.ErrClosed from Next, a Next waiting at Close included, and
//     accept the Ack of an entry handed out before ("Close"); a queue in
//     memory (queue.Volatile) first hands out what it holds, a durable one
//     returns queue.ErrClosed at once ("CloseWithEntries").
//
// A durable queue (one that is not queue.Volatile) must also record an
// acknowledged event as done: an entry of it enqueued again, while it was
// in hand or after, is not handed out ("AckedEventNotHandedOutAgain").
//
// The optional interfaces are tested when the queue implements them:
//
//   - queue.DeadLetterList: DeadLetters lists the dead letters oldest first,
//     with their delivery, reason, hand-out count and time, up to limit
//     (none for a limit below 1); Replay hands a dead letter out again and
//     Discard deletes it; both answer queue.ErrNotFound for a key that is
//     no dead letter, whatever its form ("DeadLetterList").
//   - queue.Leaser: an entry touched every TouchInterval stays with its
//     caller; one left untouched is handed out again, with Deliveries 2,
//     and its first hand-out's Touch and DeadLetter answer
//     queue.ErrClaimLost while its Ack is accepted ("Lease").
//   - queue.Idempotent: an id enqueued again, waiting, in hand, dead-lettered
//     or acknowledged, adds no entry ("IdempotentEnqueue").
//   - queue.Volatile: after Close, Unacked takes out the entries waiting and
//     in hand, once, leaving the dead letters and answering Touch and
//     DeadLetter of the entries it took with queue.ErrClaimLost ("Unacked").
//
// The subtests run in parallel, each on a queue of its own. The suite
// enqueues at most 100 deliveries into one queue. A check that nothing is
// handed out waits Quiet; a check that something is waits up to 10 s. For a
// queue.Leaser, the suite waits up to 30 TouchIntervals plus 10 s for an
// untouched entry to be handed out again: give the queue under test a short
// visibility timeout (a few hundred milliseconds), and an idempotency
// window of at least a minute.
package queuetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// Quiet is how long the suite waits for an entry that must not come.
const Quiet = 200 * time.Millisecond

// patience is how long the suite waits for an entry that must come, or for
// a Next that must return.
const patience = 10 * time.Second

// Run runs the suite as subtests of t. newQueue is called once per subtest,
// from within it, and returns a new, empty queue that shares nothing with
// the others; use t to clean up after it (the suite closes some queues, not
// all).
func Run(t *testing.T, newQueue func(t *testing.T) queue.Queue) {
	tests := []struct {
		name string
		fn   func(*testing.T, queue.Queue)
	}{
		{"EnqueueNext", testEnqueueNext},
		{"EachEntryOnce", testEachEntryOnce},
		{"NextWaits", testNextWaits},
		{"EntryStaysWithCaller", testEntryStays},
		{"AckRemoves", testAckRemoves},
		{"DeadLetterRemoves", testDeadLetterRemoves},
		{"Close", testClose},
		{"CloseWithEntries", testCloseWithEntries},
		{"AckedEventNotHandedOutAgain", testAckedEvent},
		{"DeadLetterList", testDeadLetterList},
		{"Lease", testLease},
		{"IdempotentEnqueue", testIdempotent},
		{"Unacked", testUnacked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			q := newQueue(t)
			if q == nil {
				t.Fatal("newQueue returned nil")
			}
			tt.fn(t, q)
		})
	}
}

// delivery is a delivery with id, a realistic type and a body that holds
// the id and characters a careless store could alter.
func delivery(id string) queue.Delivery {
	return queue.Delivery{
		ID:   id,
		Type: "sign.casefile.completed",
		Body: []byte(fmt.Sprintf("{\"id\":%q,\n \"title\":\"Lejeaftale – Ærø \\u00e9 \\\"quoted\\\"\"}", id)),
	}
}

func enqueue(t *testing.T, q queue.Queue, d queue.Delivery) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if err := q.Enqueue(ctx, d); err != nil {
		t.Fatalf("Enqueue(%s): %v", d.ID, err)
	}
}

// next returns the next entry, failing t when none comes within patience.
func next(t *testing.T, q queue.Queue) *queue.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	m, err := q.Next(ctx)
	switch {
	case err != nil:
		t.Fatalf("Next: %v", err)
	case m == nil:
		t.Fatal("Next returned no message and no error")
	}
	return m
}

// none fails t when Next hands out an entry within wait.
func none(t *testing.T, q queue.Queue, wait time.Duration, why string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if m, err := q.Next(ctx); err == nil || m != nil {
		t.Fatalf("%s: Next handed out %+v (error %v)", why, m, err)
	}
}

func ack(t *testing.T, q queue.Queue, m *queue.Message) {
	t.Helper()
	if err := q.Ack(context.Background(), m); err != nil {
		t.Fatalf("Ack(%s): %v", m.ID, err)
	}
}

func deadLetter(t *testing.T, q queue.Queue, m *queue.Message, reason string) {
	t.Helper()
	if err := q.DeadLetter(context.Background(), m, reason); err != nil {
		t.Fatalf("DeadLetter(%s): %v", m.ID, err)
	}
}

// wantLost fails t unless err matches queue.ErrClaimLost.
func wantLost(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, queue.ErrClaimLost) {
		t.Fatalf("%s: %v, want queue.ErrClaimLost", what, err)
	}
}

// sameDelivery fails t unless got carries want unchanged.
func sameDelivery(t *testing.T, got, want queue.Delivery) {
	t.Helper()
	if got.ID != want.ID || got.Type != want.Type || string(got.Body) != string(want.Body) {
		t.Fatalf("handed out %q %q %q, want %q %q %q", got.ID, got.Type, got.Body, want.ID, want.Type, want.Body)
	}
}

func testEnqueueNext(t *testing.T, q queue.Queue) {
	small := delivery("evt-small")
	big := delivery("evt-big")
	big.Body = []byte(`{"pad":"` + strings.Repeat("0123456789abcdef", 16<<10) + `"}`) // 256 KiB
	for _, d := range []queue.Delivery{small, big} {
		enqueue(t, q, d)
		m := next(t, q)
		sameDelivery(t, m.Delivery, d)
		if m.Key == "" || m.Deliveries != 1 {
			t.Fatalf("first hand-out of %s: Key %q, Deliveries %d; want a key and 1", d.ID, m.Key, m.Deliveries)
		}
		ack(t, q, m)
	}
}

func testEachEntryOnce(t *testing.T, q queue.Queue) {
	const n, workers = 60, 4
	for i := range n {
		enqueue(t, q, delivery(fmt.Sprintf("evt-%02d", i)))
	}
	var mu sync.Mutex
	got := map[string]int{}
	keys := map[string]bool{}
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				done := len(keys) >= n
				mu.Unlock()
				if done {
					return
				}
				m, err := q.Next(ctx)
				if err != nil {
					return
				}
				mu.Lock()
				got[m.ID]++
				if keys[m.Key] {
					t.Errorf("key %q handed out twice", m.Key)
				}
				keys[m.Key] = true
				all := len(keys) >= n
				mu.Unlock()
				if err := q.Ack(context.Background(), m); err != nil {
					t.Errorf("Ack(%s): %v", m.ID, err)
				}
				if all {
					cancel() // the others stop waiting
				}
			}
		})
	}
	wg.Wait()
	for i := range n {
		if id := fmt.Sprintf("evt-%02d", i); got[id] != 1 {
			t.Errorf("%s handed out %d times, want once", id, got[id])
		}
	}
	if len(got) != n {
		t.Errorf("%d ids handed out, want %d", len(got), n)
	}
	none(t, q, Quiet, "all acknowledged")
}

func testNextWaits(t *testing.T, q queue.Queue) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), Quiet)
	defer cancel()
	m, err := q.Next(ctx)
	if m != nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next on an empty queue: %+v, %v; want no message and context.DeadlineExceeded", m, err)
	}
	if waited := time.Since(start); waited < Quiet {
		t.Fatalf("Next returned after %v, before its ctx ended (%v)", waited, Quiet)
	}

	type result struct {
		m   *queue.Message
		err error
	}
	got := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		m, err := q.Next(ctx)
		got <- result{m, err}
	}()
	time.Sleep(50 * time.Millisecond) // Next is waiting
	d := delivery("evt-late")
	enqueue(t, q, d)
	r := <-got
	if r.err != nil {
		t.Fatalf("a waiting Next: %v", r.err)
	}
	sameDelivery(t, r.m.Delivery, d)
	ack(t, q, r.m)
}

func testEntryStays(t *testing.T, q queue.Queue) {
	enqueue(t, q, delivery("evt-held"))
	m := next(t, q)
	release := hold(t, q, m)
	none(t, q, Quiet, "an entry in hand")
	release()
	if err := q.Touch(context.Background(), m); err != nil {
		t.Fatalf("Touch of an entry in hand: %v", err)
	}
	ack(t, q, m)
}

// hold keeps m with its caller, as a caller must: it touches m every
// TouchInterval when q is a queue.Leaser, until release, which fails t when
// a touch failed.
func hold(t *testing.T, q queue.Queue, m *queue.Message) (release func()) {
	l, ok := q.(queue.Leaser)
	if !ok {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	var first error
	wg.Go(func() {
		tick := time.NewTicker(l.TouchInterval())
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if err := q.Touch(context.Background(), m); err != nil && first == nil {
				first = err
			}
		}
	})
	return func() {
		t.Helper()
		close(done)
		wg.Wait()
		if first != nil {
			t.Fatalf("Touch of an entry in hand: %v", first)
		}
	}
}

func testAckRemoves(t *testing.T, q queue.Queue) {
	enqueue(t, q, delivery("evt-ack"))
	m := next(t, q)
	ack(t, q, m)
	ack(t, q, m) // again, as after an error
	none(t, q, Quiet, "an acknowledged entry")
	wantLost(t, "Touch of an acknowledged entry", q.Touch(context.Background(), m))
	wantLost(t, "DeadLetter of an acknowledged entry", q.DeadLetter(context.Background(), m, "late"))
	wantDeadIDs(t, q, "an acknowledged entry was dead-lettered")
}

func testDeadLetterRemoves(t *testing.T, q queue.Queue) {
	enqueue(t, q, delivery("evt-dead"))
	m := next(t, q)
	deadLetter(t, q, m, "boom")
	none(t, q, Quiet, "a dead-lettered entry")
}

// testClose: a Next waiting at Close returns queue.ErrClosed, Enqueue is
// refused, and an entry handed out before is still acknowledged.
func testClose(t *testing.T, q queue.Queue) {
	enqueue(t, q, delivery("evt-before"))
	m := next(t, q)
	waiting := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		_, err := q.Next(ctx)
		waiting <- err
	}()
	time.Sleep(50 * time.Millisecond) // Next is waiting
	if err := q.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := <-waiting; !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("a Next waiting at Close: %v, want queue.ErrClosed", err)
	}
	if err := q.Enqueue(context.Background(), delivery("evt-after")); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Enqueue after Close: %v, want queue.ErrClosed", err)
	}
	ack(t, q, m)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if m, err := q.Next(ctx); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Next after Close: %+v, %v; want queue.ErrClosed", m, err)
	}
}

// testCloseWithEntries: after Close, a queue in memory (queue.Volatile)
// hands out what it holds and then returns queue.ErrClosed; a durable queue
// returns queue.ErrClosed at once, leaving its entries to other callers.
func testCloseWithEntries(t *testing.T, q queue.Queue) {
	want := []string{"evt-a", "evt-b"}
	for _, id := range want {
		enqueue(t, q, delivery(id))
	}
	if err := q.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	var got []string
	for {
		m, err := q.Next(ctx)
		if err != nil {
			if !errors.Is(err, queue.ErrClosed) {
				t.Fatalf("Next after Close: %v, want queue.ErrClosed once drained", err)
			}
			break
		}
		got = append(got, m.ID)
		ack(t, q, m)
		if len(got) > len(want) {
			t.Fatalf("Next after Close handed out %v, more than was enqueued", got)
		}
	}
	slices.Sort(got)
	if _, volatile := q.(queue.Volatile); volatile && !slices.Equal(got, want) {
		t.Fatalf("a queue in memory handed out %v after Close, want %v", got, want)
	} else if !volatile && len(got) != 0 {
		t.Fatalf("a durable queue handed out %v after Close, want queue.ErrClosed at once", got)
	}
}
