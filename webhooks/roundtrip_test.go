package webhooks_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/queue"
)

// claimCounter counts the claims made in a memory dedup.Store.
type claimCounter struct {
	dedup.Store
	claims atomic.Int32
}

func (c *claimCounter) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	c.claims.Add(1)
	return c.Store.Claim(ctx, id, ttl)
}

// windowQueue is a memory queue whose Enqueue remembers every id it took,
// and says so for window: idempotent, as a durable queue is.
type windowQueue struct {
	*queue.Memory
	window time.Duration
	mu     sync.Mutex
	seen   map[string]bool
}

func newWindowQueue(window time.Duration) *windowQueue {
	return &windowQueue{Memory: queue.NewMemory(4), window: window, seen: map[string]bool{}}
}

func (q *windowQueue) IdempotencyWindow() time.Duration { return q.window }

func (q *windowQueue) Enqueue(ctx context.Context, d queue.Delivery) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seen[d.ID] {
		return nil
	}
	if err := q.Memory.Enqueue(ctx, d); err != nil {
		return err
	}
	q.seen[d.ID] = true
	return nil
}

// AsyncHandler drops the claim only when its queue's Enqueue is the dedup:
// idempotent for at least the claim's ttl (twice the tolerance). A memory
// queue is not idempotent, nor is a queue remembering ids for less than the
// ttl: every delivery is claimed, and a duplicate answered 200.
func TestAsyncClaimsUnlessTheEnqueueIsTheDedup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		q      func() queue.Queue
		claims int32 // for two deliveries of one event
		dup    int   // the second delivery's answer
	}{
		{"memory queue", func() queue.Queue { return queue.NewMemory(4) }, 2, http.StatusOK},
		{"idempotent, window below the claim ttl", func() queue.Queue {
			return newWindowQueue(10*time.Minute - time.Second)
		}, 2, http.StatusOK},
		{"idempotent, window of the claim ttl", func() queue.Queue {
			return newWindowQueue(10 * time.Minute)
		}, 0, http.StatusAccepted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			store := &claimCounter{Store: dedup.NewMemory(0)}
			v := newVerifier(t, webhooks.WithDedup(store)) // tolerance 5 min: claim ttl 10 min
			var runs atomic.Int32
			a := v.AsyncHandler(tt.q(), func(context.Context, *webhooks.Event) error {
				runs.Add(1)
				return nil
			})
			if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != http.StatusAccepted {
				t.Fatalf("first delivery: %d", w.Code)
			}
			waitFor(t, func() bool { return runs.Load() == 1 })
			if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != tt.dup {
				t.Fatalf("re-send: %d, want %d", w.Code, tt.dup)
			}
			shutdown(t, a)
			if n := runs.Load(); n != 1 {
				t.Fatalf("fn ran %d times, want 1", n)
			}
			if n := store.claims.Load(); n != tt.claims {
				t.Fatalf("%d claims, want %d", n, tt.claims)
			}
		})
	}
}
