package queuetest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

func deadLetters(t *testing.T, dl queue.DeadLetterList, limit int) []queue.DeadLetter {
	t.Helper()
	dead, err := dl.DeadLetters(context.Background(), limit)
	if err != nil {
		t.Fatalf("DeadLetters(%d): %v", limit, err)
	}
	return dead
}

func deadIDs(dead []queue.DeadLetter) []string {
	ids := []string{}
	for _, d := range dead {
		ids = append(ids, d.ID)
	}
	return ids
}

// wantDeadIDs fails t, saying when, unless the dead letters of q are the
// deliveries of want, oldest first; it checks nothing when q is not a
// queue.DeadLetterList.
func wantDeadIDs(t *testing.T, q queue.Queue, when string, want ...string) {
	t.Helper()
	dl, ok := q.(queue.DeadLetterList)
	if !ok {
		return
	}
	if got := deadIDs(deadLetters(t, dl, 10)); !slices.Equal(got, want) {
		t.Fatalf("%s: DeadLetters = %v, want %v", when, got, want)
	}
}

// testAckedEvent, for a durable queue: an acknowledged event is recorded
// done, so that an entry of it enqueued while it was in hand, or after, is
// not handed out.
func testAckedEvent(t *testing.T, q queue.Queue) {
	if _, volatile := q.(queue.Volatile); volatile {
		t.Skipf("%T keeps its entries in memory (queue.Volatile): no record of done events", q)
	}
	enqueue(t, q, delivery("evt-done"))
	m := next(t, q)
	enqueue(t, q, delivery("evt-done")) // re-sent while in hand
	ack(t, q, m)
	none(t, q, Quiet, "an event enqueued again while in hand, then acknowledged")
	enqueue(t, q, delivery("evt-done")) // re-sent after the ack
	none(t, q, Quiet, "an event enqueued again after its ack")
}

func testDeadLetterList(t *testing.T, q queue.Queue) {
	dl, ok := q.(queue.DeadLetterList)
	if !ok {
		t.Skipf("%T is not a queue.DeadLetterList", q)
	}
	ctx := context.Background()
	if dead := deadLetters(t, dl, 10); len(dead) != 0 {
		t.Fatalf("a new queue lists dead letters: %+v", dead)
	}
	before := time.Now()
	ids := []string{"evt-p1", "evt-p2", "evt-p3"}
	for _, id := range ids {
		enqueue(t, q, delivery(id))
		deadLetter(t, q, next(t, q), "boom "+id)
	}
	after := time.Now()
	dead := deadLetters(t, dl, 10)
	if got := deadIDs(dead); !slices.Equal(got, ids) {
		t.Fatalf("DeadLetters = %v, want %v, oldest first", got, ids)
	}
	keys := map[string]bool{}
	for i, d := range dead {
		sameDelivery(t, d.Delivery, delivery(ids[i]))
		if d.Reason != "boom "+ids[i] || d.Deliveries != 1 || d.Key == "" || keys[d.Key] {
			t.Fatalf("dead letter %+v: want reason %q, Deliveries 1 and a key of its own", d, "boom "+ids[i])
		}
		keys[d.Key] = true
		if d.Time.Before(before.Add(-time.Second)) || d.Time.After(after.Add(time.Second)) {
			t.Fatalf("dead letter %s dated %v, not between %v and %v", d.ID, d.Time, before, after)
		}
	}
	if got := deadIDs(deadLetters(t, dl, 2)); !slices.Equal(got, ids[:2]) {
		t.Fatalf("DeadLetters(2) = %v, want %v", got, ids[:2])
	}
	for _, limit := range []int{0, -1} {
		if got := deadLetters(t, dl, limit); len(got) != 0 {
			t.Fatalf("DeadLetters(%d) = %v, want none", limit, deadIDs(got))
		}
	}

	// Replay hands the dead letter out again; it leaves the list.
	if err := dl.Replay(ctx, dead[0].Key); err != nil {
		t.Fatalf("Replay: %v", err)
	}
	m := next(t, q)
	sameDelivery(t, m.Delivery, delivery(ids[0]))
	ack(t, q, m)
	if got := deadIDs(deadLetters(t, dl, 10)); !slices.Equal(got, ids[1:]) {
		t.Fatalf("after Replay DeadLetters = %v, want %v", got, ids[1:])
	}
	// Discard deletes it; it is not handed out.
	if err := dl.Discard(ctx, dead[1].Key); err != nil {
		t.Fatalf("Discard: %v", err)
	}
	if got := deadIDs(deadLetters(t, dl, 10)); !slices.Equal(got, ids[2:]) {
		t.Fatalf("after Discard DeadLetters = %v, want %v", got, ids[2:])
	}
	none(t, q, Quiet, "a discarded dead letter")

	// A key that is no dead letter (any more, or ever) is ErrNotFound.
	for _, key := range []string{dead[0].Key, dead[1].Key, "no-such-key", "", "0-1", "999999999"} {
		for name, op := range map[string]func(context.Context, string) error{"Replay": dl.Replay, "Discard": dl.Discard} {
			if err := op(ctx, key); !errors.Is(err, queue.ErrNotFound) {
				t.Fatalf("%s(%q): %v, want queue.ErrNotFound", name, key, err)
			}
		}
	}
	if got := deadIDs(deadLetters(t, dl, 10)); !slices.Equal(got, ids[2:]) {
		t.Fatalf("after the refused calls DeadLetters = %v, want %v", got, ids[2:])
	}
}

func testLease(t *testing.T, q queue.Queue) {
	l, ok := q.(queue.Leaser)
	if !ok {
		t.Skipf("%T is not a queue.Leaser", q)
	}
	every := l.TouchInterval()
	if every <= 0 {
		t.Fatalf("TouchInterval = %v, want a positive interval", every)
	}
	ctx := context.Background()
	enqueue(t, q, delivery("evt-lease"))
	m := next(t, q)

	// Touched, it stays with its caller, past the visibility timeout.
	release := hold(t, q, m)
	none(t, q, max(4*every, Quiet), "an entry touched every TouchInterval")
	release()

	// Untouched, it is handed out again.
	wait, cancel := context.WithTimeout(ctx, 30*every+patience)
	defer cancel()
	again, err := q.Next(wait)
	if err != nil {
		t.Fatalf("an untouched entry was not handed out again: %v", err)
	}
	sameDelivery(t, again.Delivery, m.Delivery)
	if again.Deliveries != 2 {
		t.Fatalf("taken over with Deliveries %d, want 2", again.Deliveries)
	}
	wantLost(t, "Touch of the first hand-out", q.Touch(ctx, m))
	wantLost(t, "DeadLetter of the first hand-out", q.DeadLetter(ctx, m, "late"))
	wantDeadIDs(t, q, "the first hand-out dead-lettered a lost entry")
	if err := q.Touch(ctx, again); err != nil {
		t.Fatalf("Touch of the new hand-out: %v", err)
	}
	ack(t, q, m) // the first caller processed it all the same
	ack(t, q, again)
	none(t, q, Quiet, "an acknowledged entry")
}

func testIdempotent(t *testing.T, q queue.Queue) {
	iq, ok := q.(queue.Idempotent)
	if !ok {
		t.Skipf("%T is not a queue.Idempotent", q)
	}
	if w := iq.IdempotencyWindow(); w <= 0 {
		t.Fatalf("IdempotencyWindow = %v, want a positive window", w)
	}
	enqueue(t, q, delivery("evt-1"))
	enqueue(t, q, delivery("evt-1")) // waiting
	m := next(t, q)
	release := hold(t, q, m)
	none(t, q, Quiet, "an id enqueued twice while waiting")
	enqueue(t, q, delivery("evt-1")) // in hand
	release()
	deadLetter(t, q, m, "boom")
	enqueue(t, q, delivery("evt-1")) // dead-lettered
	none(t, q, Quiet, "an id enqueued again while in hand and dead-lettered")
	wantDeadIDs(t, q, "an id dead-lettered once", "evt-1")
	enqueue(t, q, delivery("evt-2"))
	ack(t, q, next(t, q))
	enqueue(t, q, delivery("evt-2")) // acknowledged
	none(t, q, Quiet, "an id enqueued again after its ack")
}

func testUnacked(t *testing.T, q queue.Queue) {
	vq, ok := q.(queue.Volatile)
	if !ok {
		t.Skipf("%T is not a queue.Volatile", q)
	}
	ctx := context.Background()
	enqueue(t, q, delivery("evt-dead"))
	deadLetter(t, q, next(t, q), "boom")
	for _, id := range []string{"evt-a", "evt-b", "evt-c"} {
		enqueue(t, q, delivery(id))
	}
	held, acked := next(t, q), next(t, q)
	ack(t, q, acked)
	if err := q.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	var got []string
	for _, d := range vq.Unacked() {
		got = append(got, d.ID)
	}
	slices.Sort(got)
	want := []string{"evt-a", "evt-b", "evt-c"}
	want = slices.DeleteFunc(want, func(id string) bool { return id == acked.ID })
	if !slices.Equal(got, want) {
		t.Fatalf("Unacked = %v, want %v (waiting and in hand)", got, want)
	}
	if again := vq.Unacked(); len(again) != 0 {
		t.Fatalf("second Unacked = %v, want none", again)
	}
	wantLost(t, "Touch of an entry Unacked took out", q.Touch(ctx, held))
	wantLost(t, "DeadLetter of an entry Unacked took out", q.DeadLetter(ctx, held, "late"))
	wantDeadIDs(t, q, "after Unacked, the dead letter kept", "evt-dead")
	if m, err := q.Next(ctx); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Next after Unacked: %+v, %v; want queue.ErrClosed", m, err)
	}
}
