// Package redisdedup is a webhooks.DedupStore on Redis, for receivers that run
// on several machines: a claim made by one receiver is seen by all of them,
// so a redelivery that reaches another machine is still processed once.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	v, err := webhooks.NewVerifier(secret, webhooks.WithDedup(redisdedup.New(rdb)))
//
// A claim is one key, set with SET NX PX (atomic, expiring with the claim's
// ttl) and deleted by Release.
package redisdedup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks"
)

// DefaultPrefix starts the key of every claim unless WithPrefix says
// otherwise.
const DefaultPrefix = "signkit:webhooks:event:"

// Store is a webhooks.DedupStore on Redis. It is safe for concurrent use.
type Store struct {
	client redis.UniversalClient
	prefix string
}

var _ webhooks.DedupStore = (*Store)(nil)

// Option configures a Store.
type Option func(*Store)

// WithPrefix sets the prefix of the claim keys (default DefaultPrefix), for
// example to keep the claims of several subscriptions or applications apart
// on one Redis. Receivers that must see each other's claims use the same
// prefix.
func WithPrefix(p string) Option {
	return func(s *Store) { s.prefix = p }
}

// New returns a Store that keeps its claims through client, which may be a
// single-node, sentinel (failover) or cluster client. The caller keeps
// ownership of client and closes it.
func New(client redis.UniversalClient, opts ...Option) *Store {
	s := &Store{client: client, prefix: DefaultPrefix}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Claim records id for ttl (rounded up to whole milliseconds) with SET NX PX
// and reports false when id is already claimed.
func (s *Store) Claim(ctx context.Context, id string, ttl time.Duration) (bool, error) {
	if id == "" || ttl <= 0 {
		return false, fmt.Errorf("%w: id %q, ttl %v", webhooks.ErrInvalidClaim, id, ttl)
	}
	ms := int64((ttl + time.Millisecond - 1) / time.Millisecond)
	err := s.client.Do(ctx, "SET", s.prefix+id, "1", "PX", ms, "NX").Err()
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, redis.Nil):
		return false, nil
	}
	return false, fmt.Errorf("redisdedup: claim %q: %w", id, err)
}

// Release deletes the claim on id; releasing an id that is not claimed is
// not an error.
func (s *Store) Release(ctx context.Context, id string) error {
	if err := s.client.Del(ctx, s.prefix+id).Err(); err != nil {
		return fmt.Errorf("redisdedup: release %q: %w", id, err)
	}
	return nil
}
