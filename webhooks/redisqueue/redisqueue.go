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
// Every step that a retry can repeat is keyed by the event id, so that a
// reply lost on the network, re-sent by go-redis or by the platform, adds
// nothing:
//
//   - Enqueue adds the delivery to the stream and records its id in one Lua
//     script; an id recorded within the idempotency window (default
//     DefaultIdempotencyWindow, longer than the platform retries) is not
//     added again. The platform gets its 202 after the script.
//   - The receivers read the stream in one consumer group, so that each
//     entry goes to one of them. A hand-out is named by the consumer and the
//     entry's delivery count; the holder touches it on a heartbeat (a third
//     of the visibility timeout), and each touch first checks, atomically,
//     that the entry is still pending with that name, or reports
//     queue.ErrClaimLost.
//   - An entry left untouched past the visibility timeout, because its
//     receiver crashed or lost Redis, is taken over by another receiver
//     (XAUTOCLAIM).
//   - Ack records the event done and acknowledges and deletes its entry in
//     one script; an entry whose event is recorded done is acknowledged
//     without being handed out. DeadLetter moves the entry to the
//     dead-letter stream only while the hand-out is still the caller's.
//   - When a command finds the consumer group missing (Redis lost its data:
//     a restart without persistence, FLUSHALL, an evicted key), the queue
//     makes the group again from the stream's start, logs it at error level,
//     and carries on.
//
// The 202 is as durable as Redis makes the script's writes: with appendonly yes
// and appendfsync always, an acknowledged entry survives a crash of Redis
// itself; Redis's defaults can lose the last second of writes, and a Redis
// without persistence loses every entry at a restart (see
// https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md, which gives
// the guarantees as the fault tests show them). On a replicated Redis (Cluster
// or Sentinel) a failover loses what the replica had not received, appendfsync
// always or not; WithReplicas answers each write only once n replicas have it
// (WAIT).
//
// A touch that comes after its own hand-out dead-lettered the entry (the
// heartbeat beating once more before the worker lets go) finds the event's
// record naming that hand-out and succeeds: it is no lost claim.
//
// The dead-letter stream is read with DeadLetters; Replay moves a dead
// letter back into the stream, and Discard deletes it, each in one script
// that records its work under a token of the call for ten minutes, so that
// the same call sent again by go-redis after a lost reply answers success
// rather than queue.ErrNotFound; a later, separate call for the same key
// answers queue.ErrNotFound.
//
// Every process start adds a consumer to the group. A consumer idle longer
// than WithConsumerIdle's bound (default DefaultConsumerIdle) and holding
// no entry is removed, its check and removal in one script, so that no
// pending entry is dropped with it. Stats counts what the queue did to keep
// its promises.
package redisqueue

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/rediswait"
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
	// DefaultIdempotencyWindow is how long an event id is remembered, as
	// enqueued and then as done: longer than the platform keeps retrying a
	// delivery (5 fast retries within 75 s, then 30 hourly ones).
	DefaultIdempotencyWindow = 31 * time.Hour
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
	records                  string // start of the event records' keys
	visibility, block, sweep time.Duration
	window, consumerIdle     time.Duration
	logger                   *slog.Logger
	scripts                  scripts
	stats                    counters
	replicas                 replicas          // WithReplicas' settings
	wait                     *rediswait.Writer // with WithReplicas: writes followed by WAIT

	closing    context.Context // ends when Close is called
	close      context.CancelFunc
	mu         sync.Mutex // guards cursor and sweptUntil
	cursor     string     // where the XAUTOCLAIM scan continues
	sweptUntil time.Time  // no scan for idle entries before then
}

var (
	_ queue.Queue          = (*Queue)(nil)
	_ queue.DeadLetterList = (*Queue)(nil)
	_ queue.Leaser         = (*Queue)(nil)
	_ queue.Idempotent     = (*Queue)(nil)
)

// Stats counts what a Queue did to keep its promises, since New.
type Stats struct {
	// GroupsRecreated counts the times the consumer group was found missing
	// and made again (Redis had lost its data).
	GroupsRecreated uint64
	// TakenOver counts entries taken over from a consumer that left them
	// untouched past the visibility timeout.
	TakenOver uint64
	// LostClaims counts touches and dead letters refused because the entry
	// was no longer this hand-out's (taken over, or gone).
	LostClaims uint64
	// DuplicatesSkipped counts entries acknowledged without being handed
	// out, because their event was already recorded done.
	DuplicatesSkipped uint64
	// EnqueuesSkipped counts enqueues that added nothing, because the event
	// id was already recorded within the idempotency window.
	EnqueuesSkipped uint64
	// ConsumersRemoved counts consumers removed from the group because they
	// were idle past the bound and held no entry (WithConsumerIdle).
	ConsumersRemoved uint64
}

type counters struct {
	groupsRecreated, takenOver, lostClaims, duplicatesSkipped, enqueuesSkipped, consumersRemoved atomic.Uint64
}

// Option configures a Queue.
type Option func(*Queue)

// WithStreams sets the stream of the deliveries and the dead-letter stream
// (defaults DefaultStream, DefaultDeadStream). On a Redis Cluster give them
// one hash tag, as the defaults do; New refuses two on a cluster client.
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
// DefaultVisibilityTimeout). A receiver that holds an entry touches it every
// third of this timeout (TouchInterval), whatever fn does, so the timeout
// bounds how long a receiver may be cut off from Redis, or stalled, before
// its entry is taken for abandoned and processed again elsewhere; it does
// not bound how long fn may run.
//
// A touch waits as long as the client lets it: go-redis applies its own
// ReadTimeout (default 3 s), with its retries, and ignores a context's
// deadline unless ContextTimeoutEnabled is set. With a visibility timeout
// of a few seconds, give the client a ReadTimeout well under a third of it,
// or ContextTimeoutEnabled, so that a touch on a dead connection does not
// outlast the lease.
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

// WithIdempotencyWindow sets how long an event id is remembered (default
// DefaultIdempotencyWindow): an Enqueue of an id recorded within it adds
// nothing, and an entry of an event recorded done within it is not handed
// out. Keep it longer than the platform retries. Redis holds one small key
// per event for this long.
func WithIdempotencyWindow(d time.Duration) Option {
	return func(q *Queue) { q.window = d }
}

// WithLogger sets where the queue reports what it repaired, such as a
// consumer group made again (default slog.Default()).
func WithLogger(l *slog.Logger) Option {
	return func(q *Queue) { q.logger = l }
}

// New returns a Queue on client, creating the stream and the consumer group
// if they do not exist. The caller keeps ownership of client and closes it
// after the queue's last use.
func New(ctx context.Context, client redis.UniversalClient, opts ...Option) (*Queue, error) {
	host, _ := os.Hostname()
	q := &Queue{
		rdb: client, stream: DefaultStream, dead: DefaultDeadStream, group: DefaultGroup,
		me:         fmt.Sprintf("%s-%d-%s", host, os.Getpid(), rand.Text()[:8]),
		visibility: DefaultVisibilityTimeout, block: DefaultBlock, window: DefaultIdempotencyWindow,
		consumerIdle: DefaultConsumerIdle,
		logger:       slog.Default(), scripts: newScripts(), cursor: "0-0",
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
	case q.visibility < time.Millisecond || q.block < time.Millisecond || q.window < time.Millisecond ||
		q.consumerIdle < time.Millisecond:
		return nil, errors.New("redisqueue: visibility timeout, block, idempotency window and consumer idle bound must be at least 1ms")
	}
	if err := checkSlots(client, q.stream, q.dead); err != nil {
		return nil, err
	}
	if err := q.setupReplicas(client); err != nil {
		return nil, err
	}
	records, err := recordBase(q.stream)
	if err != nil {
		return nil, err
	}
	q.records = records
	if q.logger == nil {
		q.logger = slog.New(slog.DiscardHandler)
	}
	q.sweep = q.visibility / 4
	if _, err := q.createGroup(ctx); err != nil {
		return nil, err
	}
	q.pruneQuietly(ctx)
	return q, nil
}

// createGroup makes the consumer group, and the stream if need be, reading
// from the stream's start; created is false when the group existed already
// (another receiver made it), which is no error.
func (q *Queue) createGroup(ctx context.Context) (created bool, err error) {
	err = q.rdb.XGroupCreateMkStream(ctx, q.stream, q.group, "0").Err()
	switch {
	case err == nil:
		return true, nil
	case hasCode(err, "BUSYGROUP"):
		return false, nil
	}
	return false, fmt.Errorf("redisqueue: create group %q on %q: %w", q.group, q.stream, err)
}

// hasCode reports whether err is a Redis error reply with the given code.
func hasCode(err error, code string) bool {
	var re redis.Error
	return errors.As(err, &re) && strings.HasPrefix(re.Error(), code+" ")
}

// heal makes the consumer group again after a command found it missing.
func (q *Queue) heal(ctx context.Context, cause error) error {
	created, err := q.createGroup(ctx)
	if created {
		q.stats.groupsRecreated.Add(1)
		q.logger.LogAttrs(ctx, slog.LevelError,
			"redisqueue: the consumer group was missing (Redis lost its data?); made it again, from the stream's start",
			slog.String("stream", q.stream), slog.String("group", q.group), slog.String("cause", cause.Error()))
	}
	return err
}

// Consumer returns this receiver's consumer name in the group.
func (q *Queue) Consumer() string { return q.me }

// Stats returns what the queue counted since New.
func (q *Queue) Stats() Stats {
	return Stats{
		GroupsRecreated:   q.stats.groupsRecreated.Load(),
		TakenOver:         q.stats.takenOver.Load(),
		LostClaims:        q.stats.lostClaims.Load(),
		DuplicatesSkipped: q.stats.duplicatesSkipped.Load(),
		EnqueuesSkipped:   q.stats.enqueuesSkipped.Load(),
		ConsumersRemoved:  q.stats.consumersRemoved.Load(),
	}
}

// TouchInterval implements queue.Leaser: a third of the visibility timeout.
func (q *Queue) TouchInterval() time.Duration { return max(q.visibility/3, time.Millisecond) }

// IdempotencyWindow implements queue.Idempotent.
func (q *Queue) IdempotencyWindow() time.Duration { return q.window }

// Enqueue implements queue.Queue: one script adds the entry and records the
// event id, unless the id is recorded already; either way it returns nil
// once Redis has answered.
func (q *Queue) Enqueue(ctx context.Context, d queue.Delivery) error {
	if q.closing.Err() != nil {
		return queue.ErrClosed
	}
	added, err := q.run(ctx, q.scripts.enqueue, []string{q.stream, q.recordKey(d.ID)},
		q.window.Milliseconds(), d.ID, d.Type, d.Body).Int()
	if err != nil {
		return fmt.Errorf("redisqueue: add event %q: %w", d.ID, err)
	}
	if added == 0 {
		q.stats.enqueuesSkipped.Add(1)
	}
	return nil
}

// Next implements queue.Queue. It takes over an entry that another
// consumer left idle past the visibility timeout (XAUTOCLAIM, scanned at
// most every quarter of the timeout), or else reads a new one (XREADGROUP),
// and checks the hand-out: an entry whose event is recorded done is
// acknowledged and skipped. A missing consumer group is made again. After
// Close it returns queue.ErrClosed: the entries stay in the stream for the
// other receivers.
func (q *Queue) Next(ctx context.Context) (*queue.Message, error) {
	for q.closing.Err() == nil && ctx.Err() == nil {
		m, takenOver, err := q.take(ctx)
		if err == nil && m != nil {
			m, err = q.handout(ctx, m)
		}
		switch {
		case hasCode(err, "NOGROUP"):
			if err := q.heal(ctx, err); err != nil {
				return nil, err
			}
			continue
		case err != nil && q.closing.Err() == nil:
			return nil, err
		case m != nil:
			if takenOver {
				q.stats.takenOver.Add(1)
			}
			return m, nil
		}
	}
	if q.closing.Err() != nil {
		return nil, queue.ErrClosed
	}
	return nil, ctx.Err()
}

// take returns an entry taken over, or else a new one, or nil when none
// came within the block time.
func (q *Queue) take(ctx context.Context) (m *queue.Message, takenOver bool, err error) {
	m, err = q.takeOver(ctx)
	if err != nil || m != nil {
		return m, m != nil, err
	}
	m, err = q.readNew(ctx)
	return m, false, err
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
	if next == "0-0" {
		q.pruneQuietly(ctx)
	}
	if len(msgs) == 0 {
		return nil, nil
	}
	return message(msgs[0]), nil
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
	return message(res[0].Messages[0]), nil
}

// handout checks an entry just read or taken over, in one script: it
// returns m with its delivery count, which names this hand-out, or nil when
// the entry is not this consumer's any more or its event is recorded done
// (then the script acknowledged it).
func (q *Queue) handout(ctx context.Context, m *queue.Message) (*queue.Message, error) {
	n, err := q.run(ctx, q.scripts.handout, []string{q.stream, q.recordKey(m.ID)},
		q.group, q.me, m.Key, q.visibility.Milliseconds()).Int()
	switch {
	case err != nil:
		return nil, fmt.Errorf("redisqueue: check hand-out of %s: %w", m.Key, err)
	case n < 0:
		return nil, nil
	case n == 0:
		q.stats.duplicatesSkipped.Add(1)
		q.logger.LogAttrs(ctx, slog.LevelInfo, "redisqueue: entry of an event already processed acknowledged without running it",
			slog.String("stream", q.stream), slog.String("event_id", m.ID), slog.String("entry", m.Key))
		return nil, nil
	}
	m.Deliveries = n
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

// Touch implements queue.Queue: when the entry is still pending to this
// consumer with the delivery count of m's hand-out, one script resets its
// idle time, so that no other receiver takes it over. When m's own hand-out
// dead-lettered the entry already (a heartbeat beating once more before the
// worker lets go), Touch returns nil and changes nothing: no claim was lost.
// Otherwise it returns queue.ErrClaimLost and changes nothing. Other errors
// say only that Redis could not be asked.
func (q *Queue) Touch(ctx context.Context, m *queue.Message) error {
	ok, err := q.run(ctx, q.scripts.touch, []string{q.stream, q.recordKey(m.ID)},
		q.group, q.me, m.Key, m.Deliveries).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: touch %s: %w", m.Key, err)
	case ok == 0:
		q.stats.lostClaims.Add(1)
		return fmt.Errorf("redisqueue: touch %s (event %q): %w", m.Key, m.ID, queue.ErrClaimLost)
	}
	return nil
}

// Ack implements queue.Queue: one script records the event done for the
// idempotency window and acknowledges and deletes the entry. It is safe to
// call again after an error, or after the claim was lost.
func (q *Queue) Ack(ctx context.Context, m *queue.Message) error {
	err := q.run(ctx, q.scripts.ack, []string{q.stream, q.recordKey(m.ID)},
		q.group, q.window.Milliseconds(), m.Key).Err()
	if err != nil {
		return fmt.Errorf("redisqueue: acknowledge %s: %w", m.Key, err)
	}
	return nil
}

// DeadLetter implements queue.Queue: while m's hand-out is still this
// consumer's, one script adds the delivery to the dead-letter stream,
// records the event as dead-lettered and acknowledges and deletes the
// entry; otherwise it returns queue.ErrClaimLost and changes nothing. A
// delivery of the event enqueued within the idempotency window adds
// nothing: the event waits in the dead-letter list for Replay.
func (q *Queue) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	ok, err := q.run(ctx, q.scripts.deadLetter, []string{q.stream, q.dead, q.recordKey(m.ID)},
		q.group, q.me, m.Key, m.Deliveries, q.window.Milliseconds(),
		fieldID, m.ID, fieldType, m.Type, fieldBody, m.Body,
		fieldReason, reason, fieldDeliveries, m.Deliveries,
		fieldTime, time.Now().UnixMilli(), fieldSource, m.Key).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisqueue: dead-letter %s: %w", m.Key, err)
	case ok == 0:
		q.stats.lostClaims.Add(1)
		return fmt.Errorf("redisqueue: dead-letter %s (event %q): %w", m.Key, m.ID, queue.ErrClaimLost)
	}
	return nil
}

// Close implements queue.Queue: Next returns queue.ErrClosed (a blocked
// read ends within the block time, see WithBlock), Enqueue refuses. Entries
// stay in the stream; entries in hand may still be touched, acknowledged
// and dead-lettered. It does not close the client.
func (q *Queue) Close() error {
	q.close()
	return nil
}
