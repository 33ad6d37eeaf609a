package webhooks_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/fakeclock"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/internal/deduptest"
)

func newFakeClock() *fakeclock.Clock { return fakeclock.New(time.Unix(vecUnix, 0)) }

func TestMemoryDedupConformance(t *testing.T) {
	t.Parallel()
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		c := newFakeClock()
		return deduptest.Subject{
			Store:   webhooks.NewMemoryDedupClock(1000, c.Now),
			Advance: c.Advance,
			TTL:     time.Minute,
		}
	})
}

func TestMemoryDedupRealTime(t *testing.T) {
	t.Parallel()
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		return deduptest.Subject{Store: webhooks.NewMemoryDedup(0), TTL: 50 * time.Millisecond}
	})
}

// A full store evicts expired claims first, then the oldest.
func TestMemoryDedupBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newFakeClock()
	s := webhooks.NewMemoryDedupClock(3, c.Now)
	mustClaim := func(id string, ttl time.Duration, want bool) {
		t.Helper()
		ok, err := s.Claim(ctx, id, ttl)
		if err != nil || ok != want {
			t.Fatalf("Claim(%s) = %v, %v; want %v", id, ok, err, want)
		}
	}
	mustClaim("old", time.Hour, true)
	mustClaim("short", time.Second, true)
	mustClaim("mid", time.Hour, true)
	c.Advance(2 * time.Second) // "short" expires
	mustClaim("new1", time.Hour, true)
	mustClaim("old", time.Hour, false) // survived: the expired one went first
	mustClaim("new2", time.Hour, true) // full: evicts the oldest, "old"
	if n := webhooks.MemoryDedupLen(s); n != 3 {
		t.Fatalf("%d entries, want 3", n)
	}
	mustClaim("mid", time.Hour, false)
	mustClaim("old", time.Hour, true) // evicted, so claimable (evicts "mid")
	mustClaim("new1", time.Hour, false)
	mustClaim("new2", time.Hour, false)
}

// The store does not grow past its bound, whatever the traffic.
func TestMemoryDedupManyIDs(t *testing.T) {
	t.Parallel()
	s := webhooks.NewMemoryDedup(100)
	for i := range 10_000 {
		if ok, err := s.Claim(context.Background(), fmt.Sprint(i), time.Hour); !ok || err != nil {
			t.Fatal(i, ok, err)
		}
	}
	if n := webhooks.MemoryDedupLen(s); n != 100 {
		t.Fatalf("%d entries, want 100", n)
	}
}
