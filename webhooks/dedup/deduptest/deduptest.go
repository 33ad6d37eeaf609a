// Package deduptest is the conformance suite of dedup.Store: the memory
// store of package dedup and webhooks/redisdedup pass it, and a store of
// your own (on Postgres, say) proves with it that it keeps the contract the
// webhooks receiver relies on. It needs nothing but the standard library:
//
//	func TestConformance(t *testing.T) {
//		db := startTestDatabase(t)
//		deduptest.Run(t, func(t *testing.T) deduptest.Subject {
//			table := newTable(t, db) // each subtest gets empty storage
//			return deduptest.Subject{
//				Store: pgdedup.New(db, table),
//				Peer:  pgdedup.New(db, table), // a second receiver on the same claims
//			}
//		})
//	}
//
// To pass, a store must:
//
//   - Claim an id once: the first Claim reports true, every later Claim of
//     that id false until the claim ends, whatever other ids are claimed
//     meanwhile ("ClaimOnce"); of concurrent claims of one id, through the
//     Store and its Peer alike, exactly one reports true
//     ("ConcurrentClaimsOneWinner").
//   - Release a claim so that the id can be claimed again; releasing an id
//     that is not claimed, or releasing twice, is no error
//     ("ReleaseThenReclaim").
//   - End a claim when its ttl has passed, and not before ("Expiry").
//   - Refuse an empty id and a ttl that is not positive with an error that
//     matches dedup.ErrInvalidClaim, claiming nothing ("InvalidClaim").
//   - With a Peer (a second Store on the same shared claims): see the
//     Store's claims, and release them, as a queue worker on another
//     machine releases for the receiver that verified ("Peer").
//   - When it is a dedup.Extender: make an extended claim outlive its first
//     ttl; claim an id that is not claimed (never, or released) on Extend;
//     refuse an empty id and a zero ttl with dedup.ErrInvalidClaim; and,
//     with a Peer, keep a claim that the Peer took over with Extend when
//     the Store that first claimed it releases late, while the Peer's own
//     Release frees it ("Extend").
//   - When it is a dedup.Completer: report a claim complete only once it
//     was marked so, and to its Peer too; keep a completed claim claimed
//     for its ttl; forget the completion with the claim (on Release and
//     expiry, a new claim starts in flight); and do nothing on Complete of
//     an id that is not claimed ("Complete").
//
// The subtests run in parallel, each on a Subject of its own; the
// Extend and Complete subtests are skipped for a store that does not
// implement the interface, and Peer for a Subject without a Peer. With
// real time (no Advance), a subtest sleeps at most about twice TTL.
package deduptest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/dedup"
)

// Subject is one store under test.
type Subject struct {
	// Store is the store under test; it holds no claim when handed over,
	// and it is not shared with another Subject.
	Store dedup.Store
	// Peer, when not nil, shares Store's claims as a second receiver would
	// (for example another client of the same Redis). A store without a peer
	// serves one process; the Peer subtest is skipped for it.
	Peer dedup.Store
	// Advance makes d pass for Store and Peer, with a fake clock; nil means
	// real time (the suite sleeps).
	Advance func(d time.Duration)
	// TTL is the short ttl of the expiry tests (default 200ms). With real
	// time, give it a margin over the store's clock resolution and the
	// round trip to its backend.
	TTL time.Duration
}

// ttl answers sub.TTL or its default.
func (sub Subject) ttl() time.Duration {
	if sub.TTL > 0 {
		return sub.TTL
	}
	return 200 * time.Millisecond
}

// wait makes d pass for the store.
func (sub Subject) wait(d time.Duration) {
	if sub.Advance != nil {
		sub.Advance(d)
		return
	}
	time.Sleep(d)
}

// Run runs the suite as subtests of t. newStore is called once per
// subtest, from within it, and returns a new store, with no claim, as a
// Subject; use t to clean up after it.
func Run(t *testing.T, newStore func(t *testing.T) Subject) {
	tests := []struct {
		name string
		fn   func(*testing.T, Subject)
	}{
		{"ClaimOnce", testClaimOnce},
		{"ReleaseThenReclaim", testRelease},
		{"Expiry", testExpiry},
		{"ConcurrentClaimsOneWinner", testConcurrent},
		{"InvalidClaim", testInvalid},
		{"Peer", testPeer},
		{"Extend", testExtend},
		{"Complete", testComplete},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sub := newStore(t)
			if sub.Store == nil {
				t.Fatal("newStore returned a Subject without a Store")
			}
			tt.fn(t, sub)
		})
	}
}

func claim(t *testing.T, s dedup.Store, id string, ttl time.Duration) bool {
	t.Helper()
	ok, err := s.Claim(context.Background(), id, ttl)
	if err != nil {
		t.Fatalf("Claim(%q): %v", id, err)
	}
	return ok
}

func release(t *testing.T, s dedup.Store, id string) {
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
	ttl, wait := sub.ttl(), sub.wait
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
	stores := []dedup.Store{sub.Store}
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
	if _, err := sub.Store.Claim(ctx, "", time.Minute); !errors.Is(err, dedup.ErrInvalidClaim) {
		t.Fatalf("empty id: %v", err)
	}
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, err := sub.Store.Claim(ctx, "evt-x", ttl); !errors.Is(err, dedup.ErrInvalidClaim) {
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
	if sub.Peer == nil {
		t.Skip("the Subject has no Peer")
	}
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

// testExtend, for a dedup.Extender: an extended claim outlives its first ttl; extending an id that is not
// claimed (never, or released) claims it; a peer that takes an event over
// extends and then releases the claim.
func testExtend(t *testing.T, sub Subject) {
	ctx := context.Background()
	x, ok := sub.Store.(dedup.Extender)
	if !ok {
		t.Skipf("%T is not a dedup.Extender", sub.Store)
	}
	extend := func(x dedup.Extender, id string, ttl time.Duration) {
		t.Helper()
		if err := x.Extend(ctx, id, ttl); err != nil {
			t.Fatalf("Extend(%q): %v", id, err)
		}
	}
	ttl, wait := sub.ttl(), sub.wait
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
	if err := x.Extend(ctx, "", time.Minute); !errors.Is(err, dedup.ErrInvalidClaim) {
		t.Fatalf("empty id: %v", err)
	}
	if err := x.Extend(ctx, "evt-y", 0); !errors.Is(err, dedup.ErrInvalidClaim) {
		t.Fatalf("zero ttl: %v", err)
	}
	if sub.Peer == nil {
		return
	}
	px, ok := sub.Peer.(dedup.Extender)
	if !ok {
		t.Fatalf("peer %T is not a dedup.Extender", sub.Peer)
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
