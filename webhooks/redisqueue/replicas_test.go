package redisqueue_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// TestWithReplicasRefuses: New refuses settings that WAIT cannot honour,
// before it asks Redis anything, with an error that says why.
func TestWithReplicasRefuses(t *testing.T) {
	single := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ReadTimeout: time.Second})
	defer single.Close()
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": "127.0.0.1:1"}})
	defer ring.Close()
	for _, tc := range []struct {
		name    string
		client  redis.UniversalClient
		n       int
		timeout time.Duration
		want    string
	}{
		{"no replica", single, 0, 100 * time.Millisecond, "at least 1"},
		{"zero timeout (WAIT n 0 blocks for ever)", single, 1, 0, "at least 1ms"},
		{"timeout at the read timeout", single, 1, time.Second, "below the client's ReadTimeout"},
		{"ring", ring, 1, 100 * time.Millisecond, "Ring"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, err := redisqueue.New(context.Background(), tc.client, redisqueue.WithReplicas(tc.n, tc.timeout))
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "redisqueue: WithReplicas: ") {
				t.Fatalf("New: %v, %v; want an error saying %q", q, err, tc.want)
			}
		})
	}
}

// TestWithReplicasWaits: on a primary with one replica, every write is
// answered once the replica has it (the replica holds the entry and the
// record when Enqueue returns). With the replica stopped (SIGSTOP), WAIT
// times out: Enqueue returns ErrNotReplicated, AsyncHandler answers 500,
// Ack fails the same way; once the replica runs again, the platform's
// re-send is answered 202 and the event runs once.
func TestWithReplicasWaits(t *testing.T) {
	primary, replica := redistest.StartReplicated(t)
	ctx := context.Background()
	rdb := client(t, primary.Addr)
	onReplica := client(t, replica.Addr)
	q := newQueue(t, rdb, redisqueue.WithReplicas(1, 200*time.Millisecond), redisqueue.WithVisibilityTimeout(time.Second))

	if err := q.Enqueue(ctx, queue.Delivery{ID: "e1", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if n := onReplica.XLen(ctx, redisqueue.DefaultStream).Val(); n != 1 {
		t.Fatalf("the replica holds %d entries when Enqueue returns; want 1", n)
	}
	m := next(t, q)
	if err := q.Touch(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := q.Ack(ctx, m); err != nil {
		t.Fatal(err)
	}
	if n := onReplica.XLen(ctx, redisqueue.DefaultStream).Val(); n != 0 {
		t.Fatalf("the replica holds %d entries after Ack; want 0", n)
	}
	// A re-sent enqueue of a recorded id writes nothing of its own; it is
	// still answered only once the replica has everything before it.
	if err := q.Enqueue(ctx, queue.Delivery{ID: "e1", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}

	if err := q.Enqueue(ctx, queue.Delivery{ID: "e2", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	m2 := next(t, q)
	if err := replica.Pause(); err != nil {
		t.Fatal(err)
	}
	paused := true
	defer func() {
		if paused {
			_ = replica.Resume()
		}
	}()
	err := q.Enqueue(ctx, queue.Delivery{ID: "e3", Type: "t", Body: []byte("{}")})
	if !errors.Is(err, redisqueue.ErrNotReplicated) {
		t.Fatalf("Enqueue with the replica stopped: %v; want ErrNotReplicated", err)
	}
	// The re-send of a recorded id changes nothing; without a write of its
	// own the WAIT would count the stopped replica, which has everything
	// before, and answer at once.
	if err := q.Enqueue(ctx, queue.Delivery{ID: "e1", Type: "t", Body: []byte("{}")}); !errors.Is(err, redisqueue.ErrNotReplicated) {
		t.Fatalf("re-sent Enqueue with the replica stopped: %v; want ErrNotReplicated", err)
	}
	if err := q.Ack(ctx, m2); !errors.Is(err, redisqueue.ErrNotReplicated) {
		t.Fatalf("Ack with the replica stopped: %v; want ErrNotReplicated", err)
	}
	if err := q.Discard(ctx, "0-1"); !errors.Is(err, redisqueue.ErrNotReplicated) {
		t.Fatalf("Discard with the replica stopped: %v; want ErrNotReplicated", err)
	}

	// Over HTTP: 500 while the replica is stopped, 202 after.
	var mu sync.Mutex
	runs := map[string]int{}
	v, err := webhooks.NewVerifier(fleetSecret)
	if err != nil {
		t.Fatal(err)
	}
	h := v.AsyncHandler(q, func(_ context.Context, ev *webhooks.Event) error {
		mu.Lock()
		defer mu.Unlock()
		runs[ev.ID]++
		return nil
	}, webhooks.WithWorkers(1))
	defer func() { _, _ = h.Shutdown(ctx) }()
	id := fleetUUID(7)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, delivery(7, id))
	if w.Code != http.StatusInternalServerError {
		t.Fatalf("delivery with the replica stopped: %d; want 500", w.Code)
	}
	paused = false
	if err := replica.Resume(); err != nil {
		t.Fatal(err)
	}
	w = httptest.NewRecorder()
	h.ServeHTTP(w, delivery(7, id))
	if w.Code != http.StatusAccepted {
		t.Fatalf("re-send with the replica running: %d; want 202", w.Code)
	}
	waitFleet(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return runs[id] == 1
	})
	if _, err := h.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if runs[id] != 1 {
		t.Fatalf("event ran %d times; want 1", runs[id])
	}
}
