package redisqueue_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// lockedLog is a log buffer that several goroutines may write.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// asyncReceiver is a verifier, a queue and its handler on one client.
func asyncReceiver(t *testing.T, rdb redis.UniversalClient, name string, fn func(context.Context, *webhooks.Event) error,
	qopts []redisqueue.Option, hopts ...webhooks.AsyncOption) (*webhooks.AsyncHandler, *redisqueue.Queue) {
	t.Helper()
	v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(redisdedup.New(rdb)))
	if err != nil {
		t.Fatal(err)
	}
	qopts = append([]redisqueue.Option{redisqueue.WithConsumer(name), redisqueue.WithBlock(20 * time.Millisecond)}, qopts...)
	q, err := redisqueue.New(context.Background(), rdb, qopts...)
	if err != nil {
		t.Fatal(err)
	}
	return v.AsyncHandler(q, fn, hopts...), q
}

func send(t *testing.T, h http.Handler, i int) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, delivery(i, fleetUUID(i)))
	if w.Code != http.StatusAccepted {
		t.Fatalf("delivery %d: %d", i, w.Code)
	}
}

func shutdownAll(t *testing.T, hs ...*webhooks.AsyncHandler) {
	t.Helper()
	var wg sync.WaitGroup
	for _, h := range hs {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if _, err := h.Shutdown(ctx); err != nil {
				t.Errorf("Shutdown: %v", err)
			}
		})
	}
	wg.Wait()
}

// A run of fn three times longer than the visibility timeout keeps its
// entry: the heartbeat touches it meanwhile, and the other receiver never
// takes it over.
func TestHeartbeatOutlastsVisibilityTimeout(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	var calls atomic.Int32
	fn := func(context.Context, *webhooks.Event) error {
		calls.Add(1)
		time.Sleep(2400 * time.Millisecond)
		return nil
	}
	vis := []redisqueue.Option{redisqueue.WithVisibilityTimeout(800 * time.Millisecond)}
	a, _ := asyncReceiver(t, client(t, addr), "a", fn, vis)
	b, qb := asyncReceiver(t, client(t, addr), "b", fn, vis)
	send(t, a, 1)
	time.Sleep(3 * time.Second)
	shutdownAll(t, a, b)
	if calls.Load() != 1 || qb.Stats().TakenOver != 0 {
		t.Fatalf("fn ran %d times, b took over %d entries; want one run, no takeover", calls.Load(), qb.Stats().TakenOver)
	}
}

// Another consumer claims the entry while fn runs (as a receiver would
// after a long stall of this one): the heartbeat reports the claim lost,
// fn's context ends with cause queue.ErrClaimLost, and the worker neither
// retries nor dead-letters the event.
func TestLostClaimStopsTheWorker(t *testing.T) {
	t.Parallel()
	rdb := client(t, redistest.Start(t))
	ctx := context.Background()
	log := &lockedLog{}
	var calls atomic.Int32
	cause := make(chan error, 1)
	fn := func(ctx context.Context, _ *webhooks.Event) error {
		calls.Add(1)
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return context.Cause(ctx)
	}
	a, q := asyncReceiver(t, rdb, "a", fn,
		[]redisqueue.Option{redisqueue.WithVisibilityTimeout(300 * time.Millisecond), redisqueue.WithLogger(slog.New(slog.NewTextHandler(log, nil)))},
		webhooks.WithBackoff(time.Millisecond, time.Millisecond))
	send(t, a, 1)
	var key string
	waitFleet(t, func() bool {
		pend := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: redisqueue.DefaultStream, Group: redisqueue.DefaultGroup,
			Start: "-", End: "+", Count: 1}).Val()
		if len(pend) == 1 {
			key = pend[0].ID
		}
		return key != "" && calls.Load() == 1
	})
	if err := rdb.XClaim(ctx, &redis.XClaimArgs{Stream: redisqueue.DefaultStream, Group: redisqueue.DefaultGroup,
		Consumer: "thief", Messages: []string{key}}).Err(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-cause:
		if !errors.Is(err, queue.ErrClaimLost) {
			t.Fatalf("fn's context ended with %v; want ErrClaimLost", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("fn's context did not end after the claim was lost")
	}
	time.Sleep(200 * time.Millisecond) // a retry would come after 1 ms
	shutdownAll(t, a)
	dead, _ := q.DeadLetters(ctx, 10)
	pend := rdb.XPendingExt(ctx, &redis.XPendingExtArgs{Stream: redisqueue.DefaultStream, Group: redisqueue.DefaultGroup,
		Start: "-", End: "+", Count: 10}).Val()
	if calls.Load() != 1 || len(dead) != 0 || len(pend) != 1 || pend[0].Consumer != "thief" || q.Stats().LostClaims != 1 {
		t.Fatalf("calls %d, dead letters %v, pending %+v, stats %+v; want one call, the entry left with the thief",
			calls.Load(), dead, pend, q.Stats())
	}
}

// The reply to the acknowledgement is lost and the client does not retry:
// the worker tries the ack again while it holds the claim, so the entry is
// acknowledged, its event recorded done, and fn runs once. (Without the
// retry the entry would stay pending until the visibility timeout, 30 s
// here, and then run again.)
func TestLostAckReplyIsRetried(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	var armed atomic.Bool
	proxy := redisproxy.Start(t, addr, func(names []string) bool {
		return armed.Load() && names[0] == "EVALSHA" && armed.CompareAndSwap(true, false)
	})
	rdb := redis.NewClient(&redis.Options{Addr: proxy.Addr(), MaxRetries: -1})
	t.Cleanup(func() { _ = rdb.Close() })
	var calls atomic.Int32
	fn := func(_ context.Context, ev *webhooks.Event) error {
		calls.Add(1)
		// Event 1's ack is the next script. Event 0 came first, so that
		// Redis knows the scripts and runs the EVALSHA whose reply is lost.
		armed.Store(ev.ID == fleetUUID(1))
		return nil
	}
	vis := []redisqueue.Option{redisqueue.WithVisibilityTimeout(30 * time.Second)}
	a, _ := asyncReceiver(t, rdb, "a", fn, vis)
	direct := client(t, addr)
	send(t, a, 0)
	waitFleet(t, func() bool { return direct.XLen(context.Background(), redisqueue.DefaultStream).Val() == 0 })
	send(t, a, 1)
	waitFleet(t, func() bool { return proxy.DroppedTotal() == 1 })
	waitFleet(t, func() bool { return direct.XLen(context.Background(), redisqueue.DefaultStream).Val() == 0 })
	shutdownAll(t, a)
	record := direct.Get(context.Background(), "{signkit:webhooks}:events:event:"+fleetUUID(1)).Val()
	if calls.Load() != 2 || record != "done" || proxy.Dropped()["EVALSHA"] != 1 {
		t.Fatalf("fn ran %d times for two events, record %q, dropped %v; want twice, done, one EVALSHA",
			calls.Load(), record, proxy.Dropped())
	}
}

// An entry taken over from a receiver that stopped carries its hand-out
// count to fn in Event.Handouts.
func TestHandoutsReachFn(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	vis := redisqueue.WithVisibilityTimeout(200 * time.Millisecond)
	crashed := newQueue(t, client(t, addr), vis, redisqueue.WithConsumer("crashed"))
	if err := crashed.Enqueue(context.Background(), queue.Delivery{ID: fleetUUID(7), Type: string(webhooks.CaseFileCompleted),
		Body: []byte(`{"topic":"casefile","eventType":"completed","payload":{"id":7,"status":5}}`)}); err != nil {
		t.Fatal(err)
	}
	next(t, crashed) // handed out, never finished
	handouts := make(chan int, 1)
	b, qb := asyncReceiver(t, client(t, addr), "b", func(_ context.Context, ev *webhooks.Event) error {
		handouts <- ev.Handouts
		return nil
	}, []redisqueue.Option{vis})
	select {
	case n := <-handouts:
		if n != 2 || qb.Stats().TakenOver != 1 {
			t.Fatalf("Handouts %d, taken over %d; want 2, 1", n, qb.Stats().TakenOver)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the entry was not taken over")
	}
	shutdownAll(t, b)
}

// Shutdown gives up while fn runs on the Redis queue: the event is named in
// the error, keeps its claim (the other receiver does not take it over,
// although the visibility timeout passes), and its late success is
// acknowledged.
func TestShutdownKeepsTheClaimOfARunningEvent(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	direct := client(t, addr)
	started, finish := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	fn := func(context.Context, *webhooks.Event) error {
		if calls.Add(1) == 1 {
			close(started)
		}
		<-finish
		return nil
	}
	vis := []redisqueue.Option{redisqueue.WithVisibilityTimeout(600 * time.Millisecond)}
	a, _ := asyncReceiver(t, client(t, addr), "a", fn, vis)
	send(t, a, 1)
	<-started
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	left, err := a.Shutdown(ctx)
	var se *webhooks.ShutdownError
	if !errors.As(err, &se) || len(se.Running) != 1 || se.Running[0] != fleetUUID(1) || len(left) != 0 ||
		!strings.Contains(err.Error(), fleetUUID(1)) {
		t.Fatalf("Shutdown = %v, %v; want the running event named", left, err)
	}
	b, _ := asyncReceiver(t, client(t, addr), "b", fn, vis)
	time.Sleep(1800 * time.Millisecond) // three visibility timeouts
	close(finish)
	waitFleet(t, func() bool { return direct.XLen(context.Background(), redisqueue.DefaultStream).Val() == 0 })
	shutdownAll(t, b)
	if calls.Load() != 1 {
		t.Fatalf("fn ran %d times; want once: the running event kept its claim", calls.Load())
	}
}

// The reply to a dead letter is lost and go-redis sends the script again:
// the second run finds the entry gone but recorded dead-lettered by this
// very hand-out, and answers success, not a lost claim. A later delivery of
// the event adds nothing: it waits in the dead-letter list for Replay.
func TestDeadLetterLostReplyIsNotALostClaim(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	var armed atomic.Bool
	proxy := redisproxy.Start(t, addr, func(names []string) bool {
		return names[0] == "EVALSHA" && armed.CompareAndSwap(true, false)
	})
	rdb := redis.NewClient(&redis.Options{Addr: proxy.Addr(), MaxRetries: 3})
	t.Cleanup(func() { _ = rdb.Close() })
	ctx := context.Background()
	q := newQueue(t, rdb)
	for _, id := range []string{"warm-up", "poison"} { // the first loads the script
		if err := q.Enqueue(ctx, queue.Delivery{ID: id, Type: "t", Body: []byte("{}")}); err != nil {
			t.Fatal(err)
		}
		m := next(t, q)
		armed.Store(id == "poison")
		if err := q.DeadLetter(ctx, m, "boom"); err != nil {
			t.Fatalf("dead letter of %s: %v", id, err)
		}
	}
	dead, err := q.DeadLetters(ctx, 10)
	if proxy.Dropped()["EVALSHA"] != 1 || err != nil || len(dead) != 2 || q.Stats().LostClaims != 0 {
		t.Fatalf("dropped %v, dead letters %+v (%v), stats %+v; want 2 dead letters, no lost claim",
			proxy.Dropped(), dead, err, q.Stats())
	}
	if err := q.Enqueue(ctx, queue.Delivery{ID: "poison", Type: "t", Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if n := client(t, addr).XLen(ctx, redisqueue.DefaultStream).Val(); n != 0 {
		t.Fatalf("a delivery of a dead-lettered event added %d entries; want none", n)
	}
}
