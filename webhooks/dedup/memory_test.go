package dedup_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/testkit/fakeclock"
	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/dedup/deduptest"
)

func newFakeClock() *fakeclock.Clock {
	return fakeclock.New(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
}

func TestMemoryConformance(t *testing.T) {
	t.Parallel()
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		c := newFakeClock()
		return deduptest.Subject{
			Store:   dedup.NewMemoryClock(1000, c.Now),
			Advance: c.Advance,
			TTL:     time.Minute,
		}
	})
}

func TestMemoryRealTime(t *testing.T) {
	t.Parallel()
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		return deduptest.Subject{Store: dedup.NewMemory(0), TTL: 50 * time.Millisecond}
	})
}

// A full store evicts expired claims first, then the oldest.
func TestMemoryBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newFakeClock()
	s := dedup.NewMemoryClock(3, c.Now)
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
	if n := dedup.MemoryLen(s); n != 3 {
		t.Fatalf("%d entries, want 3", n)
	}
	mustClaim("mid", time.Hour, false)
	mustClaim("old", time.Hour, true) // evicted, so claimable (evicts "mid")
	mustClaim("new1", time.Hour, false)
	mustClaim("new2", time.Hour, false)
}

// The store does not grow past its bound, whatever the traffic.
func TestMemoryManyIDs(t *testing.T) {
	t.Parallel()
	s := dedup.NewMemory(100)
	for i := range 10_000 {
		if ok, err := s.Claim(context.Background(), fmt.Sprint(i), time.Hour); !ok || err != nil {
			t.Fatal(i, ok, err)
		}
	}
	if n := dedup.MemoryLen(s); n != 100 {
		t.Fatalf("%d entries, want 100", n)
	}
}
