package redisqueue_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redisproxy"
	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// The chaos tests run the durable receive path as it runs in production:
// three receiver processes (internal/chaosreceiver: AsyncHandler on
// redisqueue and redisdedup), a real redis-server, and a simulated platform
// that delivers signed events over HTTP with the platform's rule: send again
// after a non-2xx answer or a timeout (1 s), never after a 2xx. Faults,
// drawn from a seed that each run prints (SIGNKIT_CHAOS_SEED repeats a
// plan): a TCP proxy between the receivers and Redis loses the reply of a
// few percent of their commands after Redis ran them; one receiver is killed
// with SIGKILL mid-run and started again; redis-server is killed and started
// again. Each receiver's fn records every call of its own in a second
// redis-server that no fault touches, over a connection of its own, so the
// test counts effects, not keys, and a Redis that loses its data does not
// lose the count.

const (
	chaosWorkers    = 4 // per receiver
	chaosVisibility = time.Second
	chaosCalls      = "chaos:calls:"
	chaosRate       = 250 // new events per second
)

// TestChaosPersistentRedis: Redis with appendonly yes and appendfsync
// always. Every event the platform got a 2xx for is processed; the events
// processed twice are at most the killed receiver's worker count, each had
// a call from the killed receiver, none is processed three times, and no
// event is dead-lettered.
func TestChaosPersistentRedis(t *testing.T) {
	r := newChaos(t, "persistent", redistest.Options{AppendOnly: true}, 3000)
	r.killReceiverAt(r.events * (25 + r.rng.IntN(15)) / 100)
	r.restartRedisAt(r.events * (55 + r.rng.IntN(20)) / 100)
	r.run()
	c := r.tally()
	r.logf("%d events got a 2xx; %d counted once, %d counted twice %v, %d counted 0 times, %d more than twice; %d dead letters",
		c.acked, len(c.once), len(c.twice), c.twiceDetail(), len(c.lost), len(c.more), c.dead)
	if len(c.lost) > 0 || len(c.more) > 0 || c.dead > 0 || c.acked != r.events {
		t.Errorf("lost after a 2xx %v; more than twice %v; dead letters %d; 2xx'd %d of %d",
			c.lost, c.more, c.dead, c.acked, r.events)
	}
	if len(c.twice) > chaosWorkers {
		t.Errorf("%d events processed twice; at most %d (the killed receiver's workers) may be", len(c.twice), chaosWorkers)
	}
	for id, names := range c.twice {
		if !slices.Contains(names, r.killedName) {
			t.Errorf("event %s processed twice (%v) without a call from the killed receiver %s", id, names, r.killedName)
		}
	}
}

// TestChaosRedisWithoutPersistence: Redis keeps nothing across its
// restart. The events in Redis at the restart are lost; the test counts
// them. Afterwards the receivers make the consumer group again and every
// event the platform gets a 2xx for is processed. Redis also forgets which
// ids it had enqueued, so an event whose enqueue was under way across the
// restart may be processed twice: its first entry handed out before, the
// second added by the enqueue's retry after (its 2xx comes after the
// restart began). No other event is, and none is dead-lettered.
func TestChaosRedisWithoutPersistence(t *testing.T) {
	r := newChaos(t, "no persistence", redistest.Options{}, 900)
	r.restartRedisAt(r.events * (40 + r.rng.IntN(20)) / 100)
	r.run()
	c := r.tally()
	var lostAfter []string
	for _, id := range c.lost {
		if r.firstOK(id).After(r.redisBackAt) {
			lostAfter = append(lostAfter, id)
		}
	}
	var twiceBefore []string
	for id := range c.twice {
		if r.firstOK(id).Before(r.redisDownAt) {
			twiceBefore = append(twiceBefore, id)
		}
	}
	recreated := r.groupsRecreated()
	r.logf("%d events got a 2xx; %d counted once, %d counted twice %v (enqueue under way across the restart), %d counted 0 times (lost with Redis's data), %d more than twice; %d dead letters; consumer groups made again: %d",
		c.acked, len(c.once), len(c.twice), c.twiceDetail(), len(c.lost), len(c.more), c.dead, recreated)
	if len(lostAfter) > 0 || len(c.more) > 0 || c.acked != r.events || recreated < 1 || c.dead > 0 {
		t.Errorf("lost although 2xx'd after the restart %v; more than twice %v; 2xx'd %d of %d; groups made again %d; dead letters %d",
			lostAfter, c.more, c.acked, r.events, recreated, c.dead)
	}
	if len(twiceBefore) > 0 {
		t.Errorf("processed twice although 2xx'd before the restart: %v", twiceBefore)
	}
}

// chaos is one run: Redis, the proxy, the receivers and the platform.
type chaos struct {
	t       *testing.T
	name    string
	seed    uint64
	rng     *rand.Rand
	events  int
	redis   *redistest.Server
	proxy   *redisproxy.Proxy
	direct  *redis.Client // to the queue's Redis, past the proxy
	counter *redistest.Server
	counts  *redis.Client // to the Redis of the call records
	bin     string
	dir     string // of the receivers' logs
	recv    []*receiverProc
	ids     []string
	results []eventResult

	delivered   atomic.Int64 // events that got a 2xx
	mu          sync.Mutex
	faults      []fault
	killedName  string
	redisDownAt time.Time // when redis-server was killed
	redisBackAt time.Time
}

type fault struct {
	at int // delivered count that triggers it
	do func()
}

type eventResult struct {
	ok        bool
	attempts  int
	firstOKAt time.Time
}

func newChaos(t *testing.T, name string, opts redistest.Options, events int) *chaos {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("SIGNKIT_CHAOS_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("SIGNKIT_CHAOS_SEED=%q: %v", s, err)
		}
		seed = n
	}
	r := &chaos{t: t, name: name, seed: seed, rng: rand.New(rand.NewPCG(seed, 2026)), events: events}
	dropPercent := 1 + r.rng.Float64()*3
	r.logf("seed=%d (SIGNKIT_CHAOS_SEED=%d repeats the plan); %d events; replies lost at the proxy: %.1f%% of the receivers' Redis commands",
		seed, seed, events, dropPercent)
	r.redis = redistest.StartServer(t, opts)
	r.direct = client(t, r.redis.Addr)
	r.counter = redistest.StartServer(t, redistest.Options{})
	r.counts = client(t, r.counter.Addr)
	r.proxy = redisproxy.Start(t, r.redis.Addr, redisproxy.Rate(r.rng.Uint64(), dropPercent))
	r.bin = buildChaosReceiver(t)
	r.dir = t.TempDir()
	for i := range 3 {
		p := &receiverProc{name: fmt.Sprintf("r%d", i+1)}
		t.Cleanup(p.kill)
		if err := p.start(r); err != nil {
			t.Fatal(err)
		}
		r.recv = append(r.recv, p)
	}
	for i := range events {
		r.ids = append(r.ids, chaosID(seed, i))
	}
	r.results = make([]eventResult, events)
	return r
}

// chaosID gives event i an id; the forms vary as the platform's may
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md): UUIDs and
// other dotless printable ids.
func chaosID(seed uint64, i int) string {
	switch i % 3 {
	case 0:
		return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", uint32(seed), i&0xffff, i>>16&0xfff, i&0xfff, seed&0xffffffffffff)
	case 1:
		return fmt.Sprintf("evt_%x_%d", seed, i)
	}
	return fmt.Sprintf("E~%x-%d:%d", seed, i, i*7)
}

func (r *chaos) logf(format string, args ...any) {
	r.t.Helper()
	r.t.Logf("chaos [%s] "+format, append([]any{r.name}, args...)...)
}

// killReceiverAt plans a SIGKILL of a receiver, drawn from the seed, once
// n events got a 2xx, and its restart 200 to 800 ms later.
func (r *chaos) killReceiverAt(n int) {
	p := r.recv[r.rng.IntN(len(r.recv))]
	down := time.Duration(200+r.rng.IntN(600)) * time.Millisecond
	r.killedName = p.name
	r.faults = append(r.faults, fault{at: n, do: func() {
		p.kill()
		r.logf("killed receiver %s (kill -9) after %d events got a 2xx; starting it again in %v", p.name, r.delivered.Load(), down)
		time.Sleep(down)
		p.name += "-restarted"
		if err := p.start(r); err != nil {
			r.t.Errorf("restart of the killed receiver: %v", err)
		}
	}})
}

// restartRedisAt plans a SIGKILL of redis-server and its restart once n
// events got a 2xx.
func (r *chaos) restartRedisAt(n int) {
	r.faults = append(r.faults, fault{at: n, do: func() {
		held := r.direct.XLen(context.Background(), redisqueue.DefaultStream).Val()
		r.mu.Lock()
		r.redisDownAt = time.Now()
		r.mu.Unlock()
		down, err := r.redis.Restart()
		if err != nil {
			r.t.Error(err)
		}
		r.mu.Lock()
		r.redisBackAt = time.Now()
		r.mu.Unlock()
		r.logf("restarted redis-server (kill -9) after %d events got a 2xx, with about %d entries in the stream; down %v",
			r.delivered.Load(), held, down.Round(time.Millisecond))
	}})
}

// run delivers every event as the platform does, fires the planned faults,
// and waits until the receivers have nothing left to do.
func (r *chaos) run() {
	t := r.t
	start := time.Now()
	var faults sync.WaitGroup
	stop := make(chan struct{})
	faults.Go(func() { r.fireFaults(stop) })
	r.deliverAll()
	close(stop)
	faults.Wait()
	r.waitQuiet()
	for _, p := range r.recv {
		if err := p.term(); err != nil {
			t.Errorf("receiver %s: %v", p.name, err)
		}
	}
	attempts := 0
	for _, res := range r.results {
		attempts += res.attempts
	}
	r.logf("delivered in %d attempts within %v; proxy lost %d replies %v", attempts,
		time.Since(start).Round(time.Millisecond), r.proxy.DroppedTotal(), r.proxy.Dropped())
	if t.Failed() {
		for _, p := range r.recv {
			p.dumpLog(t)
		}
	}
}

func (r *chaos) fireFaults(stop <-chan struct{}) {
	slices.SortFunc(r.faults, func(a, b fault) int { return a.at - b.at })
	for _, f := range r.faults {
		for r.delivered.Load() < int64(f.at) {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
		f.do()
	}
}

// deliverAll sends every event from 24 concurrent senders until it gets a
// 2xx, spreading attempts over the receivers as a load balancer would. New
// events start at chaosRate per second, so that the faults fall mid-run
// with the receivers keeping up, as in production.
func (r *chaos) deliverAll() { deliverPaced(r.events, chaosRate, r.deliver) }

// deliverPaced hands events 0 to n-1, rate a second, to 24 concurrent
// senders that each call deliver with the platform's HTTP client (a 1 s
// deadline), and returns once every call returned.
func deliverPaced(n, rate int, deliver func(client *http.Client, i int)) {
	client := &http.Client{Timeout: time.Second} // the platform's deadline
	defer client.CloseIdleConnections()
	next := make(chan int)
	var wg sync.WaitGroup
	for range 24 {
		wg.Go(func() {
			for i := range next {
				deliver(client, i)
			}
		})
	}
	tick := time.NewTicker(time.Second / time.Duration(rate))
	defer tick.Stop()
	for i := range n {
		<-tick.C
		next <- i
	}
	close(next)
	wg.Wait()
}

func (r *chaos) deliver(client *http.Client, i int) {
	res := &r.results[i]
	deadline := time.Now().Add(2 * time.Minute)
	for try := 0; time.Now().Before(deadline); try++ {
		res.attempts++
		p := r.recv[(i+try)%len(r.recv)]
		if p.post(client, r.ids[i], i) {
			res.ok, res.firstOKAt = true, time.Now()
			r.delivered.Add(1)
			return
		}
		time.Sleep(time.Duration(50+(i*7+try*13)%100) * time.Millisecond) // the platform's retry, shortened
	}
}

// waitQuiet waits until the stream holds nothing and the 2xx'd events not
// yet counted (none, unless Redis lost them) stay the same for two
// visibility timeouts, so that a late takeover would show as a count.
func (r *chaos) waitQuiet() {
	ctx := context.Background()
	deadline := time.Now().Add(90 * time.Second)
	last, since := -1, time.Now()
	for time.Now().Before(deadline) {
		missing := 0
		for i, id := range r.ids {
			if r.results[i].ok && r.counts.HLen(ctx, chaosCalls+id).Val() == 0 {
				missing++
			}
		}
		if left := r.direct.XLen(ctx, redisqueue.DefaultStream).Val(); left > 0 || missing != last {
			last, since = missing, time.Now()
		}
		if time.Since(since) > 2*chaosVisibility {
			return
		}
		time.Sleep(250 * time.Millisecond)
	}
	r.logf("the receivers were still busy after 90 s")
}

// tallied are the counts of a run.
type tallied struct {
	acked int
	once  []string
	twice map[string][]string // id → the receivers of its calls
	lost  []string            // 2xx'd, never counted
	more  []string
	dead  int64
}

func (c *tallied) twiceDetail() []string {
	var out []string
	for id, names := range c.twice {
		out = append(out, id+"="+strings.Join(names, "+"))
	}
	slices.Sort(out)
	return out
}

func (r *chaos) tally() *tallied {
	ctx := context.Background()
	c := &tallied{twice: map[string][]string{}}
	for i, id := range r.ids {
		calls := r.counts.HGetAll(ctx, chaosCalls+id).Val()
		var names []string
		for _, n := range calls {
			names = append(names, n)
		}
		slices.Sort(names)
		switch {
		case !r.results[i].ok:
			continue
		case len(calls) == 0:
			c.lost = append(c.lost, id)
		case len(calls) == 1:
			c.once = append(c.once, id)
		case len(calls) == 2:
			c.twice[id] = names
		default:
			c.more = append(c.more, id+"="+strings.Join(names, "+"))
		}
		c.acked++
	}
	c.dead = r.direct.XLen(ctx, redisqueue.DefaultDeadStream).Val()
	return c
}

func (r *chaos) firstOK(id string) time.Time {
	return r.results[slices.Index(r.ids, id)].firstOKAt
}

// groupsRecreated sums the receivers' Stats.GroupsRecreated, read from
// their logs (they have exited).
func (r *chaos) groupsRecreated() int {
	n := 0
	for _, p := range r.recv {
		for _, f := range p.logs {
			b, _ := os.ReadFile(f)
			n += strings.Count(string(b), "the consumer group was missing")
		}
	}
	return n
}
