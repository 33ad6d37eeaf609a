// Package redisdedup is a dedup.Store on Redis, for receivers that run
// on several machines: a claim made by one receiver is seen by all of them,
// so a redelivery that reaches another machine is still processed once.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	v, err := webhooks.NewVerifier(secret, webhooks.WithDedup(redisdedup.New(rdb)))
//
// A claim is one key, set with SET NX PX (atomic, expiring with the claim's
// ttl) to a random token that only the claiming Store knows. The Store keeps
// a record of each claim it made: the id, the token, when the claim expires
// and whether it was released.
//
// How Release deletes depends on that record:
//
//   - A Store releasing its own live claim runs a compare-and-delete: a Lua
//     script deletes the key only while it still holds the claim's token.
//     So a release that arrives late, after the key expired and another
//     receiver claimed the id again, leaves that new claim alone instead of
//     letting a further redelivery through (processing the event twice).
//   - A Store releasing a claim of its own that is already released, or
//     expired by its clock, does nothing: the key, if any, is someone
//     else's claim. A second Release is therefore harmless.
//   - A Store with no record of the id (it never claimed it, its claim was
//     refused, or it claimed it so long ago that the record is forgotten)
//     deletes the key with a plain DEL. This is how one receiver releases
//     for another, for example a queue worker on another machine releasing
//     for the receiver that verified the delivery: a redelivery of an event
//     whose processing failed must be accepted, or the event is lost. Such
//     a release cannot tell the original claim from a newer one on the same
//     id, so release through the Store (the Verifier) that claimed whenever
//     possible. Conversely, a Store whose own claim on an id is released or
//     expired but not yet forgotten does not delete a newer claim of another
//     receiver on that id: release that one through its claimant or another
//     Store.
//
// A record is kept for twice its claim's ttl (until the claim expires, then
// as long again), so that a late or repeated Release from the claiming Store
// still finds it. Memory is therefore one small record per claim made in the
// last two ttls (for a Verifier, four times its tolerance); records are
// dropped in claim order as new claims come, at O(1) amortized cost per
// claim.
//
// Release takes only an id, so what it cannot tell apart stays a limit:
// when one Store claims an id again after its first claim expired (the first
// delivery's processing outlived the claim and a redelivery came), a late
// Release for the first claim frees the second; and a Release from the
// claiming Store more than twice the ttl after its claim is a plain DEL.
// Both need processing that outlives the claim (for a Verifier, twice its
// tolerance); keep processing well within it.
//
// The Store is also a dedup.Completer: Complete sets the key of its own
// live claim to "done:" and the claim's token, keeping the ttl, so that a
// Handler answers a redelivery 200 only once the event is finished
// (complete.go).
//
// On a replicated Redis (Cluster or Sentinel) a failover loses the claims
// and releases its replica had not received; WithReplicas answers each
// write only once n replicas have it (WAIT).
package redisdedup

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/rediswait"
	"github.com/signkit/signkit-go/webhooks/dedup"
)

// DefaultPrefix starts the key of every claim unless WithPrefix says
// otherwise.
const DefaultPrefix = "signkit:webhooks:event:"

// releaseSrc deletes KEYS[1] only if its value is ARGV[1], the token of the
// claim being released; it returns the number of keys deleted.
const releaseSrc = `if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`

// Store is a dedup.Store on Redis. It is safe for concurrent use.
type Store struct {
	client  redis.UniversalClient
	prefix  string
	release *redis.Script
	done    *redis.Script // completeSrc (complete.go)
	now     func() time.Time
	// replicas, wait and bad: WithReplicas' settings, the writer that
	// follows each write with WAIT, and why the settings were refused.
	replicas replicas
	wait     *rediswait.Writer
	bad      error

	mu     sync.Mutex
	claims map[string]*record // the newest record of each id, live or released
	queue  []*record          // every record, oldest claim first, from head on
	head   int
}

// record is a claim made by this Store. A record is superseded when this
// Store claims its id again; it is forgotten at forgetAt.
type record struct {
	id       string
	token    string
	expires  time.Time // the claim's end, by this Store's clock
	forgetAt time.Time // expires + ttl
	released bool      // Release deleted the claim, or found it gone
}

var (
	_ dedup.Store    = (*Store)(nil)
	_ dedup.Extender = (*Store)(nil)
)

// Option configures a Store.
type Option func(*Store)

// WithPrefix sets the prefix of the claim keys (default DefaultPrefix), for
// example to keep the claims of several subscriptions or applications apart
// on one Redis. Receivers that must see each other's claims use the same
// prefix.
func WithPrefix(p string) Option {
	return func(s *Store) { s.prefix = p }
}

// withClock sets the clock that dates the local record of the claims (tests).
func withClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// New returns a Store that keeps its claims through client, which may be a
// single-node, sentinel (failover) or cluster client. The caller keeps
// ownership of client and closes it.
func New(client redis.UniversalClient, opts ...Option) *Store {
	s := &Store{
		client:  client,
		prefix:  DefaultPrefix,
		release: redis.NewScript(releaseSrc),
		done:    redis.NewScript(completeSrc),
		now:     time.Now,
		claims:  make(map[string]*record),
	}
	for _, o := range opts {
		o(s)
	}
	s.setupReplicas()
	return s
}

// Claim records id for ttl (rounded up to whole milliseconds) with SET NX PX
// and reports false when id is already claimed, by this Store or another.
// The key's value is a random token; on success the Store records the claim
// (see Release) for twice ttl. When the client retries a SET whose reply was
// lost, the retry finds the key the first attempt set: Claim recognises its
// token and reports the claim, rather than a duplicate nobody processes.
func (s *Store) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if s.bad != nil {
		return false, s.bad
	}
	if id == "" || ttl <= 0 {
		return false, fmt.Errorf("%w: id %q, ttl %v", dedup.ErrInvalidClaim, id, ttl)
	}
	ttl = (ttl + time.Millisecond - 1).Truncate(time.Millisecond)
	token := rand.Text()
	start := s.now() // before SET: the local expiry is never later than the key's
	key := s.prefix + id
	err := s.do(ctx, key, "SET", key, token, "PX", ttl.Milliseconds(), "NX").Err()
	if errors.Is(err, redis.Nil) {
		err = s.ownRetry(ctx, id, token)
	}
	switch {
	case err == nil:
		expires := start.Add(ttl)
		s.remember(&record{id: id, token: token, expires: expires, forgetAt: expires.Add(ttl)}, start)
		return true, nil
	case errors.Is(err, redis.Nil):
		return false, nil
	}
	return false, fmt.Errorf("redisdedup: claim %q: %w", id, err)
}

// ownRetry tells a claim refused because of this very call from one refused
// because of another: when the reply to the first SET was lost, the client
// retries it and the retry finds the key the first one set. It returns nil
// when the key holds token, and redis.Nil when it holds another claim's or
// is gone. Without it the event would be taken for a duplicate, answered
// 200, and never processed.
func (s *Store) ownRetry(ctx context.Context, id, token string) error {
	key := s.prefix + id
	v, err := s.do(ctx, key, "GET", key).Text()
	switch {
	case err != nil:
		return err // redis.Nil: expired meanwhile, still not ours
	case v != token:
		return redis.Nil
	}
	return nil
}

// Release frees the claim on id so that a redelivery is accepted. What it
// deletes depends on the record this Store keeps of its own claim on id:
//
//   - a live claim (not released, not expired by this Store's clock): the
//     key is deleted only while it still holds this claim's token, with one
//     atomic compare-and-delete in Redis, and the record is marked released.
//     If that fails, the error is returned and the claim stays live, so the
//     caller may retry.
//   - a claim already released, or expired by this Store's clock: nothing is
//     done and the result is nil, since the key, if any, is a newer claim
//     (perhaps another receiver's).
//   - no record (this Store never claimed id, its claim was refused, or the
//     record was forgotten, twice the claim's ttl after it was made): the key
//     is deleted with a plain DEL, whoever claimed it. This releases a claim
//     made by another receiver; it cannot tell that claim from a newer one,
//     so release through the Store that claimed whenever possible.
//
// Releasing an id that nobody claims is not an error.
func (s *Store) Release(ctx context.Context, id string) error {
	if s.bad != nil {
		return s.bad
	}
	now := s.now()
	s.mu.Lock()
	r := s.claims[id]
	if r != nil && !now.Before(r.forgetAt) {
		delete(s.claims, id) // forgotten; its queue entry goes as superseded
		r = nil
	}
	done := r != nil && (r.released || !now.Before(r.expires))
	s.mu.Unlock()

	switch {
	case r == nil:
		if err := s.do(ctx, s.prefix+id, "DEL", s.prefix+id).Err(); err != nil {
			return fmt.Errorf("redisdedup: release %q: %w", id, err)
		}
	case !done:
		if err := s.run(ctx, s.release, []string{s.prefix + id}, r.token).Err(); err != nil {
			// Still live, so that the caller may retry until the claim expires.
			return fmt.Errorf("redisdedup: release %q: %w", id, err)
		}
		s.mu.Lock()
		r.released = true
		s.mu.Unlock()
	}
	return nil
}

// Extend implements dedup.Extender: the claim on id ends ttl (rounded up
// to whole milliseconds) from now, whoever made it. It sets the key with one
// SET PX, to this Store's token when it holds a live claim on id, or else to
// a new token recorded as this Store's claim: a receiver that takes over an
// event from another one takes over its claim, and its Release then frees
// it, while the other's late Release (a compare-and-delete on its own token)
// leaves it alone.
func (s *Store) Extend(ctx context.Context, id string, ttl time.Duration) error {
	if s.bad != nil {
		return s.bad
	}
	if id == "" || ttl <= 0 {
		return fmt.Errorf("%w: id %q, ttl %v", dedup.ErrInvalidClaim, id, ttl)
	}
	ttl = (ttl + time.Millisecond - 1).Truncate(time.Millisecond)
	start := s.now()
	token := rand.Text()
	s.mu.Lock()
	if r := s.claims[id]; r != nil && !r.released && start.Before(r.expires) {
		token = r.token
	}
	s.mu.Unlock()
	if err := s.do(ctx, s.prefix+id, "SET", s.prefix+id, token, "PX", ttl.Milliseconds()).Err(); err != nil {
		return fmt.Errorf("redisdedup: extend %q: %w", id, err)
	}
	expires := start.Add(ttl)
	s.remember(&record{id: id, token: token, expires: expires, forgetAt: expires.Add(ttl)}, start)
	return nil
}

// remember records r, the newest claim on its id, after dropping the records
// forgotten at now.
func (s *Store) remember(r *record, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dropForgotten(now)
	s.claims[r.id] = r
	s.queue = append(s.queue, r)
}

// dropForgotten pops the queue in claim order while its oldest record is
// forgotten at now (now is at or past its forgetAt) or superseded by a newer
// claim on its id, and deletes a forgotten record from claims. Each record
// is popped once, so the cost is O(1) amortized per claim. With one ttl for
// all claims (as a Verifier uses) claim order is forgetAt order; with
// several, a record may wait behind an older one with a longer ttl (Release
// then treats it as forgotten all the same), but never longer than twice the
// longest ttl after its own claim.
func (s *Store) dropForgotten(now time.Time) {
	for s.head < len(s.queue) {
		r := s.queue[s.head]
		if s.claims[r.id] == r {
			if now.Before(r.forgetAt) {
				break
			}
			delete(s.claims, r.id)
		}
		s.queue[s.head] = nil
		s.head++
	}
	switch {
	case s.head == len(s.queue):
		s.queue, s.head = s.queue[:0], 0
	case s.head >= 64 && s.head*2 >= len(s.queue):
		n := copy(s.queue, s.queue[s.head:])
		clear(s.queue[n:])
		s.queue, s.head = s.queue[:n], 0
	}
}
