package deduptest_test

import (
	"context"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/dedup/deduptest"
	"github.com/signkit/signkit-go/webhooks/internal/mutants"
)

// full is what the memory store implements.
type full interface {
	dedup.Store
	dedup.Extender
	dedup.Completer
}

// Each mutant is the memory store with one promise broken; the key is the
// subtest of the suite that must catch it.
var mutantsByName = map[string]func(full) dedup.Store{
	"ClaimOnce":                 func(s full) dedup.Store { return claimsAlways{s} },
	"ReleaseThenReclaim":        func(s full) dedup.Store { return releaseKeeps{s} },
	"Expiry":                    func(s full) dedup.Store { return neverExpires{s} },
	"ConcurrentClaimsOneWinner": func(full) dedup.Store { return &racy{claims: map[string]bool{}} },
	"InvalidClaim":              func(s full) dedup.Store { return acceptsEmpty{s} },
	"Extend":                    func(s full) dedup.Store { return extendKeeps{s} },
	"Complete":                  func(s full) dedup.Store { return completeForgets{s} },
}

// TestMutant runs the suite on the mutant that mutants.Running names; it is
// run, in a process of its own, by TestSuiteCatchesBrokenStores.
func TestMutant(t *testing.T) {
	name := mutants.Running()
	if name == "" {
		t.Skip("run by TestSuiteCatchesBrokenStores")
	}
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		s := dedup.NewMemory(1000).(full)
		return deduptest.Subject{Store: mutantsByName[name](s), TTL: 50 * time.Millisecond}
	})
}

// The suite is honest: for each mutant, the subtest that checks the promise
// it breaks fails.
func TestSuiteCatchesBrokenStores(t *testing.T) {
	mutants.ExpectCaught(t, "TestMutant", "a store", slices.Sorted(maps.Keys(mutantsByName)))
}

type claimsAlways struct{ full }

func (s claimsAlways) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	_, err := s.full.Claim(ctx, id, ttl)
	return err == nil, err
}

type releaseKeeps struct{ full }

func (releaseKeeps) Release(context.Context, string) error { return nil }

type neverExpires struct{ full }

func (s neverExpires) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	return s.full.Claim(ctx, id, 1000*ttl)
}

// racy checks and records a claim in two steps.
type racy struct {
	mu     sync.Mutex
	claims map[string]bool
}

func (r *racy) Claim(_ context.Context, id string, _ time.Duration) (bool, error) {
	r.mu.Lock()
	taken := r.claims[id]
	r.mu.Unlock()
	if taken {
		return false, nil
	}
	time.Sleep(time.Millisecond)
	r.mu.Lock()
	r.claims[id] = true
	r.mu.Unlock()
	return true, nil
}

func (r *racy) Release(_ context.Context, id string) error {
	r.mu.Lock()
	delete(r.claims, id)
	r.mu.Unlock()
	return nil
}

type acceptsEmpty struct{ full }

func (s acceptsEmpty) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if id == "" {
		return true, nil
	}
	return s.full.Claim(ctx, id, ttl)
}

type extendKeeps struct{ full }

func (extendKeeps) Extend(context.Context, string, time.Duration) error { return nil }

type completeForgets struct{ full }

func (completeForgets) Complete(context.Context, string) error { return nil }
