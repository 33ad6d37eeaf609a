// Package dedup holds the contract of the store that remembers the ids of
// webhook events, so that a replayed or redelivered event is processed once,
// and a store in memory. webhooks.WithDedup takes a Store; a Verifier
// without it uses NewMemory(DefaultMaxEntries).
//
// A Store claims and releases ids (Store). The optional interfaces tell
// what else a store can do, and the receiver uses them when it finds them:
// Extender (keep a claim alive while an event is retried or taken over) and
// Completer (tell a finished event from one still being processed). Both
// stores of this module implement both: NewMemory, for one process, and
// webhooks/redisdedup, shared by receivers on several machines.
//
// Package webhooks/dedup/deduptest is the conformance suite a Store passes;
// run it against your own store to prove it.
package dedup

import (
	"context"
	"errors"
	"time"
)

// DefaultMaxEntries is the size of NewMemory's store when it is given
// none, and of the store a Verifier uses when webhooks.WithDedup is not
// given.
const DefaultMaxEntries = 100_000

// ErrInvalidClaim is returned by the stores of this module for an empty id or
// a ttl that is not positive.
var ErrInvalidClaim = errors.New("dedup: claim needs an id and a positive ttl")

// Store remembers the ids of events that are processed or being
// processed, so that a replayed or concurrently redelivered event is
// processed once. Implementations must be safe for concurrent use, and Claim
// must be atomic: of two concurrent claims of one id, exactly one succeeds.
type Store interface {
	// Claim records id until ttl passes; false when id is already claimed.
	Claim(ctx context.Context, id string, ttl time.Duration) (bool, error)
	// Release forgets a claim whose processing failed, so a redelivery is accepted.
	Release(ctx context.Context, id string) error
}

// Extender is implemented by the Stores whose claims can be kept alive, as
// both of this module's are. webhooks.AsyncHandler extends the claim on an
// event while it retries it and when it takes it over from another
// receiver, so that a redelivery is not processed meanwhile.
type Extender interface {
	// Extend makes the claim on id end ttl from now, claiming id anew when
	// its claim has ended or was released.
	Extend(ctx context.Context, id string, ttl time.Duration) error
}

// Completer is implemented by the Stores that tell a finished event from
// one still being processed, as both of this module's do.
// webhooks.Verifier's Handler marks an event's claim complete once its
// function has succeeded, and answers a duplicate 200 only when its claim
// is complete: a duplicate whose first delivery is still running is
// answered 409, so that the platform re-sends it, and a failure of that
// first run (which releases the claim) does not lose the event. With a
// store that is not a Completer, Handler answers every duplicate 200.
type Completer interface {
	// Complete marks the claim on id as finished for the rest of its ttl. It
	// does nothing when id is not claimed (its claim ended or was
	// released), and returns nil then. A completed claim is still released
	// by Release.
	Complete(ctx context.Context, id string) error
	// Completed reports whether id is claimed and its claim was marked
	// complete, by this store or by another that shares its claims.
	Completed(ctx context.Context, id string) (bool, error)
}
