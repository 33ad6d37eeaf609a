// Package redisqueue is a queue.Queue on a Redis stream, for
// webhooks.(*Verifier).AsyncHandler on receivers that must not lose an
// acknowledged event, and for fleets of receivers that share the work:
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	q, err := redisqueue.New(ctx, rdb)
//	if err != nil { ... }
//	v, err := webhooks.NewVerifier(secret, webhooks.WithDedup(redisdedup.New(rdb)))
//	if err != nil { ... }
//	http.Handle("POST /webhooks", v.AsyncHandler(q, process))
//
// Each verified delivery is added to the stream with XADD before the
// platform gets its 202. The receivers read the stream in one consumer
// group, so that each entry goes to one of them; an entry is acknowledged
// (XACK, then XDEL) once its event is processed, or moved to the
// dead-letter stream when processing keeps failing. An entry handed out and
// left idle past the visibility timeout, because its receiver crashed or
// lost Redis, is taken over by another receiver (XAUTOCLAIM); a receiver
// that retries an event touches its entry before each attempt, so keep the
// visibility timeout above the longest single run of your event handler.
//
// The 202 is as durable as Redis makes the XADD: with appendonly yes and
// appendfsync always, an acknowledged entry survives a crash of Redis
// itself; Redis's defaults can lose the last second of writes (see
// docs/webhooks.md).
//
// The dead-letter stream is read with DeadLetters; Replay moves a dead
// letter back into the stream, and Discard deletes it.
package redisqueue

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks/queue"
)

// Defaults of a Queue. The stream names share a hash tag, so that they live
// in one slot of a Redis Cluster and Replay can move an entry atomically.
const (
	DefaultStream            = "{signkit:webhooks}:events"
	DefaultDeadStream        = "{signkit:webhooks}:dead"
	DefaultGroup             = "signkit-receivers"
	DefaultVisibilityTimeout = 5 * time.Minute
	DefaultBlock             = time.Second
)

// Fields of a stream entry.
const (
	fieldID, fieldType, fieldBody = "id", "type", "body"
	fieldReason, fieldDeliveries  = "reason", "deliveries"
	fieldTime, fieldSource        = "failed_at", "source"
)

// Queue is a queue.Queue on a Redis stream. It is safe for concurrent use.
type Queue struct {
	rdb                      redis.UniversalClient
	stream, dead, group, me  string
	visibility, block, sweep time.Duration
	replay                   *redis.Script

	closing    context.Context // ends when Close is called
	close      context.CancelFunc
	mu         sync.Mutex // guards cursor and sweptUntil
	cursor     string     // where the XAUTOCLAIM scan continues
	sweptUntil time.Time  // no scan for idle entries before then
}

var (
	_ queue.Queue          = (*Queue)(nil)
	_ queue.DeadLetterList = (*Queue)(nil)
)

// Option configures a Queue.
type Option func(*Queue)

// WithStreams sets the stream of the deliveries and the dead-letter stream
// (defaults DefaultStream, DefaultDeadStream). On a Redis Cluster give them
// one hash tag, as the defaults do.
func WithStreams(stream, dead string) Option {
	return func(q *Queue) { q.stream, q.dead = stream, dead }
}

// WithGroup sets the consumer group (default DefaultGroup). The receivers
// that share the work use one group.
func WithGroup(name string) Option {
	return func(q *Queue) { q.group = name }
}

// WithConsumer sets this receiver's consumer name in the group (default:
// host name, process id and a random suffix). Names must differ between
// the receivers that run at once.
func WithConsumer(name string) Option {
	return func(q *Queue) { q.me = name }
}

// WithVisibilityTimeout sets how long an entry handed out may stay
// untouched before another receiver takes it over (default
// DefaultVisibilityTimeout). Keep it above the longest single run of the
// event handler, or a slow run is taken for a crash and its event is
// processed twice.
func WithVisibilityTimeout(d time.Duration) Option {
	return func(q *Queue) { q.visibility = d }
}

// WithBlock sets how long one XREADGROUP waits for new entries (default
// DefaultBlock); Next repeats it until an entry comes or its ctx ends. The
// client does not interrupt a blocked read, so it also bounds how long Next
// takes to notice Close or the end of its ctx.
func WithBlock(d time.Duration) Option {
	return func(q *Queue) { q.block = d }
}

// New returns a Queue on client, creating the stream and the consumer group
// if they do not exist. The caller keeps ownership of client and closes it
// after the queue's last use.
func New(ctx context.Context, client redis.UniversalClient, opts ...Option) (*Queue, error) {
	host, _ := os.Hostname()
	q := &Queue{
		rdb: client, stream: DefaultStream, dead: DefaultDeadStream, group: DefaultGroup,
		me:         fmt.Sprintf("%s-%d-%s", host, os.Getpid(), rand.Text()[:8]),
		visibility: DefaultVisibilityTimeout, block: DefaultBlock,
		replay: redis.NewScript(replaySrc), cursor: "0-0",
	}
	q.closing, q.close = context.WithCancel(context.Background())
	for _, o := range opts {
		o(q)
	}
	switch {
	case q.stream == "" || q.dead == "" || q.group == "" || q.me == "":
		return nil, errors.New("redisqueue: stream, dead-letter stream, group and consumer need names")
	case q.stream == q.dead:
		return nil, errors.New("redisqueue: the dead-letter stream must differ from the stream")
	case q.visibility < time.Millisecond || q.block < time.Millisecond:
		return nil, errors.New("redisqueue: visibility timeout and block must be at least 1ms")
	}
	q.sweep = q.visibility / 4
	err := client.XGroupCreateMkStream(ctx, q.stream, q.group, "0").Err()
	if err != nil && !isBusyGroup(err) {
		return nil, fmt.Errorf("redisqueue: create group %q on %q: %w", q.group, q.stream, err)
	}
	return q, nil
}

func isBusyGroup(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && len(re.Error()) >= 9 && re.Error()[:9] == "BUSYGROUP"
}

// Consumer returns this receiver's consumer name in the group.
func (q *Queue) Consumer() string { return q.me }

// Enqueue implements queue.Queue with XADD.
func (q *Queue) Enqueue(ctx context.Context, d queue.Delivery) error {
	if q.closing.Err() != nil {
		return queue.ErrClosed
	}
	err := q.rdb.XAdd(ctx, &redis.XAddArgs{
		Stream: q.stream,
		Values: []any{fieldID, d.ID, fieldType, d.Type, fieldBody, d.Body},
	}).Err()
	if err != nil {
		return fmt.Errorf("redisqueue: add event %q: %w", d.ID, err)
	}
	return nil
}

// Next implements queue.Queue. It takes over an entry that another
// consumer left idle past the visibility timeout (XAUTOCLAIM, scanned at
// most every quarter of the timeout), or else reads a new one (XREADGROUP).
// After Close it returns queue.ErrClosed: the entries stay in the stream
// for the other receivers.
func (q *Queue) Next(ctx context.Context) (*queue.Message, error) {
	for q.closing.Err() == nil && ctx.Err() == nil {
		m, err := q.takeOver(ctx)
		if err == nil && m == nil {
			m, err = q.readNew(ctx)
		}
		switch {
		case m != nil:
			return m, nil
		case q.closing.Err() != nil:
			return nil, queue.ErrClosed
		case err != nil:
			return nil, err
		}
	}
	if q.closing.Err() != nil {
		return nil, queue.ErrClosed
	}
	return nil, ctx.Err()
}

// takeOver claims one entry that another consumer left idle past the
// visibility timeout, or returns nil. It scans the group's pending entries
// from where the last scan stopped; once a scan is complete it waits a
// quarter of the timeout before the next.
func (q *Queue) takeOver(ctx context.Context) (*queue.Message, error) {
	q.mu.Lock()
	if time.Now().Before(q.sweptUntil) {
		q.mu.Unlock()
		return nil, nil
	}
	start := q.cursor
	q.mu.Unlock()
	msgs, next, err := q.rdb.XAutoClaim(ctx, &redis.XAutoClaimArgs{
		Stream: q.stream, Group: q.group, Consumer: q.me,
		MinIdle: q.visibility, Start: start, Count: 1,
	}).Result()
	if err != nil {
		return nil, fmt.Errorf("redisqueue: take over idle entries: %w", err)
	}
	q.mu.Lock()
	q.cursor = next
	if next == "0-0" {
		q.sweptUntil = time.Now().Add(q.sweep)
	}
	q.mu.Unlock()
	if len(msgs) == 0 {
		return nil, nil
	}
	m := message(msgs[0])
	// XAUTOCLAIM counted this delivery; XPENDING tells the total.
	pend, err := q.rdb.XPendingExt(ctx, &redis.XPendingExtArgs{
		Stream: q.stream, Group: q.group, Start: m.Key, End: m.Key, Count: 1,
	}).Result()
	if err == nil && len(pend) == 1 {
		m.Deliveries = int(pend[0].RetryCount)
	} else {
		m.Deliveries = 2 // at least: it was handed out before
	}
	return m, nil
}

// readNew reads one entry never handed out, waiting up to the block time;
// nil when none came.
func (q *Queue) readNew(ctx context.Context) (*queue.Message, error) {
	res, err := q.rdb.XReadGroup(ctx, &redis.XReadGroupArgs{
		Group: q.group, Consumer: q.me, Streams: []string{q.stream, ">"},
		Count: 1, Block: q.block,
	}).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("redisqueue: read: %w", err)
	case len(res) == 0 || len(res[0].Messages) == 0:
		return nil, nil
	}
	m := message(res[0].Messages[0])
	m.Deliveries = 1
	return m, nil
}

// message turns a stream entry into a Message. An entry without the
// fields (not written by Enqueue) gives an empty delivery, which the
// receiver cannot decode and dead-letters.
func message(x redis.XMessage) *queue.Message {
	return &queue.Message{Key: x.ID, Delivery: delivery(x.Values)}
}

func delivery(v map[string]any) queue.Delivery {
	str := func(k string) string { s, _ := v[k].(string); return s }
	return queue.Delivery{ID: str(fieldID), Type: str(fieldType), Body: []byte(str(fieldBody))}
}

// Touch implements queue.Queue: it resets the entry's idle time (XCLAIM
// JUSTID to this consumer), so that no other receiver takes it over while
// this one retries it.
func (q *Queue) Touch(ctx context.Context, m *queue.Message) error {
	ids, err := q.rdb.XClaimJustID(ctx, &redis.XClaimArgs{
		Stream: q.stream, Group: q.group, Consumer: q.me, MinIdle: 0, Messages: []string{m.Key},
	}).Result()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: touch %s: %w", m.Key, err)
	case len(ids) == 0:
		return fmt.Errorf("redisqueue: entry %s is no longer pending", m.Key)
	}
	return nil
}

// Ack implements queue.Queue: XACK and XDEL in one transaction.
func (q *Queue) Ack(ctx context.Context, m *queue.Message) error {
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAck(ctx, q.stream, q.group, m.Key)
		p.XDel(ctx, q.stream, m.Key)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisqueue: acknowledge %s: %w", m.Key, err)
	}
	return nil
}

// DeadLetter implements queue.Queue: the delivery is added to the
// dead-letter stream and removed from the stream in one transaction.
func (q *Queue) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	_, err := q.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: q.dead, Values: []any{
			fieldID, m.ID, fieldType, m.Type, fieldBody, m.Body,
			fieldReason, reason, fieldDeliveries, m.Deliveries,
			fieldTime, time.Now().UnixMilli(), fieldSource, m.Key,
		}})
		p.XAck(ctx, q.stream, q.group, m.Key)
		p.XDel(ctx, q.stream, m.Key)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisqueue: dead-letter %s: %w", m.Key, err)
	}
	return nil
}

// Close implements queue.Queue: Next returns queue.ErrClosed (a blocked
// read ends within the block time, see WithBlock), Enqueue refuses. Entries stay in the stream; acks of
// entries in hand still work. It does not close the client.
func (q *Queue) Close() error {
	q.close()
	return nil
}

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

// replaySrc moves the dead letter ARGV[1] from KEYS[2] back into KEYS[1]
// as a new entry, atomically; it returns 0 when there is no such entry.
const replaySrc = `local e = redis.call("XRANGE", KEYS[2], ARGV[1], ARGV[1])
if #e == 0 then return 0 end
local f, v = e[1][2], {}
for i = 1, #f, 2 do v[f[i]] = f[i + 1] end
redis.call("XADD", KEYS[1], "*", "id", v["id"] or "", "type", v["type"] or "", "body", v["body"] or "")
redis.call("XDEL", KEYS[2], ARGV[1])
return 1`

// Replay implements queue.DeadLetterList: the dead letter becomes a new
// entry of the stream, atomically, and is processed like a new delivery.
func (q *Queue) Replay(ctx context.Context, key string) error {
	n, err := q.replay.Run(ctx, q.rdb, []string{q.stream, q.dead}, key).Int()
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
	n, err := q.rdb.XDel(ctx, q.dead, key).Result()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: discard %s: %w", key, err)
	case n == 0:
		return fmt.Errorf("%w: %s", queue.ErrNotFound, key)
	}
	return nil
}
