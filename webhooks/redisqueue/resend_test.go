package redisqueue_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redisproxy"
	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// deadLetterRig is a queue whose client reaches Redis through a proxy that,
// once armed, loses the reply to the next script or XDEL after Redis ran it;
// a direct client; and the keys of two dead letters, "warm-up" and
// "target". The caller runs its operation on warm-up first, so that Redis
// knows the script and the lost reply is that of a run, not of a NOSCRIPT.
type deadLetterRig struct {
	q              *redisqueue.Queue
	direct         *redis.Client
	proxy          *redisproxy.Proxy
	armed          *atomic.Bool
	warmUp, target string
}

func newDeadLetterRig(t *testing.T, retries int) *deadLetterRig {
	t.Helper()
	addr := redistest.Start(t)
	r := &deadLetterRig{armed: &atomic.Bool{}, direct: client(t, addr)}
	r.proxy = redisproxy.Start(t, addr, func(names []string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return n == "EVALSHA" || n == "EVAL" || n == "XDEL" }) &&
			r.armed.CompareAndSwap(true, false)
	})
	proxied := redis.NewClient(&redis.Options{Addr: r.proxy.Addr(), MaxRetries: retries})
	t.Cleanup(func() { _ = proxied.Close() })
	r.q = newQueue(t, proxied)
	ctx := context.Background()
	keys := map[string]string{}
	for _, id := range []string{"warm-up", "target"} {
		if err := r.q.Enqueue(ctx, queue.Delivery{ID: id, Type: "t", Body: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if err := r.q.DeadLetter(ctx, next(t, r.q), "boom"); err != nil {
			t.Fatal(err)
		}
	}
	dead, err := r.q.DeadLetters(ctx, 10)
	if err != nil || len(dead) != 2 {
		t.Fatalf("DeadLetters = %+v, %v", dead, err)
	}
	for _, d := range dead {
		keys[d.ID] = d.Key
	}
	r.warmUp, r.target = keys["warm-up"], keys["target"]
	return r
}

// entriesOf counts the entries of stream that carry event id.
func entriesOf(t *testing.T, rdb *redis.Client, stream, id string) int {
	t.Helper()
	xs, err := rdb.XRange(context.Background(), stream, "-", "+").Result()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range xs {
		if x.Values["id"] == id {
			n++
		}
	}
	return n
}

// Replay and Discard whose reply is lost after Redis moved or deleted the
// dead letter: go-redis sends the script again, and the second run must
// answer as the first did (success), not "not found". A later, separate
// call still answers ErrNotFound: the dead letter is gone.
func TestReplayAndDiscardLostReplyResentByClient(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		op        func(*redisqueue.Queue, context.Context, string) error
		inStream  int // entries of the target event in the stream afterwards
		otherCall func(*redisqueue.Queue, context.Context, string) error
	}{
		{"replay", (*redisqueue.Queue).Replay, 1, (*redisqueue.Queue).Discard},
		{"discard", (*redisqueue.Queue).Discard, 0, (*redisqueue.Queue).Replay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newDeadLetterRig(t, 3)
			ctx := context.Background()
			if err := tc.op(r.q, ctx, r.warmUp); err != nil {
				t.Fatal(err)
			}
			r.armed.Store(true)
			err := tc.op(r.q, ctx, r.target)
			if r.proxy.DroppedTotal() != 1 {
				t.Fatalf("the proxy dropped %v; want one reply", r.proxy.Dropped())
			}
			if err != nil {
				t.Fatalf("%s whose reply was lost and re-sent by go-redis: %v; want nil (it was done)", tc.name, err)
			}
			if n := entriesOf(t, r.direct, redisqueue.DefaultStream, "target"); n != tc.inStream {
				t.Fatalf("the stream holds %d entries of the event; want %d", n, tc.inStream)
			}
			if n := r.direct.XLen(ctx, redisqueue.DefaultDeadStream).Val(); n != 0 {
				t.Fatalf("the dead-letter stream holds %d entries; want none", n)
			}
			for _, call := range []func(*redisqueue.Queue, context.Context, string) error{tc.op, tc.otherCall} {
				if err := call(r.q, ctx, r.target); !errors.Is(err, queue.ErrNotFound) {
					t.Fatalf("a later call on the moved dead letter: %v; want ErrNotFound", err)
				}
			}
		})
	}
}

// DeadLetter followed by a Touch of the same hand-out (the heartbeat
// beating once more before the worker lets go of the entry): the entry is
// finished by this very hand-out, not taken over, so Touch must not answer
// ErrClaimLost nor count a lost claim. A touch by an older hand-out of the
// entry (taken over, then dead-lettered by its new holder) still reports the
// claim lost.
func TestTouchAfterOwnDeadLetterIsNoLostClaim(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	vis := redisqueue.WithVisibilityTimeout(100 * time.Millisecond)
	a := newQueue(t, rdb, vis, redisqueue.WithConsumer("a"))
	b := newQueue(t, rdb, vis, redisqueue.WithConsumer("b"))
	for _, id := range []string{"own", "taken"} {
		if err := a.Enqueue(ctx, queue.Delivery{ID: id, Type: "t", Body: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
	}
	own := next(t, a)
	if err := a.DeadLetter(ctx, own, "boom"); err != nil {
		t.Fatal(err)
	}
	if err := a.Touch(ctx, own); err != nil {
		t.Fatalf("touch after this hand-out's own dead letter: %v; want nil", err)
	}
	if s := a.Stats(); s.LostClaims != 0 {
		t.Fatalf("stats %+v; want no lost claim", s)
	}
	held := next(t, a)
	taken := next(t, b) // after the visibility timeout
	if taken.Key != held.Key {
		t.Fatalf("b took %s, not a's %s", taken.Key, held.Key)
	}
	if err := b.DeadLetter(ctx, taken, "boom"); err != nil {
		t.Fatal(err)
	}
	if err := a.Touch(ctx, held); !errors.Is(err, queue.ErrClaimLost) {
		t.Fatalf("a's touch of an entry b took over and dead-lettered: %v; want ErrClaimLost", err)
	}
	if err := a.DeadLetter(ctx, held, "boom"); !errors.Is(err, queue.ErrClaimLost) {
		t.Fatalf("a's dead letter of an entry b took over and dead-lettered: %v; want ErrClaimLost", err)
	}
}

// slowDeadLetter is a queue whose DeadLetter returns only after a few touch
// intervals, as when Redis answers slowly or the dedup release that follows
// takes its time: the worker's heartbeat beats meanwhile.
type slowDeadLetter struct{ *redisqueue.Queue }

func (s slowDeadLetter) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	err := s.Queue.DeadLetter(ctx, m, reason)
	time.Sleep(3 * s.TouchInterval())
	return err
}

// Through the AsyncHandler: an event whose one attempt fails is
// dead-lettered while the heartbeat keeps beating. No "claim lost" may be
// logged and Stats.LostClaims must stay 0.
func TestHeartbeatAfterDeadLetterIsNoLostClaim(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	log := &lockedLog{}
	v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(redisdedup.New(rdb)),
		webhooks.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	if err != nil {
		t.Fatal(err)
	}
	q := newQueue(t, rdb, redisqueue.WithVisibilityTimeout(150*time.Millisecond))
	h := v.AsyncHandler(slowDeadLetter{q}, func(context.Context, *webhooks.Event) error {
		return errors.New("always fails")
	}, webhooks.WithMaxAttempts(1))
	send(t, h, 1)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "event dead-lettered") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	shutdownAll(t, h)
	if l := log.String(); !strings.Contains(l, "event dead-lettered") || strings.Contains(l, "claim lost") ||
		q.Stats().LostClaims != 0 {
		t.Fatalf("stats %+v, log:\n%s\nwant the event dead-lettered and no lost claim", q.Stats(), l)
	}
}
