package redisqueue_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// consumerNames lists the consumers of the default group.
func consumerNames(t *testing.T, rdb *redis.Client) []string {
	t.Helper()
	cs, err := rdb.XInfoConsumers(context.Background(), redisqueue.DefaultStream, redisqueue.DefaultGroup).Result()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	return names
}

// Consumers left by earlier processes are removed once idle past the
// bound, but only those that hold no entry; a consumer idle for less is
// kept, and so is this queue's own.
func TestIdleConsumersRemoved(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	gone := newQueue(t, rdb, redisqueue.WithConsumer("gone"))
	holder := newQueue(t, rdb, redisqueue.WithConsumer("holder"))
	for _, id := range []string{"acked", "held", "fresh"} {
		if err := gone.Enqueue(ctx, queue.Delivery{ID: id, Type: "t", Body: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
	}
	if err := gone.Ack(ctx, next(t, gone)); err != nil {
		t.Fatal(err)
	}
	held := next(t, holder)
	time.Sleep(300 * time.Millisecond)
	fresh := newQueue(t, rdb, redisqueue.WithConsumer("fresh"))
	if err := fresh.Ack(ctx, next(t, fresh)); err != nil {
		t.Fatal(err)
	}
	if got := consumerNames(t, rdb); !slices.Equal(got, []string{"fresh", "gone", "holder"}) {
		t.Fatalf("consumers before the check: %v", got)
	}
	pruner := newQueue(t, rdb, redisqueue.WithConsumer("pruner"), redisqueue.WithConsumerIdle(200*time.Millisecond))
	if got := consumerNames(t, rdb); !slices.Equal(got, []string{"fresh", "holder"}) {
		t.Fatalf("consumers after New's check: %v; want the idle empty one removed", got)
	}
	if s := pruner.Stats(); s.ConsumersRemoved != 1 {
		t.Fatalf("stats %+v; want one consumer removed", s)
	}
	if err := holder.Touch(ctx, held); err != nil {
		t.Fatalf("the kept consumer's touch: %v", err)
	}
	if _, err := redisqueue.New(ctx, rdb, redisqueue.WithConsumerIdle(0)); err == nil {
		t.Fatal("a zero consumer idle bound was accepted")
	}
}

// The removal races the receivers' reads: four receivers read, touch and
// acknowledge entries while they are enqueued, pausing a few milliseconds
// between entries, and a fifth removes every consumer idle for more than
// 1 ms and holding nothing, as fast as it can. Consumers are removed while
// in use (between reads, and while blocked in a read), yet every entry is
// handed out exactly once, every touch finds its entry still pending, and
// nothing is left in the stream or the pending list: no entry is dropped
// with its consumer. (Next runs on the test's context throughout: an
// entry whose read was cut short by a caller's deadline would wait for the
// visibility timeout, which is another matter.)
func TestConsumerRemovalRacesClaims(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	rdb := client(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const events, readers = 400, 4
	opts := []redisqueue.Option{redisqueue.WithConsumerIdle(time.Millisecond), redisqueue.WithVisibilityTimeout(time.Minute),
		redisqueue.WithLogger(slog.New(slog.DiscardHandler))}
	pruner := newQueue(t, client(t, addr), append(opts, redisqueue.WithConsumer("pruner"))...)
	var (
		mu      sync.Mutex
		handed  = map[string]int{}
		acked   atomic.Int32
		removed atomic.Int64
		failed  = make(chan string, readers)
		wg      sync.WaitGroup
	)
	var qs []*redisqueue.Queue
	for r := range readers {
		q := newQueue(t, client(t, addr), append(opts, redisqueue.WithConsumer(fmt.Sprint("reader-", r)))...)
		qs = append(qs, q)
		wg.Go(func() {
			for {
				m, err := q.Next(ctx) // until Close, or the test's deadline
				if err != nil {
					return
				}
				mu.Lock()
				handed[m.ID]++
				mu.Unlock()
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
				if err := q.Touch(ctx, m); err != nil {
					failed <- fmt.Sprintf("touch of %s: %v", m.ID, err)
					return
				}
				if err := q.Ack(ctx, m); err != nil {
					failed <- fmt.Sprintf("ack of %s: %v", m.ID, err)
					return
				}
				acked.Add(1)
				time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
			}
		})
	}
	wg.Go(func() {
		for acked.Load() < events && ctx.Err() == nil {
			n, err := redisqueue.Prune(ctx, pruner)
			if err != nil {
				failed <- err.Error()
				return
			}
			removed.Add(int64(n))
		}
	})
	for i := range events {
		if err := pruner.Enqueue(ctx, queue.Delivery{ID: fmt.Sprint("e", i), Type: "t", Body: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(1000)) * time.Microsecond)
	}
	for acked.Load() < events && ctx.Err() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	for _, q := range qs {
		_ = q.Close()
	}
	wg.Wait()
	close(failed)
	for f := range failed {
		t.Error(f)
	}
	twice := 0
	for _, n := range handed {
		if n > 1 {
			twice++
		}
	}
	after := context.Background()
	pending, err := rdb.XPending(after, redisqueue.DefaultStream, redisqueue.DefaultGroup).Result()
	if err != nil {
		t.Fatal(err)
	}
	left := rdb.XLen(after, redisqueue.DefaultStream).Val()
	t.Logf("%d events, %d handed out, %d twice, %d acknowledged, %d consumers removed meanwhile, %d entries left, %d pending",
		events, len(handed), twice, acked.Load(), removed.Load(), left, pending.Count)
	if len(handed) != events || twice != 0 || acked.Load() != events || left != 0 || pending.Count != 0 {
		t.Fatal("an entry was lost, orphaned or handed out twice")
	}
	if removed.Load() == 0 {
		t.Fatal("no consumer was removed while the receivers read: the race was not run")
	}
}
