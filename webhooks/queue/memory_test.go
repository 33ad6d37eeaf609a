package queue_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

func d(id string) queue.Delivery { return queue.Delivery{ID: id, Type: "t", Body: []byte(`{}`)} }

func next(t *testing.T, q queue.Queue) *queue.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	m, err := q.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return m
}

func ids(ds []queue.Delivery) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, d.ID)
	}
	slices.Sort(out)
	return out
}

func TestMemoryFIFOAndCapacity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := queue.NewMemory(3)
	for _, id := range []string{"a", "b", "c"} {
		if err := q.Enqueue(ctx, d(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Enqueue(ctx, d("x")); !errors.Is(err, queue.ErrFull) {
		t.Fatalf("over capacity: %v", err)
	}
	a := next(t, q)
	if a.ID != "a" || a.Deliveries != 1 {
		t.Fatalf("first %+v", a)
	}
	// An entry in hand still counts; an acknowledged one does not.
	if err := q.Enqueue(ctx, d("x")); !errors.Is(err, queue.ErrFull) {
		t.Fatalf("in hand counts: %v", err)
	}
	if err := q.Ack(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, d("d")); err != nil {
		t.Fatal(err)
	}
	// A dead letter counts too, until it is discarded.
	b := next(t, q)
	if err := q.DeadLetter(ctx, b, "boom"); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, d("x")); !errors.Is(err, queue.ErrFull) {
		t.Fatalf("dead letter counts: %v", err)
	}
	if got := []string{next(t, q).ID, next(t, q).ID}; !slices.Equal(got, []string{"c", "d"}) {
		t.Fatalf("order %v", got)
	}
}

func TestMemoryNextWaits(t *testing.T) {
	t.Parallel()
	q := queue.NewMemory(1)
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := q.Next(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next on empty: %v", err)
	}
	got := make(chan string)
	go func() {
		m, err := q.Next(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- m.ID
	}()
	time.Sleep(10 * time.Millisecond)
	if err := q.Enqueue(context.Background(), d("late")); err != nil {
		t.Fatal(err)
	}
	if id := <-got; id != "late" {
		t.Fatalf("woke with %q", id)
	}
}

// After Close, Next hands out what is left, then ErrClosed; Unacked takes
// out what was neither acknowledged nor dead-lettered.
func TestMemoryCloseAndUnacked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := queue.NewMemory(10)
	for _, id := range []string{"a", "b", "c", "dead"} {
		if err := q.Enqueue(ctx, d(id)); err != nil {
			t.Fatal(err)
		}
	}
	a := next(t, q)
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, d("x")); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Enqueue after Close: %v", err)
	}
	b := next(t, q) // still handed out: the queue drains
	if err := q.Ack(ctx, b); err != nil {
		t.Fatal(err)
	}
	c := next(t, q)
	if err := q.DeadLetter(ctx, next(t, q), "boom"); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Next(ctx); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Next when drained: %v", err)
	}
	_ = c
	if got := ids(q.Unacked()); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("Unacked = %v, want a and c", got)
	}
	if got := q.Unacked(); len(got) != 0 {
		t.Fatalf("second Unacked = %v", got)
	}
	// A late ack of a returned entry does nothing; a late dead letter
	// reports the claim lost and does nothing.
	if err := q.Ack(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := q.DeadLetter(ctx, c, "late"); !errors.Is(err, queue.ErrClaimLost) {
		t.Fatalf("late dead letter: %v, want ErrClaimLost", err)
	}
	if err := q.Touch(ctx, c); !errors.Is(err, queue.ErrClaimLost) {
		t.Fatalf("late touch: %v, want ErrClaimLost", err)
	}
	if dead, _ := q.DeadLetters(ctx, 10); len(dead) != 1 || dead[0].ID != "dead" {
		t.Fatalf("dead letters %+v", dead)
	}
}

func TestMemoryDeadLetters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := queue.NewMemory(10)
	for _, id := range []string{"p1", "p2", "p3"} {
		if err := q.Enqueue(ctx, d(id)); err != nil {
			t.Fatal(err)
		}
		if err := q.DeadLetter(ctx, next(t, q), "boom "+id); err != nil {
			t.Fatal(err)
		}
	}
	dead, err := q.DeadLetters(ctx, 2)
	if err != nil || len(dead) != 2 || dead[0].ID != "p1" || dead[0].Reason != "boom p1" || dead[0].Deliveries != 1 ||
		time.Since(dead[0].Time) > time.Minute {
		t.Fatalf("DeadLetters(2) = %+v, %v", dead, err)
	}
	if err := q.Replay(ctx, dead[0].Key); err != nil {
		t.Fatal(err)
	}
	if m := next(t, q); m.ID != "p1" || m.Deliveries != 1 {
		t.Fatalf("replayed %+v", m)
	}
	for _, op := range []func(context.Context, string) error{q.Replay, q.Discard} {
		if err := op(ctx, dead[0].Key); !errors.Is(err, queue.ErrNotFound) {
			t.Fatalf("on a missing key: %v", err)
		}
	}
	if err := q.Discard(ctx, dead[1].Key); err != nil {
		t.Fatal(err)
	}
	if dead, _ := q.DeadLetters(ctx, 10); len(dead) != 1 || dead[0].ID != "p3" {
		t.Fatalf("left %+v", dead)
	}
	if dead, _ := q.DeadLetters(ctx, -1); len(dead) != 0 {
		t.Fatalf("negative limit: %+v", dead)
	}
}

// Enqueue is idempotent while the queue holds the id (waiting, in hand or
// dead-lettered): a re-sent delivery adds nothing and is not refused. Once
// acknowledged or discarded, the id may come again.
func TestMemoryEnqueueIdempotent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	q := queue.NewMemory(2)
	for range 3 { // the third would be over capacity if it counted
		if err := q.Enqueue(ctx, d("a")); err != nil {
			t.Fatal(err)
		}
	}
	m := next(t, q)
	if err := q.Enqueue(ctx, d("a")); err != nil { // in hand
		t.Fatal(err)
	}
	if err := q.DeadLetter(ctx, m, "boom"); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, d("a")); err != nil { // dead-lettered
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if m, err := q.Next(short); err == nil {
		t.Fatalf("a re-sent id was added again: %+v", m)
	}
	dead, _ := q.DeadLetters(ctx, 10)
	if err := q.Discard(ctx, dead[0].Key); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, d("a")); err != nil {
		t.Fatal(err)
	}
	m = next(t, q)
	if err := q.Ack(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, d("a")); err != nil {
		t.Fatal(err)
	}
	if m := next(t, q); m.ID != "a" {
		t.Fatalf("after the ack, the id came back as %+v", m)
	}
}
