package queue_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// cycle hands out, acknowledges and enqueues one entry n times, from
// event number from on; the backlog stays as it is.
func cycle(t testing.TB, q *queue.Memory, from, n int) {
	ctx := context.Background()
	for i := range n {
		m, err := q.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Ack(ctx, m); err != nil {
			t.Fatal(err)
		}
		if err := q.Enqueue(ctx, d(strconv.Itoa(from+i))); err != nil {
			t.Fatal(err)
		}
	}
}

// Under a steady backlog of 1,000 events, 100,000 events pass through the
// queue: the waiting slice keeps a capacity of the order of the backlog,
// not of the events handled.
func TestMemoryStorageFollowsASteadyBacklog(t *testing.T) {
	t.Parallel()
	const backlog, handled = 1000, 100_000
	q := queue.NewMemory(backlog + 1)
	for i := range backlog {
		if err := q.Enqueue(context.Background(), d("b"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	cycle(t, q, 0, handled)
	if c := queue.WaitingCap(q); c > 8*backlog {
		t.Fatalf("waiting slice capacity %d after %d events under a backlog of %d; want at most %d",
			c, handled, backlog, 8*backlog)
	}
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return s.HeapAlloc
}

// A burst of 50,000 events drains to a backlog of 10, half acknowledged and
// half dead-lettered and discarded: the queue's memory falls back to about
// what a queue of 10 needs (not parallel, so that the heap measures this
// test alone).
func TestMemoryStorageShrinksAfterABurst(t *testing.T) {
	const burst, rest = 50_000, 10
	ctx := context.Background()
	before := heapInUse()
	q := queue.NewMemory(burst)
	for i := range burst {
		if err := q.Enqueue(ctx, queue.Delivery{ID: strconv.Itoa(i), Type: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	peak := heapInUse()
	for i := range burst - rest {
		m, err := q.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			err = q.Ack(ctx, m)
		} else if err = q.DeadLetter(ctx, m, "poison"); err == nil {
			err = q.Discard(ctx, m.Key)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	after := heapInUse()
	runtime.KeepAlive(q)
	held, kept := peak-before, int64(after)-int64(before)
	t.Logf("heap: %d bytes at the burst's peak, %d kept with %d waiting", held, kept, rest)
	if kept > int64(held/20) {
		t.Fatalf("the queue keeps %d bytes for %d waiting events, %d%% of its peak %d; want at most 5%%",
			kept, rest, 100*kept/int64(held), held)
	}
}

// BenchmarkMemorySteadyBacklog reports the heap a memory queue keeps per
// event handled under a steady backlog of 1,000 (retained-B/event; about
// 0 once its storage follows its backlog).
func BenchmarkMemorySteadyBacklog(b *testing.B) {
	q := queue.NewMemory(1001)
	for i := range 1000 {
		if err := q.Enqueue(context.Background(), d("b"+strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
	}
	before := heapInUse()
	b.ResetTimer()
	cycle(b, q, 0, b.N)
	b.StopTimer()
	after := heapInUse()
	runtime.KeepAlive(q)
	b.ReportMetric(float64(int64(after)-int64(before))/float64(b.N), "retained-B/event")
}
