package redisqueue_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

const (
	// ackConcurrency is how many deliveries the platform has in flight at
	// once.
	ackConcurrency = 64
	// ackRounds is how many rounds each side's deliveries are split into.
	ackRounds = 8
)

// BenchmarkAckPath measures what the e-signing platform waits on when it
// delivers a webhook to a receiver built with (*Verifier).AsyncHandler on
// redisqueue and redisdedup: the signature verified, the event enqueued
// (one Lua script: EXISTS, XADD, SET) and 202 answered. The queue's enqueue
// is idempotent for longer than the claim's ttl, so the handler makes no
// dedup claim: one round trip per delivery. The floor is the least such a receiver can do: the same HMAC
// verification (a Verifier with WithDedup(nil), calling Verify), one raw
// XADD with go-redis, and 202. A third side, "plain", is what the receiver
// did before its enqueue became a script and the dedup: a redisdedup claim
// (SET NX), then one raw XADD.
//
// b.N is the number of deliveries on each side. 64 goroutines send them
// through ServeHTTP in process, each with its own event id; both sides run
// against one fresh redis-server, each with its own client, interleaved in
// rounds, in random order within each round, so that machine noise hits
// both alike. The floor and the plain side have no consumer; so that the
// contender is timed on the same work, its one worker holds the first
// entry of a round (its fn waits) and drains the stream between rounds,
// with the timer stopped: the consumer's reads, checks and
// acknowledgements (three round trips an event) would otherwise share the
// two cores and Redis with the contender's deliveries alone.
//
// Reported: the contender's deliveries per second (what one stream on one
// redis-server takes at this concurrency), its throughput as a multiple of
// the floor's and of the plain side's, the p99 latency of one ServeHTTP on each side, and the
// ratio of the contender's p99 to the floor's. ns/op and allocs/op count
// one delivery on each side.
func BenchmarkAckPath(b *testing.B) {
	addr := redistest.Start(b)
	tag := fmt.Sprintf("bench-%016x", rand.Uint64())
	pc := client(b, addr) // one client for its claims and XADDs, as the contender has
	sides := []*ackSide{
		newAckContender(b, client(b, addr), tag, nil, nil),
		newAckFloor(b, client(b, addr), "{"+tag+"}:floor", nil),
		newAckFloor(b, pc, "{"+tag+"}:plain", redisdedup.New(pc, redisdedup.WithPrefix(tag+":plain:"))),
	}
	runAckRounds(b, sides)
	contender, floor, plain := sides[0], sides[1], sides[2]
	b.ReportMetric(float64(b.N)/contender.elapsed.Seconds(), "deliveries/s")
	b.ReportMetric(float64(floor.elapsed)/float64(contender.elapsed), "throughput×floor")
	b.ReportMetric(float64(plain.elapsed)/float64(contender.elapsed), "throughput×plain")
	b.ReportMetric(ms(p99(contender.lat)), "p99-ms")
	b.ReportMetric(ms(p99(floor.lat)), "floor-p99-ms")
	b.ReportMetric(ms(p99(plain.lat)), "plain-p99-ms")
	b.ReportMetric(float64(p99(contender.lat))/float64(p99(floor.lat)), "p99×floor")
}

// runAckRounds sends b.N deliveries through each of sides, interleaved in
// ackRounds rounds, in random order within each round; only the sides' run
// is timed, not their settle.
func runAckRounds(b *testing.B, sides []*ackSide) {
	b.ReportAllocs()
	b.ResetTimer()
	b.StopTimer()
	for r := range ackRounds {
		lo, hi := b.N*r/ackRounds, b.N*(r+1)/ackRounds
		if lo == hi {
			continue
		}
		for _, i := range rand.Perm(len(sides)) {
			s := sides[i]
			reqs := ackDeliveries(lo, hi)
			b.StartTimer()
			s.run(b, reqs)
			b.StopTimer()
			s.settle(b)
		}
	}
}

// ackSide is one of the receivers BenchmarkAckPath compares, with what it
// measured.
type ackSide struct {
	name   string
	h      http.Handler
	settle func(testing.TB) // waits, untimed, for its work after the 202s

	lat     []time.Duration // of each delivery's ServeHTTP
	elapsed time.Duration   // wall time of its rounds
}

// run sends reqs through s.h from ackConcurrency goroutines, and records
// each delivery's latency and the round's wall time. Every delivery must be
// answered 202.
func (s *ackSide) run(b *testing.B, reqs []*http.Request) {
	lat := make([]time.Duration, len(reqs))
	answers := make([]*httptest.ResponseRecorder, len(reqs))
	var next atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range ackConcurrency {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(reqs); i = int(next.Add(1)) - 1 {
				w := httptest.NewRecorder()
				t0 := time.Now()
				s.h.ServeHTTP(w, reqs[i])
				lat[i] = time.Since(t0)
				answers[i] = w
			}
		})
	}
	wg.Wait()
	s.elapsed += time.Since(start)
	for i, w := range answers {
		if w.Code != http.StatusAccepted {
			b.Fatalf("%s: delivery %d of the round answered %d, want 202: %s", s.name, i, w.Code, w.Body)
		}
	}
	s.lat = append(s.lat, lat...)
}

// ackDeliveries are signed deliveries of events lo to hi-1, each with its
// own event id.
func ackDeliveries(lo, hi int) []*http.Request {
	reqs := make([]*http.Request, 0, hi-lo)
	for i := lo; i < hi; i++ {
		reqs = append(reqs, delivery(i, fleetUUID(i)))
	}
	return reqs
}

// newAckContender is an AsyncHandler on a redisqueue.Queue and a
// redisdedup.Store whose keys start with tag, with one worker and a no-op
// fn; it is shut down at cleanup. Its settle waits until the worker has
// acknowledged every entry. qopts and dopts are more options of the queue
// and the store.
func newAckContender(b *testing.B, rdb *redis.Client, tag string, qopts []redisqueue.Option, dopts []redisdedup.Option) *ackSide {
	ctx := context.Background()
	dopts = append([]redisdedup.Option{redisdedup.WithPrefix(tag + ":claim:")}, dopts...)
	v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(redisdedup.New(rdb, dopts...)))
	if err != nil {
		b.Fatal(err)
	}
	stream := "{" + tag + "}:events"
	qopts = append([]redisqueue.Option{redisqueue.WithStreams(stream, "{"+tag+"}:dead"),
		redisqueue.WithConsumer("bench"), redisqueue.WithBlock(100 * time.Millisecond)}, qopts...)
	q, err := redisqueue.New(ctx, rdb, qopts...)
	if err != nil {
		b.Fatal(err)
	}
	var hold gate
	h := v.AsyncHandler(q, func(ctx context.Context, _ *webhooks.Event) error {
		return hold.wait(ctx)
	}, webhooks.WithWorkers(1))
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if left, err := h.Shutdown(ctx); err != nil || left != nil {
			b.Errorf("Shutdown: %v, %v", left, err)
		}
	})
	b.Cleanup(hold.open) // before Shutdown: cleanups run last first
	settle := func(tb testing.TB) {
		hold.open()
		defer hold.close()
		deadline := time.Now().Add(30 * time.Second)
		for {
			n, err := rdb.XLen(ctx, stream).Result()
			switch {
			case err != nil:
				tb.Fatal(err)
			case n == 0:
				return
			case time.Now().After(deadline):
				tb.Fatalf("%d entries left in the stream", n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	return &ackSide{name: "AsyncHandler", h: h, settle: settle}
}

// gate holds the contender's worker while a round is timed: wait blocks
// until open (or ctx ends); close makes the next wait block again. The zero
// gate is closed.
type gate struct {
	mu sync.Mutex
	ch chan struct{} // closed when open; nil: not made yet
}

func (g *gate) chanLocked() chan struct{} {
	if g.ch == nil {
		g.ch = make(chan struct{})
	}
	return g.ch
}

func (g *gate) wait(ctx context.Context) error {
	g.mu.Lock()
	ch := g.chanLocked()
	g.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.chanLocked():
	default:
		close(g.ch)
	}
}

func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ch = make(chan struct{})
}

// newAckFloor verifies a delivery with a Verifier whose dedup store is
// store (nil: none, the floor), adds it to stream with one XADD and answers
// 202.
func newAckFloor(b *testing.B, rdb *redis.Client, stream string, store dedup.Store) *ackSide {
	name := "floor"
	if store != nil {
		name = "plain"
	}
	v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(store))
	if err != nil {
		b.Fatal(err)
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhooks.DefaultMaxBodyBytes))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		ev, err := v.Verify(r.Context(), r.Header, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		err = rdb.XAdd(r.Context(), &redis.XAddArgs{
			Stream: stream, Values: []any{"id", ev.ID, "type", string(ev.Type), "body", []byte(ev.Raw)},
		}).Err()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	return &ackSide{name: name, h: h, settle: func(testing.TB) {}}
}

// p99 is the 99th percentile of lat, nearest rank.
func p99(lat []time.Duration) time.Duration {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[(len(s)*99+99)/100-1]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
