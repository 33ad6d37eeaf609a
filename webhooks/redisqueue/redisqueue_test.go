package redisqueue_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

func client(t testing.TB, addr string) *redis.Client {
	t.Helper()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func newQueue(t *testing.T, rdb *redis.Client, opts ...redisqueue.Option) *redisqueue.Queue {
	t.Helper()
	opts = append([]redisqueue.Option{redisqueue.WithBlock(20 * time.Millisecond)}, opts...)
	q, err := redisqueue.New(context.Background(), rdb, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func next(t *testing.T, q queue.Queue) *queue.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	m, err := q.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return m
}

func TestNewRefusesBadOptions(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	for name, opts := range map[string][]redisqueue.Option{
		"same streams":    {redisqueue.WithStreams("s", "s")},
		"empty group":     {redisqueue.WithGroup("")},
		"zero visibility": {redisqueue.WithVisibilityTimeout(0)},
	} {
		if _, err := redisqueue.New(context.Background(), rdb, opts...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A second queue on the same stream and group joins the group.
	newQueue(t, rdb)
	newQueue(t, rdb)
}

func TestEnqueueNextAck(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	q := newQueue(t, rdb)
	d := queue.Delivery{ID: "0b9f0c1e-8c1a-4a53-9f3a-2f1f6f1b7e11", Type: "sign.casefile.completed", Body: []byte(`{"a":"\u00e9"}`)}
	if err := q.Enqueue(ctx, d); err != nil {
		t.Fatal(err)
	}
	m := next(t, q)
	if m.ID != d.ID || m.Type != d.Type || string(m.Body) != string(d.Body) || m.Deliveries != 1 || m.Key == "" {
		t.Fatalf("message %+v", m)
	}
	if err := q.Touch(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := q.Ack(ctx, m); err != nil {
		t.Fatal(err)
	}
	if n := rdb.XLen(ctx, redisqueue.DefaultStream).Val(); n != 0 {
		t.Fatalf("stream holds %d entries after the ack", n)
	}
	if err := q.Touch(ctx, m); err == nil {
		t.Fatal("Touch of an acknowledged entry succeeded")
	}
}

// An entry left idle past the visibility timeout by one consumer is taken
// over by another, with its delivery count.
func TestTakeOver(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	vis := redisqueue.WithVisibilityTimeout(200 * time.Millisecond)
	a := newQueue(t, rdb, vis, redisqueue.WithConsumer("a"))
	b := newQueue(t, rdb, vis, redisqueue.WithConsumer("b"))
	if err := a.Enqueue(ctx, queue.Delivery{ID: "x", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	m := next(t, a) // a "crashes" holding it
	start := time.Now()
	taken := next(t, b)
	if taken.Key != m.Key || taken.Deliveries != 2 {
		t.Fatalf("taken over %+v, want key %s delivered twice", taken, m.Key)
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("taken over after %v, before the visibility timeout", d)
	}
	// A touched entry is not taken over.
	time.Sleep(120 * time.Millisecond)
	if err := b.Touch(ctx, taken); err != nil {
		t.Fatal(err)
	}
	time.Sleep(120 * time.Millisecond)
	short, cancel := context.WithTimeout(ctx, 60*time.Millisecond)
	defer cancel()
	if m, err := a.Next(short); err == nil {
		t.Fatalf("a took over a touched entry: %+v", m)
	}
}

func TestDeadLetterReplayDiscard(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	q := newQueue(t, rdb)
	for _, id := range []string{"p1", "p2"} {
		if err := q.Enqueue(ctx, queue.Delivery{ID: id, Type: "t", Body: []byte(`{"id":"` + id + `"}`)}); err != nil {
			t.Fatal(err)
		}
		if err := q.DeadLetter(ctx, next(t, q), "boom "+id); err != nil {
			t.Fatal(err)
		}
	}
	dead, err := q.DeadLetters(ctx, 10)
	if err != nil || len(dead) != 2 {
		t.Fatalf("DeadLetters = %v, %v", dead, err)
	}
	if d := dead[0]; d.ID != "p1" || d.Reason != "boom p1" || d.Deliveries != 1 || string(d.Body) != `{"id":"p1"}` ||
		time.Since(d.Time) > time.Minute {
		t.Fatalf("dead letter %+v", d)
	}
	if n := rdb.XLen(ctx, redisqueue.DefaultStream).Val(); n != 0 {
		t.Fatalf("stream holds %d entries after dead-lettering", n)
	}
	if err := q.Replay(ctx, dead[0].Key); err != nil {
		t.Fatal(err)
	}
	if m := next(t, q); m.ID != "p1" || string(m.Body) != `{"id":"p1"}` || m.Deliveries != 1 {
		t.Fatalf("replayed %+v", m)
	}
	if err := q.Replay(ctx, dead[0].Key); !errors.Is(err, queue.ErrNotFound) {
		t.Fatalf("second replay: %v", err)
	}
	if err := q.Discard(ctx, dead[1].Key); err != nil {
		t.Fatal(err)
	}
	if err := q.Discard(ctx, dead[1].Key); !errors.Is(err, queue.ErrNotFound) {
		t.Fatalf("second discard: %v", err)
	}
	if dead, _ := q.DeadLetters(ctx, 10); len(dead) != 0 {
		t.Fatalf("dead letters left: %v", dead)
	}
}

// Close ends a blocked Next within the block time and refuses Enqueue.
func TestClose(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	q := newQueue(t, rdb, redisqueue.WithBlock(200*time.Millisecond))
	errc := make(chan error, 1)
	go func() {
		_, err := q.Next(ctx)
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	if err := q.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-errc; !errors.Is(err, queue.ErrClosed) || time.Since(start) > time.Second {
		t.Fatalf("Next after Close: %v after %v", err, time.Since(start))
	}
	if err := q.Enqueue(ctx, queue.Delivery{ID: "x"}); !errors.Is(err, queue.ErrClosed) {
		t.Fatalf("Enqueue after Close: %v", err)
	}
}
