package redisqueue_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redisproxy"
	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// lostEnqueueReply returns a queue whose client reaches Redis through a
// proxy that loses the reply to the next enqueue (XADD before the fix, the
// enqueue script after it) once Redis ran it, and a direct client. One
// event is enqueued first, so that Redis knows the scripts and runs the
// EVALSHA whose reply is lost, rather than refusing it unknown.
func lostEnqueueReply(t *testing.T, retries int) (*redisqueue.Queue, *redis.Client, *redisproxy.Proxy) {
	t.Helper()
	addr := redistest.Start(t)
	var armed atomic.Bool
	proxy := redisproxy.Start(t, addr, func(names []string) bool {
		switch names[0] {
		case "XADD", "EVALSHA", "EVAL":
			return armed.CompareAndSwap(true, false)
		}
		return false
	})
	proxied := redis.NewClient(&redis.Options{Addr: proxy.Addr(), MaxRetries: retries})
	t.Cleanup(func() { _ = proxied.Close() })
	ctx := context.Background()
	q, err := redisqueue.New(ctx, proxied)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, queue.Delivery{ID: "warm-up", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	return q, client(t, addr), proxy
}

// The reply to the enqueue is lost after Redis stored the entry; go-redis
// sends the command again. The stream must gain one entry, not two.
func TestEnqueueLostReplyResentByClient(t *testing.T) {
	t.Parallel()
	q, direct, proxy := lostEnqueueReply(t, 3)
	ctx := context.Background()
	if err := q.Enqueue(ctx, queue.Delivery{ID: "evt-lost", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatalf("Enqueue after a lost reply: %v", err)
	}
	if proxy.DroppedTotal() != 1 {
		t.Fatalf("the proxy dropped %v; want one enqueue reply", proxy.Dropped())
	}
	if n := direct.XLen(ctx, redisqueue.DefaultStream).Val(); n != 2 {
		t.Fatalf("the stream holds %d entries after two enqueues, one of whose replies was lost; want 2", n)
	}
	if s := q.Stats(); s.EnqueuesSkipped != 1 {
		t.Fatalf("stats %+v; want the re-sent script counted as skipped", s)
	}
}

// With client retries off, the lost reply fails the Enqueue (the receiver
// answers 500) and the platform sends the delivery again: the second
// Enqueue must add nothing.
func TestEnqueueLostReplyResentByPlatform(t *testing.T) {
	t.Parallel()
	q, direct, proxy := lostEnqueueReply(t, -1)
	ctx := context.Background()
	d := queue.Delivery{ID: "evt-resent", Type: "t", Body: []byte("{}")}
	if err := q.Enqueue(ctx, d); err == nil {
		t.Fatal("Enqueue whose reply was lost, with retries off, succeeded")
	}
	if err := q.Enqueue(ctx, d); err != nil {
		t.Fatalf("the platform's second delivery: %v", err)
	}
	if n := direct.XLen(ctx, redisqueue.DefaultStream).Val(); n != 2 || proxy.DroppedTotal() != 1 {
		t.Fatalf("the stream holds %d entries after two events, one sent twice (dropped %v); want 2", n, proxy.Dropped())
	}
}

// A touches its entry after B took it over: the touch must report the lost
// claim, not take the entry back.
func TestTouchAfterTakeoverIsRefused(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	vis := redisqueue.WithVisibilityTimeout(100 * time.Millisecond)
	a := newQueue(t, rdb, vis, redisqueue.WithConsumer("a"))
	b := newQueue(t, rdb, vis, redisqueue.WithConsumer("b"))
	if err := a.Enqueue(ctx, queue.Delivery{ID: "x", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	held := next(t, a)
	taken := next(t, b) // after the visibility timeout
	if taken.Key != held.Key {
		t.Fatalf("b took %s, not a's %s", taken.Key, held.Key)
	}
	if err := a.Touch(ctx, held); err == nil {
		t.Fatal("a's touch succeeded although b had taken the entry over")
	}
	pend := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{
		Stream: redisqueue.DefaultStream, Group: redisqueue.DefaultGroup, Start: held.Key, End: held.Key, Count: 1,
	}).Val()
	if len(pend) != 1 || pend[0].Consumer != "b" {
		t.Fatalf("pending entry %+v; want it still with b", pend)
	}
	if err := b.Touch(ctx, taken); err != nil {
		t.Fatalf("b's own touch: %v", err)
	}
}

// Two receivers, a 600 ms visibility timeout, 5 ms runs of fn and a 2 s
// backoff: the first run fails, and while the worker waits to retry, its
// entry must stay its own. The event must succeed once, not twice.
func TestBackoffKeepsTheClaim(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	var calls, successes atomic.Int32
	fn := func(context.Context, *webhooks.Event) error {
		time.Sleep(5 * time.Millisecond)
		if calls.Add(1) == 1 {
			return errors.New("first run fails")
		}
		successes.Add(1)
		return nil
	}
	vis := []redisqueue.Option{redisqueue.WithVisibilityTimeout(600 * time.Millisecond)}
	backoff := webhooks.WithBackoff(2*time.Second, 2*time.Second)
	a, _ := asyncReceiver(t, client(t, addr), "a", fn, vis, backoff)
	b, _ := asyncReceiver(t, client(t, addr), "b", fn, vis, backoff)
	send(t, a, 1)
	time.Sleep(4 * time.Second) // the retry, and any second run, are over
	shutdownAll(t, a, b)
	if successes.Load() != 1 {
		t.Fatalf("fn succeeded %d times for one event (%d calls); want once", successes.Load(), calls.Load())
	}
}

// Redis loses its data (a restart without persistence, FLUSHALL, an evicted
// key): the next enqueue makes the stream again, without the group. The
// queue must make the group again and hand the entry out.
func TestGroupRecreatedAfterDataLoss(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	log := &lockedLog{}
	q := newQueue(t, rdb, redisqueue.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	if err := rdb.FlushAll(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	if err := q.Enqueue(ctx, queue.Delivery{ID: "after-flush", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	var m *queue.Message
	var err error
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		short, cancel := context.WithTimeout(ctx, time.Second)
		m, err = q.Next(short)
		cancel()
		if err == nil {
			break
		}
	}
	if err != nil || m.ID != "after-flush" {
		t.Fatalf("Next after the data loss: %+v, %v; want the new entry", m, err)
	}
	if s := q.Stats(); s.GroupsRecreated != 1 {
		t.Fatalf("stats %+v; want one group made again", s)
	}
	if l := log.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, redisqueue.DefaultStream) {
		t.Fatalf("log %q; want an error naming the stream", l)
	}
}

// An entry whose event is already recorded done (two entries of one event,
// as after the record of the enqueue was lost) is acknowledged and deleted
// without being handed out.
func TestDoneEventIsNotHandedOutAgain(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	q := newQueue(t, rdb)
	d := queue.Delivery{ID: "evt-done", Type: "t", Body: []byte("{}")}
	if err := q.Enqueue(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := q.Ack(ctx, next(t, q)); err != nil {
		t.Fatal(err)
	}
	// A second entry of the same event, written past the enqueue's check.
	if err := rdb.XAdd(ctx, &redis.XAddArgs{Stream: redisqueue.DefaultStream,
		Values: []any{"id", d.ID, "type", d.Type, "body", d.Body}}).Err(); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if m, err := q.Next(short); err == nil {
		t.Fatalf("handed out %+v, an event already done", m)
	}
	if n := rdb.XLen(ctx, redisqueue.DefaultStream).Val(); n != 0 || q.Stats().DuplicatesSkipped != 1 {
		t.Fatalf("stream holds %d entries, stats %+v; want it acknowledged and deleted", n, q.Stats())
	}
}

// The event records carry the stream's hash tag, and a stream without one
// gets its name as the tag: the scripts' keys share one Cluster slot.
func TestRecordKeysShareTheStreamsSlot(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	for stream, record := range map[string]string{
		redisqueue.DefaultStream: "{signkit:webhooks}:events:event:e1",
		"plain":                  "{plain}:event:e1",
		"app:{t1}:events":        "app:{t1}:events:event:e1",
	} {
		q := newQueue(t, rdb, redisqueue.WithStreams(stream, stream+":dead"))
		if err := q.Enqueue(ctx, queue.Delivery{ID: "e1", Type: "t", Body: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
		if rdb.Get(ctx, record).Val() != "queued" || keySlot(record) != keySlot(stream) {
			t.Errorf("stream %q: record %q = %q, slots %d and %d", stream, record, rdb.Get(ctx, record).Val(),
				keySlot(record), keySlot(stream))
		}
	}
	if _, err := redisqueue.New(ctx, rdb, redisqueue.WithStreams("a}b", "dead")); err == nil {
		t.Error("a stream with a brace but no hash tag was accepted")
	}
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:1"}})
	defer cluster.Close()
	if _, err := redisqueue.New(ctx, cluster, redisqueue.WithStreams("{a}:events", "{b}:dead")); err == nil ||
		!strings.Contains(err.Error(), "hash tag") {
		t.Errorf("two hash tags on a cluster client: %v", err)
	}
}

// keySlot is the Redis Cluster slot of key: CRC16 (XMODEM) of its hash tag,
// or of the whole key without one, modulo 16384 (the Cluster
// specification), written here apart from the package's own key code.
func keySlot(key string) int {
	if i := strings.Index(key, "{"); i >= 0 {
		if j := strings.Index(key[i+1:], "}"); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	crc := uint16(0)
	for _, b := range []byte(key) {
		crc ^= uint16(b) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % 16384
}
