package redisqueue

import (
	"context"
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// DeadLetters implements queue.DeadLetterList: up to limit dead letters,
// oldest first (XRANGE on the dead-letter stream).
func (q *Queue) DeadLetters(ctx context.Context, limit int) ([]queue.DeadLetter, error) {
	if limit < 1 {
		return nil, nil
	}
	xs, err := q.rdb.XRangeN(ctx, q.dead, "-", "+", int64(limit)).Result()
	if err != nil {
		return nil, fmt.Errorf("redisqueue: read dead letters: %w", err)
	}
	out := make([]queue.DeadLetter, 0, len(xs))
	for _, x := range xs {
		d := queue.DeadLetter{Key: x.ID, Delivery: delivery(x.Values)}
		d.Reason, _ = x.Values[fieldReason].(string)
		if s, ok := x.Values[fieldDeliveries].(string); ok {
			d.Deliveries, _ = strconv.Atoi(s)
		}
		if s, ok := x.Values[fieldTime].(string); ok {
			if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
				d.Time = time.UnixMilli(ms)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// moveMemory is how long Replay and Discard remember their own work under
// the dead letter's key: longer than go-redis takes to send a command again
// after a lost reply (its retries and their backoff, a few seconds).
const moveMemory = 10 * time.Minute

// moveKey is the key under which Replay and Discard record what they did
// to the dead letter key; it shares the stream's slot, like the records.
func (q *Queue) moveKey(key string) string { return q.records + ":moved:" + key }

// entryID reports whether key is written as Redis writes an entry's id,
// "<ms>-<seq>" in decimal without leading zeros: only such a key can be a
// dead letter's. Redis would refuse another form with an error, or read it
// as another id ("5" as 5-0, or as every entry of millisecond 5 in XRANGE;
// "05-1" as 5-1) and act on a dead letter of another key.
func entryID(key string) bool {
	ms, seq, ok := strings.Cut(key, "-")
	return ok && canonicalUint(ms) && canonicalUint(seq)
}

func canonicalUint(s string) bool {
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && strconv.FormatUint(n, 10) == s
}

// Replay implements queue.DeadLetterList: the dead letter becomes a new
// entry of the stream, atomically, and is processed like a new delivery.
// The script is safe to run twice: when go-redis sends it again after a
// lost reply, the second run finds the move recorded under this call's
// token and answers success. A later call for the same key answers
// queue.ErrNotFound, as for any key that is no dead letter, a key not
// written as an entry id included.
func (q *Queue) Replay(ctx context.Context, key string) error {
	if !entryID(key) {
		return fmt.Errorf("%w: %q", queue.ErrNotFound, key)
	}
	n, err := q.run(ctx, q.scripts.replay, []string{q.stream, q.dead, q.moveKey(key)},
		key, rand.Text(), moveMemory.Milliseconds()).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: replay %s: %w", key, err)
	case n == 0:
		return fmt.Errorf("%w: %s", queue.ErrNotFound, key)
	}
	return nil
}

// Discard implements queue.DeadLetterList: one script deletes the dead
// letter (XDEL) and, like Replay's, answers success when go-redis sends it
// again after a lost reply; a later call answers queue.ErrNotFound, and so
// does a key not written as an entry id.
func (q *Queue) Discard(ctx context.Context, key string) error {
	if !entryID(key) {
		return fmt.Errorf("%w: %q", queue.ErrNotFound, key)
	}
	n, err := q.run(ctx, q.scripts.discard, []string{q.dead, q.moveKey(key)},
		key, rand.Text(), moveMemory.Milliseconds()).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: discard %s: %w", key, err)
	case n == 0:
		return fmt.Errorf("%w: %s", queue.ErrNotFound, key)
	}
	return nil
}
