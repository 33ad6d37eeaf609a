package redisqueue_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// countingStore counts the calls a Verifier makes to its dedup.Store.
type countingStore struct {
	s                                    *redisdedup.Store
	claims, releases, extends, completes atomic.Int32
}

func (c *countingStore) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	c.claims.Add(1)
	return c.s.Claim(ctx, id, ttl)
}

func (c *countingStore) Release(ctx context.Context, id string) error {
	c.releases.Add(1)
	return c.s.Release(ctx, id)
}

func (c *countingStore) Extend(ctx context.Context, id string, ttl time.Duration) error {
	c.extends.Add(1)
	return c.s.Extend(ctx, id, ttl)
}

func (c *countingStore) Complete(ctx context.Context, id string) error {
	c.completes.Add(1)
	return c.s.Complete(ctx, id)
}

func (c *countingStore) Completed(ctx context.Context, id string) (bool, error) {
	return c.s.Completed(ctx, id)
}

func (c *countingStore) calls() int32 {
	return c.claims.Load() + c.releases.Load() + c.extends.Load() + c.completes.Load()
}

// With the Redis queue, whose enqueue is idempotent for 31 hours (more than
// the claim's 10 minutes), AsyncHandler makes no claim: one round trip per
// delivery. Re-sends, concurrent with the first delivery and after its
// event was processed, are answered 2xx, enqueued once, and fn runs once.
// With a window shorter than the claim's ttl, every delivery is claimed as
// before. Verify claims either way.
func TestEnqueueIsTheDedup(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	tests := []struct {
		name   string
		window time.Duration
		claims int32 // by the handler, for 3 deliveries of one event
	}{
		{"window 31h", redisqueue.DefaultIdempotencyWindow, 0},
		{"window 1m", time.Minute, 3},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rdb := client(t, addr)
			tag := fmt.Sprintf("roundtrip-%d-%d", time.Now().UnixNano(), i)
			store := &countingStore{s: redisdedup.New(rdb, redisdedup.WithPrefix(tag+":claim:"))}
			v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(store))
			if err != nil {
				t.Fatal(err)
			}
			q := newQueue(t, rdb, redisqueue.WithStreams("{"+tag+"}:events", "{"+tag+"}:dead"),
				redisqueue.WithIdempotencyWindow(tt.window))
			var runs atomic.Int32
			h := v.AsyncHandler(q, func(context.Context, *webhooks.Event) error {
				runs.Add(1)
				return nil
			}, webhooks.WithWorkers(1))
			id := fleetUUID(7)
			var wg sync.WaitGroup
			for range 2 { // the first delivery and a re-send, at once
				wg.Go(func() {
					if code := serve(h, delivery(7, id)); code/100 != 2 {
						t.Errorf("delivery answered %d, want 2xx", code)
					}
				})
			}
			wg.Wait()
			waitUntil(t, func() bool { return runs.Load() == 1 && q.Stats().EnqueuesSkipped+q.Stats().DuplicatesSkipped >= 1 })
			if code := serve(h, delivery(7, id)); code/100 != 2 { // after it was processed
				t.Fatalf("re-send after processing answered %d, want 2xx", code)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if left, err := h.Shutdown(ctx); err != nil || left != nil {
				t.Fatalf("Shutdown: %v, %v", left, err)
			}
			if n := runs.Load(); n != 1 {
				t.Fatalf("fn ran %d times, want 1", n)
			}
			if n := rdb.XLen(context.Background(), "{"+tag+"}:events").Val(); n != 0 {
				t.Fatalf("%d entries left in the stream", n)
			}
			if tt.claims == 0 {
				if st := q.Stats(); st.EnqueuesSkipped != 2 {
					t.Fatalf("EnqueuesSkipped = %d, want 2: the two re-sends added nothing", st.EnqueuesSkipped)
				}
				if n := store.calls(); n != 0 {
					t.Fatalf("%d calls to the dedup.Store (claims %d), want none", n, store.claims.Load())
				}
			} else if n := store.claims.Load(); n != tt.claims {
				t.Fatalf("%d claims, want %d", n, tt.claims)
			}
			before := store.claims.Load()
			r := delivery(8, fleetUUID(8))
			body, _ := io.ReadAll(r.Body)
			if _, err := v.Verify(context.Background(), r.Header, body); err != nil {
				t.Fatal(err)
			}
			if store.claims.Load() != before+1 {
				t.Fatal("Verify made no claim")
			}
		})
	}
}

func serve(h http.Handler, r *http.Request) int {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
