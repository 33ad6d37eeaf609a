package redisqueue_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// The replicated fleet tests run three receivers (AsyncHandler on
// redisqueue and redisdedup, each behind its own HTTP server) on a Redis
// Cluster of three primaries with a replica each, or on a primary and a
// replica under three Sentinels, while a simulated platform delivers signed
// events over HTTP and sends each again after a non-2xx answer or a
// timeout (1 s), never after a 2xx. Mid-run the stream's shard fails over.
// fn counts its runs in the test's memory, with the event's Handouts, so
// the test counts effects. Each run prints a line in the chaos tests'
// format (": chaos [", which .ci/run shows) with its seed
// (SIGNKIT_CHAOS_SEED repeats a plan), the events lost after a 2xx, those
// run twice, and the 500s the platform got.

const (
	replEvents = 300
	replRate   = 100 // new events per second
	// replWork is how long fn takes: the twelve workers handle 80 events a
	// second, fewer than come, so that a backlog waits in the stream when
	// the primary fails, as it does when a fleet falls behind.
	replWork       = 150 * time.Millisecond
	replWait       = 300 * time.Millisecond
	replVisibility = time.Second
)

// topology is a replicated Redis and how to reach it and fail it over.
type topology struct {
	name      string
	cluster   *redistest.Cluster
	sentinel  *redistest.Sentinel
	newClient func() redis.UniversalClient
}

func clusterTopology(t *testing.T) *topology {
	c := redistest.StartCluster(t)
	return &topology{name: "cluster", cluster: c, newClient: func() redis.UniversalClient {
		return redis.NewClusterClient(&redis.ClusterOptions{
			Addrs: c.Addrs(), ReadTimeout: time.Second, WriteTimeout: time.Second, DialTimeout: 300 * time.Millisecond,
			MaxRetries: 1, ClusterStateReloadInterval: time.Second,
		})
	}}
}

func sentinelTopology(t *testing.T) *topology {
	s := redistest.StartSentinel(t)
	return &topology{name: "sentinel", sentinel: s, newClient: func() redis.UniversalClient {
		return redis.NewFailoverClient(&redis.FailoverOptions{
			MasterName: redistest.SentinelMaster, SentinelAddrs: s.SentinelAddrs(),
			ReadTimeout: time.Second, WriteTimeout: time.Second, DialTimeout: 300 * time.Millisecond, MaxRetries: 1,
		})
	}}
}

// shard returns the stream's primary and its replica.
func (tp *topology) shard(ctx context.Context) (primary, replica *redistest.Server, err error) {
	if tp.cluster != nil {
		return tp.cluster.Shard(ctx, redisqueue.DefaultStream)
	}
	for _, s := range []*redistest.Server{tp.sentinel.Primary, tp.sentinel.Replica} {
		if role, err := redistest.Role(ctx, s); err == nil && role == "master" {
			primary = s
		} else {
			replica = s
		}
	}
	return primary, replica, nil
}

// waitPromoted waits until s serves the stream as its primary.
func (tp *topology) waitPromoted(ctx context.Context, s *redistest.Server) error {
	if tp.cluster != nil {
		return tp.cluster.WaitPrimary(ctx, s, redisqueue.DefaultStream)
	}
	return tp.sentinel.WaitPrimary(ctx, s)
}

// replRun is one run of the fleet on a topology.
type replRun struct {
	t        *testing.T
	name     string
	seed     uint64
	rng      *rand.Rand
	tp       *topology
	replicas bool
	urls     []string
	handlers []*webhooks.AsyncHandler

	mu        sync.Mutex
	runs      map[string][]int // event id → the Handouts of each run of fn
	ok        []bool
	ids       []string
	first500  time.Time
	last500   time.Time
	non2xx    int
	delivered atomic.Int64
	lastRun   atomic.Int64 // unix nanoseconds of fn's last run
}

func newReplRun(t *testing.T, tp *topology, fault string, replicas bool) *replRun {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("SIGNKIT_CHAOS_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("SIGNKIT_CHAOS_SEED=%q: %v", s, err)
		}
		seed = n
	}
	name := fmt.Sprintf("%s: %s, without WithReplicas", tp.name, fault)
	if replicas {
		name = fmt.Sprintf("%s: %s, WithReplicas(1, %v)", tp.name, fault, replWait)
	}
	r := &replRun{t: t, name: name, seed: seed, rng: rand.New(rand.NewPCG(seed, 35)), tp: tp, replicas: replicas,
		runs: map[string][]int{}, ok: make([]bool, replEvents)}
	for i := range replEvents {
		r.ids = append(r.ids, chaosID(seed, i))
	}
	for i := range 3 {
		r.startReceiver(fmt.Sprintf("r%d", i+1))
	}
	return r
}

func (r *replRun) logf(format string, args ...any) {
	r.t.Helper()
	r.t.Logf("chaos [%s] "+format, append([]any{r.name}, args...)...)
}

// startReceiver starts one receiver: its own client, dedup store, queue,
// AsyncHandler and HTTP server.
func (r *replRun) startReceiver(name string) {
	t := r.t
	rdb := r.tp.newClient()
	t.Cleanup(func() { rdb.Close() })
	var dopts []redisdedup.Option
	qopts := []redisqueue.Option{redisqueue.WithConsumer(name), redisqueue.WithVisibilityTimeout(replVisibility),
		redisqueue.WithBlock(100 * time.Millisecond)}
	if r.replicas {
		dopts = append(dopts, redisdedup.WithReplicas(1, replWait))
		qopts = append(qopts, redisqueue.WithReplicas(1, replWait))
	}
	v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(redisdedup.New(rdb, dopts...)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	q, err := redisqueue.New(ctx, rdb, qopts...)
	if err != nil {
		t.Fatal(err)
	}
	h := v.AsyncHandler(q, func(_ context.Context, ev *webhooks.Event) error {
		time.Sleep(replWork)
		r.mu.Lock()
		r.runs[ev.ID] = append(r.runs[ev.ID], ev.Handouts)
		r.mu.Unlock()
		r.lastRun.Store(time.Now().UnixNano())
		return nil
	}, webhooks.WithWorkers(4), webhooks.WithMaxAttempts(50), webhooks.WithBackoff(5*time.Millisecond, 100*time.Millisecond))
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		short, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, _ = h.Shutdown(short)
		srv.Close()
	})
	r.urls = append(r.urls, srv.URL+"/webhooks")
	r.handlers = append(r.handlers, h)
}

// run delivers every event while fault runs once a drawn share of them got
// a 2xx, then waits until the receivers are quiet, and returns the counts.
func (r *replRun) run(fault func(ctx context.Context) error) replCounts {
	start := time.Now()
	at := int64(replEvents * (25 + r.rng.IntN(15)) / 100)
	r.logf("seed=%d (SIGNKIT_CHAOS_SEED=%d repeats the plan); %d events; the fault starts after %d got a 2xx",
		r.seed, r.seed, replEvents, at)
	faultDone := make(chan error, 1)
	go func() {
		for r.delivered.Load() < at {
			time.Sleep(2 * time.Millisecond)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		faultDone <- fault(ctx)
	}()
	r.deliverAll()
	if err := <-faultDone; err != nil {
		r.t.Fatalf("fault: %v", err)
	}
	r.waitQuiet()
	c := r.tally()
	r.mu.Lock()
	window := time.Duration(0)
	if r.non2xx > 0 {
		window = r.last500.Sub(r.first500)
	}
	r.logf("%d events got a 2xx; %d lost after a 2xx, %d run twice (%d of them with Handouts > 1), %d run more than twice; "+
		"%d non-2xx answers, from the first to the last %v; run took %v",
		c.acked, c.lost, c.twice, c.twiceHandedAgain, c.more, r.non2xx, window.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	r.mu.Unlock()
	return c
}

// deliverAll sends every event from 24 concurrent senders until it gets a
// 2xx, spreading attempts over the receivers, new events at replRate per
// second.
func (r *replRun) deliverAll() { deliverPaced(replEvents, replRate, r.deliver) }

func (r *replRun) deliver(client *http.Client, i int) {
	deadline := time.Now().Add(90 * time.Second)
	for try := 0; time.Now().Before(deadline); try++ {
		if r.post(client, r.urls[(i+try)%len(r.urls)], i) {
			r.mu.Lock()
			r.ok[i] = true
			r.mu.Unlock()
			r.delivered.Add(1)
			return
		}
		time.Sleep(time.Duration(50+(i*7+try*13)%100) * time.Millisecond) // the platform's retry, shortened
	}
}

// post sends event i once; true on a 2xx.
func (r *replRun) post(client *http.Client, url string, i int) bool {
	in := delivery(i, r.ids[i])
	body, _ := io.ReadAll(in.Body)
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		r.t.Error(err)
		return false
	}
	req.Header = in.Header
	resp, err := client.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode/100 == 2 {
			return true
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if r.non2xx == 0 {
		r.first500 = now
	}
	r.non2xx++
	r.last500 = now
	return false
}

// waitQuiet waits until fn has not run for two and a half visibility timeouts
// (a late takeover would run within two), at most 60 s.
func (r *replRun) waitQuiet() {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if time.Since(time.Unix(0, r.lastRun.Load())) > 5*replVisibility/2 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.logf("the receivers were still busy after 60 s")
}

// replCounts are the counts of a run.
type replCounts struct {
	acked, lost, twice, twiceHandedAgain, more int
	// firstTwice lists events run more than once with Handouts 1 more
	// than once: handed out anew, not taken over.
	firstTwice []string
	lostIDs    []string
}

func (r *replRun) tally() replCounts {
	r.mu.Lock()
	defer r.mu.Unlock()
	var c replCounts
	for i, id := range r.ids {
		if !r.ok[i] {
			continue
		}
		c.acked++
		runs := r.runs[id]
		firsts := 0
		for _, h := range runs {
			if h <= 1 {
				firsts++
			}
		}
		switch {
		case len(runs) == 0:
			c.lost++
			c.lostIDs = append(c.lostIDs, id)
		case len(runs) == 2:
			c.twice++
		case len(runs) > 2:
			c.more++
		}
		if len(runs) > 1 && firsts < len(runs) {
			c.twiceHandedAgain++
		}
		if firsts > 1 {
			c.firstTwice = append(c.firstTwice, fmt.Sprintf("%s%v", id, runs))
		}
	}
	return c
}

// check asserts what WithReplicas promises: every event got a 2xx, none
// is lost, and an event runs again only when handed out again (Handouts
// > 1).
func (r *replRun) check(c replCounts) {
	r.t.Helper()
	if c.acked != replEvents || c.lost > 0 || len(c.firstTwice) > 0 {
		r.t.Errorf("2xx'd %d of %d; lost after a 2xx %v; run more than once with Handouts 1: %v",
			c.acked, replEvents, c.lostIDs, c.firstTwice)
	}
}

// linkCutThenKill cuts the replica's link to the stream's primary for a
// second, kills the primary (kill -9), waits for the replica's promotion,
// and starts the old primary again, which rejoins as a replica.
func (r *replRun) linkCutThenKill(ctx context.Context) error {
	primary, replica, err := r.tp.shard(ctx)
	if err != nil {
		return err
	}
	restore, err := redistest.CutLink(ctx, replica)
	if err != nil {
		return err
	}
	time.Sleep(time.Second)
	primary.Kill()
	killed, atKill := time.Now(), r.delivered.Load()
	if err := r.tp.waitPromoted(ctx, replica); err != nil {
		return err
	}
	promoted := time.Since(killed)
	if err := restore(ctx); err != nil {
		return err
	}
	if err := primary.Start(); err != nil {
		return err
	}
	if err := redistest.WaitReplicaOf(ctx, primary, replica); err != nil {
		return err
	}
	r.logf("replica link cut for 1 s, then the primary killed (kill -9) after %d events got a 2xx; replica promoted after %v; "+
		"the old primary in sync as its replica after %v", atKill, promoted.Round(time.Millisecond),
		time.Since(killed).Round(time.Millisecond))
	return nil
}

// TestClusterLinkCutThenKill: WithReplicas(1, …) on Cluster; the stream's
// replica lags (its link cut for 1 s), then its primary is killed: nothing
// answered 2xx is lost, and an event runs twice only when handed out again.
func TestClusterLinkCutThenKill(t *testing.T) {
	r := newReplRun(t, clusterTopology(t), "replica link cut, then primary kill -9", true)
	r.check(r.run(r.linkCutThenKill))
}

// TestClusterLinkCutThenKillWithoutReplicas: the same without WithReplicas; the
// counts are printed, not asserted
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md states
// them).
func TestClusterLinkCutThenKillWithoutReplicas(t *testing.T) {
	r := newReplRun(t, clusterTopology(t), "replica link cut, then primary kill -9", false)
	r.run(r.linkCutThenKill)
}

// TestClusterStall: WithReplicas(1, …) on Cluster; the stream's primary
// stalls (SIGSTOP) until its replica is promoted, then resumes and rejoins
// as a replica, discarding what it accepted meanwhile.
func TestClusterStall(t *testing.T) {
	r := newReplRun(t, clusterTopology(t), "primary stalled (SIGSTOP) until failover, then resumed", true)
	r.check(r.run(func(ctx context.Context) error {
		primary, replica, err := r.tp.shard(ctx)
		if err != nil {
			return err
		}
		if err := primary.Pause(); err != nil {
			return err
		}
		stalled, atStall := time.Now(), r.delivered.Load()
		if err := r.tp.waitPromoted(ctx, replica); err != nil {
			_ = primary.Resume()
			return err
		}
		promoted := time.Since(stalled)
		if err := primary.Resume(); err != nil {
			return err
		}
		if err := redistest.WaitReplicaOf(ctx, primary, replica); err != nil {
			return err
		}
		r.logf("primary stalled after %d events got a 2xx; replica promoted after %v; the old primary in sync as its replica after %v",
			atStall, promoted.Round(time.Millisecond), time.Since(stalled).Round(time.Millisecond))
		return nil
	}))
}

// TestClusterSlotMigration: WithReplicas(1, …) on Cluster; the stream's
// slot moves to another primary mid-run, ten keys at a time.
func TestClusterSlotMigration(t *testing.T) {
	r := newReplRun(t, clusterTopology(t), "stream's slot migrated", true)
	r.check(r.run(func(ctx context.Context) error {
		from, _, err := r.tp.shard(ctx)
		if err != nil {
			return err
		}
		var to *redistest.Server
		for _, n := range r.tp.cluster.Nodes {
			if role, _ := redistest.Role(ctx, n); role == "master" && n != from {
				to = n
				break
			}
		}
		began, atStart := time.Now(), r.delivered.Load()
		if err := r.tp.cluster.MigrateSlot(ctx, redisqueue.DefaultStream, to, 5*time.Millisecond); err != nil {
			return err
		}
		r.logf("slot %d migrated from %s to %s after %d events got a 2xx, in %v", redistest.Slot(redisqueue.DefaultStream),
			from.Addr, to.Addr, atStart, time.Since(began).Round(time.Millisecond))
		return nil
	}))
}

// TestSentinelLinkCutThenKill: WithReplicas(1, …) under Sentinel; the
// replica lags (its link cut for 1 s), then the primary is killed.
func TestSentinelLinkCutThenKill(t *testing.T) {
	r := newReplRun(t, sentinelTopology(t), "replica link cut, then primary kill -9", true)
	r.check(r.run(r.linkCutThenKill))
}

// TestSentinelLinkCutThenKillWithoutReplicas: the same without
// WithReplicas; the counts are printed, not asserted.
func TestSentinelLinkCutThenKillWithoutReplicas(t *testing.T) {
	r := newReplRun(t, sentinelTopology(t), "replica link cut, then primary kill -9", false)
	r.run(r.linkCutThenKill)
}
