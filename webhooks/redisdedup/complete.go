package redisdedup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks/dedup"
)

// donePrefix starts the value of a claim key once its claim is complete:
// "done:" and the claim's token.
const donePrefix = "done:"

// completeSrc sets KEYS[1] to ARGV[2] (the completed token), keeping its
// ttl, only while it holds ARGV[1] (the claim's token); it returns 1 when
// the key holds ARGV[2] afterwards, so that a script re-sent after a lost
// reply answers as the first run did, and 0 when the claim is not there.
const completeSrc = `local v = redis.call("GET", KEYS[1])
if v == ARGV[2] then
	return 1
end
if v == ARGV[1] then
	redis.call("SET", KEYS[1], ARGV[2], "KEEPTTL")
	return 1
end
return 0`

var _ dedup.Completer = (*Store)(nil)

// Complete implements dedup.Completer: while this Store holds a live
// claim on id, the key's value becomes "done:" and the claim's token, with
// the key's ttl kept, in one script; the Store's record then holds that
// value as its token, so that its Release and Extend still act on the
// claim. A claim that is not this Store's live claim (never made, released,
// expired, or claimed since by another receiver) is left alone, and nil
// returned: marking another receiver's claim complete would make the
// redeliveries of an event whose processing may yet fail duplicates.
func (s *Store) Complete(ctx context.Context, id string) error {
	now := s.now()
	s.mu.Lock()
	r := s.claims[id]
	live := r != nil && !r.released && now.Before(r.expires)
	var token string
	if live {
		token = r.token
	}
	s.mu.Unlock()
	if !live || strings.HasPrefix(token, donePrefix) {
		return nil
	}
	done := donePrefix + token
	n, err := s.run(ctx, s.done, []string{s.prefix + id}, token, done).Int()
	if err != nil {
		return fmt.Errorf("redisdedup: complete %q: %w", id, err)
	}
	if n == 1 {
		s.mu.Lock()
		if r.token == token {
			r.token = done
		}
		s.mu.Unlock()
	}
	return nil
}

// Completed implements dedup.Completer with one GET: true when the key of
// id holds a completed claim, whichever Store made it.
func (s *Store) Completed(ctx context.Context, id string) (bool, error) {
	if s.bad != nil {
		return false, s.bad
	}
	v, err := s.client.Get(ctx, s.prefix+id).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("redisdedup: completed %q: %w", id, err)
	}
	return strings.HasPrefix(v, donePrefix), nil
}
