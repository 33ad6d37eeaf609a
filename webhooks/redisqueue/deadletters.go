package redisqueue

import (
	"context"
	"fmt"
	"strconv"
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

// Replay implements queue.DeadLetterList: the dead letter becomes a new
// entry of the stream, atomically, and is processed like a new delivery.
func (q *Queue) Replay(ctx context.Context, key string) error {
	n, err := q.run(ctx, q.scripts.replay, []string{q.stream, q.dead}, key).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: replay %s: %w", key, err)
	case n == 0:
		return fmt.Errorf("%w: %s", queue.ErrNotFound, key)
	}
	return nil
}

// Discard implements queue.DeadLetterList (XDEL on the dead-letter
// stream).
func (q *Queue) Discard(ctx context.Context, key string) error {
	n, err := q.write(ctx, q.dead, "XDEL", q.dead, key).Int64()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: discard %s: %w", key, err)
	case n == 0:
		return fmt.Errorf("%w: %s", queue.ErrNotFound, key)
	}
	return nil
}
