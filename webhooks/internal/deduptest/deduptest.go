// Package deduptest is the conformance suite that every webhooks.DedupStore
// of this module passes: the memory store and the Redis store run the same
// tests.
package deduptest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// Subject is one store under test.
type Subject struct {
	// Store is empty when handed over.
	Store webhooks.DedupStore
	// Advance makes d pass for Store, with a fake clock; nil means real time
	// (the suite sleeps).
	Advance func(d time.Duration)
	// Peer, when not nil, shares Store's claims as a second receiver would
	// (for example another client of the same Redis). A store without a peer
	// serves one process, and the Peer test is not run for it.
	Peer webhooks.DedupStore
	// TTL is the short ttl of the expiry test (default 200ms).
	TTL time.Duration
}

// Run runs the suite; newSubject is called once per subtest, and once first
// with t to learn whether the store has a Peer: the Peer test runs only for
// stores that have one.
func Run(t *testing.T, newSubject func(t *testing.T) Subject) {
	type test struct {
		name string
		fn   func(*testing.T, Subject)
	}
	tests := []test{
		{"ClaimOnce", testClaimOnce},
		{"ReleaseThenReclaim", testRelease},
		{"Expiry", testExpiry},
		{"ConcurrentClaimsOneWinner", testConcurrent},
		{"InvalidClaim", testInvalid},
		{"Extend", testExtend},
		{"Complete", testComplete},
	}
	if newSubject(t).Peer != nil {
		tests = append(tests, test{"Peer", testPeer})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, newSubject(t))
		})
	}
}

func claim(t *testing.T, s webhooks.DedupStore, id string, ttl time.Duration) bool {
	t.Helper()
	ok, err := s.Claim(context.Background(), id, ttl)
	if err != nil {
		t.Fatalf("Claim(%q): %v", id, err)
	}
	return ok
}

func release(t *testing.T, s webhooks.DedupStore, id string) {
	t.Helper()
	if err := s.Release(context.Background(), id); err != nil {
		t.Fatalf("Release(%q): %v", id, err)
	}
}

func testClaimOnce(t *testing.T, sub Subject) {
	s := sub.Store
	if !claim(t, s, "evt-1", time.Minute) {
		t.Fatal("first claim refused")
	}
	if claim(t, s, "evt-1", time.Minute) {
		t.Fatal("second claim of one id accepted")
	}
	for i := range 50 {
		if !claim(t, s, fmt.Sprintf("evt-other-%d", i), time.Minute) {
			t.Fatalf("claim of new id %d refused", i)
		}
	}
	if claim(t, s, "evt-1", time.Minute) {
		t.Fatal("claim accepted after other claims")
	}
}

func testRelease(t *testing.T, sub Subject) {
	s := sub.Store
	release(t, s, "never-claimed") // not an error
	if !claim(t, s, "evt-r", time.Minute) {
		t.Fatal("first claim refused")
	}
	release(t, s, "evt-r")
	if !claim(t, s, "evt-r", time.Minute) {
		t.Fatal("claim after release refused")
	}
	if claim(t, s, "evt-r", time.Minute) {
		t.Fatal("claim after re-claim accepted")
	}
	release(t, s, "evt-r")
	release(t, s, "evt-r") // twice is fine
}

func testExpiry(t *testing.T, sub Subject) {
	s := sub.Store
	ttl := sub.TTL
	if ttl == 0 {
		ttl = 200 * time.Millisecond
	}
	wait := sub.Advance
	if wait == nil {
		wait = time.Sleep
	}
	if !claim(t, s, "evt-ttl", ttl) || !claim(t, s, "evt-long", time.Hour) {
		t.Fatal("first claims refused")
	}
	if claim(t, s, "evt-ttl", ttl) {
		t.Fatal("claim accepted before the ttl passed")
	}
	wait(ttl + ttl/2 + 10*time.Millisecond)
	if !claim(t, s, "evt-ttl", ttl) {
		t.Fatal("claim refused after the ttl passed")
	}
	if claim(t, s, "evt-long", time.Hour) {
		t.Fatal("claim with a long ttl expired early")
	}
}

func testConcurrent(t *testing.T, sub Subject) {
	stores := []webhooks.DedupStore{sub.Store}
	if sub.Peer != nil {
		stores = append(stores, sub.Peer)
	}
	const ids, racers = 20, 16
	for i := range ids {
		id := fmt.Sprintf("evt-race-%d", i)
		var wins atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for r := range racers {
			wg.Go(func() {
				<-start
				ok, err := stores[r%len(stores)].Claim(context.Background(), id, time.Minute)
				if err != nil {
					t.Error(err)
				}
				if ok {
					wins.Add(1)
				}
			})
		}
		close(start)
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("%s: %d winners of %d concurrent claims, want exactly 1", id, n, racers)
		}
	}
}

func testInvalid(t *testing.T, sub Subject) {
	ctx := context.Background()
	if _, err := sub.Store.Claim(ctx, "", time.Minute); !errors.Is(err, webhooks.ErrInvalidClaim) {
		t.Fatalf("empty id: %v", err)
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, err := sub.Store.Claim(ctx, "evt-x", ttl); !errors.Is(err, webhooks.ErrInvalidClaim) {
			t.Fatalf("ttl %v: %v", ttl, err)
		}
	}
	if !claim(t, sub.Store, "evt-x", time.Minute) {
		t.Fatal("an invalid claim left a claim behind")
	}
}

// testPeer: two receivers that share one backend see each other's claims,
// and one releases a claim that the other made (for example a queue worker
// on another machine releasing for the receiver that verified): the release
// must take effect, or the redelivery is refused and the event is lost.
func testPeer(t *testing.T, sub Subject) {
	a, b := sub.Store, sub.Peer
	if !claim(t, a, "evt-p", time.Minute) {
		t.Fatal("first claim refused")
	}
	if claim(t, b, "evt-p", time.Minute) {
		t.Fatal("peer claimed an id that is claimed")
	}
	release(t, b, "evt-p") // the peer's handler failed
	if !claim(t, a, "evt-p", time.Minute) {
		t.Fatal("claim refused after the peer released")
	}
}

// testExtend: every store of this module is a webhooks.Extender. An
// extended claim outlives its first ttl; extending an id that is not
// claimed (never, or released) claims it; a peer that takes an event over
// extends and then releases the claim.
func testExtend(t *testing.T, sub Subject) {
	ctx := context.Background()
	x, ok := sub.Store.(webhooks.Extender)
	if !ok {
		t.Fatalf("%T is not a webhooks.Extender", sub.Store)
	}
	extend := func(x webhooks.Extender, id string, ttl time.Duration) {
		t.Helper()
		if err := x.Extend(ctx, id, ttl); err != nil {
			t.Fatalf("Extend(%q): %v", id, err)
		}
	}
	ttl := sub.TTL
	if ttl == 0 {
		ttl = 200 * time.Millisecond
	}
	wait := sub.Advance
	if wait == nil {
		wait = time.Sleep
	}
	if !claim(t, sub.Store, "evt-ext", ttl) {
		t.Fatal("first claim refused")
	}
	wait(ttl / 2)
	extend(x, "evt-ext", 3*ttl)
	wait(ttl)
	if claim(t, sub.Store, "evt-ext", ttl) {
		t.Fatal("an extended claim ended at its first ttl")
	}
	extend(x, "evt-unclaimed", time.Minute)
	if claim(t, sub.Store, "evt-unclaimed", time.Minute) {
		t.Fatal("Extend of an unclaimed id did not claim it")
	}
	if !claim(t, sub.Store, "evt-rel", time.Minute) {
		t.Fatal("claim refused")
	}
	release(t, sub.Store, "evt-rel")
	extend(x, "evt-rel", time.Minute)
	if claim(t, sub.Store, "evt-rel", time.Minute) {
		t.Fatal("Extend of a released id did not claim it")
	}
	if err := x.Extend(ctx, "", time.Minute); !errors.Is(err, webhooks.ErrInvalidClaim) {
		t.Fatalf("empty id: %v", err)
	}
	if err := x.Extend(ctx, "evt-y", 0); !errors.Is(err, webhooks.ErrInvalidClaim) {
		t.Fatalf("zero ttl: %v", err)
	}
	if sub.Peer == nil {
		return
	}
	px, ok := sub.Peer.(webhooks.Extender)
	if !ok {
		t.Fatalf("peer %T is not a webhooks.Extender", sub.Peer)
	}
	if !claim(t, sub.Store, "evt-take", time.Minute) {
		t.Fatal("claim refused")
	}
	extend(px, "evt-take", time.Minute) // the peer takes the event over
	release(t, sub.Store, "evt-take")   // the first claimant's late release
	if claim(t, sub.Store, "evt-take", time.Minute) {
		t.Fatal("the first claimant's late release freed the peer's claim")
	}
	release(t, sub.Peer, "evt-take") // the peer dead-letters it
	if !claim(t, sub.Store, "evt-take", time.Minute) {
		t.Fatal("the peer's release did not free its claim")
	}
}
