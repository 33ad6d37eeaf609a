package redisdedup_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/internal/testkit/fakeclock"
	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/dedup/deduptest"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
)

func newClient(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { c.Close() })
	return c
}

var prefixes atomic.Int64

func TestConformance(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		// Each subtest uses its own keys; two clients play two receivers.
		prefix := redisdedup.WithPrefix(fmt.Sprintf("test:%d:", prefixes.Add(1)))
		return deduptest.Subject{
			Store: redisdedup.New(newClient(t, addr), prefix),
			Peer:  redisdedup.New(newClient(t, addr), prefix),
			TTL:   150 * time.Millisecond,
		}
	})
}

func TestKeysAndTTL(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	c := newClient(t, addr)
	ctx := context.Background()
	s := redisdedup.New(c, redisdedup.WithPrefix("app1:"))
	if ok, err := s.Claim(ctx, "evt", 1500*time.Microsecond); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, err := s.Claim(ctx, "evt2", 10*time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	ttl, err := c.PTTL(ctx, "app1:evt2").Result()
	if err != nil || ttl <= 9*time.Minute || ttl > 10*time.Minute {
		t.Fatalf("PTTL = %v, %v", ttl, err)
	}
	// Another prefix is another namespace.
	other := redisdedup.New(c)
	if ok, err := other.Claim(ctx, "evt2", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if n, err := c.Exists(ctx, redisdedup.DefaultPrefix+"evt2").Result(); n != 1 || err != nil {
		t.Fatal(n, err)
	}
}

// A store error reaches the caller wrapped, never showing a claim's token,
// and a release that failed leaves the claim live so that it can be retried.
func TestStoreError(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	s := redisdedup.New(c)
	if ok, err := s.Claim(context.Background(), "held", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	c.Close()
	_, err := s.Claim(context.Background(), "evt", time.Minute)
	if !errors.Is(err, redis.ErrClosed) {
		t.Fatalf("Claim on a closed client: %v", err)
	}
	err = s.Release(context.Background(), "held")
	if !errors.Is(err, redis.ErrClosed) {
		t.Fatalf("Release of a held claim on a closed client: %v", err)
	}
	token, released, ok := redisdedup.Record(s, "held")
	if token == "" || strings.Contains(err.Error(), token) {
		t.Fatalf("the error shows the claim token %q: %v", token, err)
	}
	if !ok || released {
		t.Fatalf("after a failed release: record %v, released %v; want a live record", ok, released)
	}
	// An id this Store holds no record of is released with DEL in Redis too.
	err = s.Release(context.Background(), "evt")
	if !errors.Is(err, redis.ErrClosed) {
		t.Fatalf("Release of an id not held, on a closed client: %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	lc := newClient(t, addr)
	live := redisdedup.New(lc)
	if _, err := live.Claim(ctx, "evt", time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Claim with a cancelled context: %v", err)
	}
	// A release that failed is retried: the claim is still live, and the
	// retry deletes it.
	claimOK(t, live, "retry", time.Minute, true)
	if err := live.Release(ctx, "retry"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Release with a cancelled context: %v", err)
	}
	if got := keyValue(t, lc, redisdedup.DefaultPrefix+"retry"); got != redisdedup.Token(live, "retry") {
		t.Fatalf("after a failed release the key holds %q, want the claim's token", got)
	}
	releaseOK(t, live, "retry")
	if n, err := lc.Exists(context.Background(), redisdedup.DefaultPrefix+"retry").Result(); n != 0 || err != nil {
		t.Fatalf("after the retried release EXISTS = %d, %v", n, err)
	}
	var _ dedup.Store = live
}

// waitExpired polls until key no longer exists in Redis.
func waitExpired(t *testing.T, c *redis.Client, key string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, err := c.Exists(context.Background(), key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			ttl, _ := c.PTTL(context.Background(), key).Result()
			t.Fatalf("%s still exists after 10s (PTTL %v)", key, ttl)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// scriptCalls is how many EVAL and EVALSHA calls Redis has run.
func scriptCalls(t *testing.T, c *redis.Client) int {
	t.Helper()
	info, err := c.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for line := range strings.Lines(info) {
		name, stats, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || (name != "cmdstat_eval" && name != "cmdstat_evalsha") {
			continue
		}
		for kv := range strings.SplitSeq(stats, ",") {
			if v, ok := strings.CutPrefix(kv, "calls="); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				total += n
			}
		}
	}
	return total
}

func claimOK(t *testing.T, s *redisdedup.Store, id string, ttl time.Duration, want bool) {
	t.Helper()
	ok, err := s.Claim(context.Background(), id, ttl)
	if err != nil || ok != want {
		t.Fatalf("Claim(%q) = %v, %v; want %v", id, ok, err, want)
	}
}

func releaseOK(t *testing.T, s *redisdedup.Store, id string) {
	t.Helper()
	if err := s.Release(context.Background(), id); err != nil {
		t.Fatalf("Release(%q): %v", id, err)
	}
}

func keyValue(t *testing.T, c *redis.Client, key string) string {
	t.Helper()
	v, err := c.Get(context.Background(), key).Result()
	if errors.Is(err, redis.Nil) {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func exists(t *testing.T, c *redis.Client, key string) bool {
	t.Helper()
	n, err := c.Exists(context.Background(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// A receiver whose processing outlives its claim releases late, after the
// key expired and another receiver claimed the id: the late Release must not
// delete the other receiver's claim, or a third delivery would be processed
// too. With the real clock, A sees that its claim expired; with A's clock
// stopped (a slow clock, or a pause between the check and the script), the
// compare-and-delete in Redis must refuse. Either way A keeps its record, so
// that releasing again is still a no-op.
func TestLateReleaseKeepsNewClaim(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		clock        func() time.Time
		wantScript   bool // the late release runs the compare-and-delete
		wantReleased bool // A's record is marked released after it
	}{
		{"ExpiredLocally", time.Now, false, false},
		{"ComparedInRedis", func() time.Time { return time.Unix(1e9, 0) }, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			addr := redistest.Start(t)
			c := newClient(t, addr)
			prefix := redisdedup.WithPrefix("late:")
			a := redisdedup.New(newClient(t, addr), prefix, redisdedup.WithClock(tt.clock))
			b := redisdedup.New(newClient(t, addr), prefix)
			const id, key = "evt", "late:evt"

			// A forgets its record two ttls after its claim, and a release
			// without a record is a plain DEL that would take B's claim: the
			// ttl must outlast the steps below on a loaded machine (50 ms
			// did not, with other packages' tests running beside).
			const ttl = 200 * time.Millisecond
			claimOK(t, a, id, ttl, true)
			claimed := time.Now() // A's deadline is before claimed+ttl
			tokenA := redisdedup.Token(a, id)
			if got := keyValue(t, c, key); got != tokenA || tokenA == "" {
				t.Fatalf("key holds %q, want A's token %q", got, tokenA)
			}
			waitExpired(t, c, key)
			// Redis keeps expiry times in whole milliseconds, so it may drop
			// the key up to a millisecond before A's clock (nanoseconds)
			// reaches A's deadline; a check landing in that gap saw the
			// claim still live (it failed once in CI). Wait past the
			// deadline, so that "expired locally" is what A sees.
			time.Sleep(time.Until(claimed.Add(ttl + 20*time.Millisecond)))
			claimOK(t, b, id, time.Minute, true)
			tokenB := redisdedup.Token(b, id)
			if tokenB == "" || tokenB == tokenA {
				t.Fatalf("B's token %q, A's %q: want a new one", tokenB, tokenA)
			}

			before := scriptCalls(t, c)
			releaseOK(t, a, id) // the late release
			if ran := scriptCalls(t, c) > before; ran != tt.wantScript {
				t.Fatalf("release script ran: %v, want %v", ran, tt.wantScript)
			}
			if got := keyValue(t, c, key); got != tokenB {
				t.Fatalf("after A's late release the key holds %q, want B's token %q", got, tokenB)
			}
			// A keeps its own claim's record, done with, until it is forgotten.
			if token, released, ok := redisdedup.Record(a, id); !ok || token != tokenA || released != tt.wantReleased {
				t.Fatalf("A's record: %v, token %q, released %v; want A's token %q, released %v",
					ok, token, released, tokenA, tt.wantReleased)
			}
			if n, q := redisdedup.Remembered(a); n != 1 || q != 1 {
				t.Fatalf("A remembers %d ids, %d queued; want 1, 1", n, q)
			}

			// Releasing again is still a no-op: no round trip, B's claim stays.
			before = scriptCalls(t, c)
			releaseOK(t, a, id)
			if scriptCalls(t, c) != before {
				t.Fatal("A's second release ran the script")
			}
			if got := keyValue(t, c, key); got != tokenB {
				t.Fatalf("after A's second release the key holds %q, want B's token %q", got, tokenB)
			}
			claimOK(t, a, id, time.Minute, false)
			claimOK(t, redisdedup.New(c, prefix), id, time.Minute, false)
			if token := redisdedup.Token(a, id); token != tokenA {
				t.Fatalf("A's refused claim changed its record's token to %q", token)
			}

			releaseOK(t, b, id)
			if exists(t, c, key) {
				t.Fatal("the key exists after B's release")
			}
			claimOK(t, redisdedup.New(c, prefix), id, time.Minute, true)
		})
	}
}

// A Store that keeps no record of an id releases it with a plain DEL: that
// is how one receiver releases for another, and a release that did nothing
// would lose the event. The claiming Store's own late or repeated release
// stays a no-op and leaves a newer claim alone.
func TestReleaseWithoutRecord(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	c := newClient(t, addr)
	type env struct {
		id, key  string
		newStore func() *redisdedup.Store
	}
	tests := []struct {
		name string
		run  func(t *testing.T, e env)
	}{
		{"NeverClaimed", func(t *testing.T, e env) {
			holder, other, third := e.newStore(), e.newStore(), e.newStore()
			claimOK(t, holder, e.id, time.Minute, true)
			releaseOK(t, other, e.id) // for the holder, whose handler failed
			if exists(t, c, e.key) {
				t.Fatal("a release for another receiver left its claim in place")
			}
			if n, q := redisdedup.Remembered(other); n != 0 || q != 0 {
				t.Fatalf("the releasing Store remembers %d ids, %d queued; want none", n, q)
			}
			claimOK(t, third, e.id, time.Minute, true) // the redelivery
			tokenT := redisdedup.Token(third, e.id)
			releaseOK(t, holder, e.id) // the holder's own late release
			if got := keyValue(t, c, e.key); got != tokenT {
				t.Fatalf("after the holder's late release the key holds %q, want the new claim's %q", got, tokenT)
			}
			claimOK(t, holder, e.id, time.Minute, false)
			releaseOK(t, third, e.id)
			claimOK(t, holder, e.id, time.Minute, true)
		}},
		{"ClaimRefused", func(t *testing.T, e env) {
			holder, other := e.newStore(), e.newStore()
			claimOK(t, holder, e.id, time.Minute, true)
			claimOK(t, other, e.id, time.Minute, false)
			releaseOK(t, other, e.id)
			if exists(t, c, e.key) {
				t.Fatal("a release by a Store whose claim was refused left the claim in place")
			}
			if _, _, ok := redisdedup.Record(other, e.id); ok {
				t.Fatal("a refused claim left a record")
			}
			claimOK(t, holder, e.id, time.Minute, true)
		}},
		{"ReleasedTwice", func(t *testing.T, e env) {
			holder, other := e.newStore(), e.newStore()
			claimOK(t, holder, e.id, time.Minute, true)
			releaseOK(t, holder, e.id)
			if exists(t, c, e.key) {
				t.Fatal("the holder's release left its claim in place")
			}
			claimOK(t, other, e.id, time.Minute, true)
			tokenO := redisdedup.Token(other, e.id)
			releaseOK(t, holder, e.id) // again, after another Store claimed
			if got := keyValue(t, c, e.key); got != tokenO {
				t.Fatalf("after the second release the key holds %q, want the new claim's %q", got, tokenO)
			}
			claimOK(t, holder, e.id, time.Minute, false)
			releaseOK(t, other, e.id)
			claimOK(t, holder, e.id, time.Minute, true)
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			prefix := fmt.Sprintf("nr%d:", i)
			tt.run(t, env{
				id:  "evt",
				key: prefix + "evt",
				newStore: func() *redisdedup.Store {
					return redisdedup.New(newClient(t, addr), redisdedup.WithPrefix(prefix))
				},
			})
		})
	}
}

// A Store keeps the record of each claim, live or released, until twice the
// claim's ttl has passed, then drops it as new claims come, so the records
// do not grow with every event ever claimed (a successful event is never
// released). The fake clock moves the records only; the keys in Redis live
// for the real minute.
func TestRememberedClaimsExpire(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	c := newClient(t, addr)
	clock := fakeclock.New(time.Unix(1e9, 0))
	s := redisdedup.New(c, redisdedup.WithClock(clock.Now))
	at := func(sec int64) { clock.Set(time.Unix(1e9+sec, 0)) }
	remembered := func(wantRecords, wantQueued int) {
		t.Helper()
		if n, q := redisdedup.Remembered(s); n != wantRecords || q != wantQueued {
			t.Fatalf("remembered %d ids, %d queued; want %d, %d", n, q, wantRecords, wantQueued)
		}
	}
	key := func(id string) string { return redisdedup.DefaultPrefix + id }

	const many = 500
	for i := range many { // at 0s, until 60s, forgotten at 120s
		claimOK(t, s, fmt.Sprintf("short-%d", i), time.Minute, true)
	}
	remembered(many, many)
	releaseOK(t, s, "short-0")
	if exists(t, c, key("short-0")) {
		t.Fatal("short-0 exists after its release")
	}
	remembered(many, many) // released, but kept

	at(30)
	claimOK(t, s, "short-0", time.Minute, true) // again: until 90s, forgotten at 150s
	newToken := redisdedup.Token(s, "short-0")
	remembered(many, many+1)                // the old short-0 is superseded, still queued
	claimOK(t, s, "mid", time.Minute, true) // until 90s, forgotten at 150s
	remembered(many+1, many+1)              // the superseded short-0 went first

	at(61) // the short claims have expired, and are remembered
	releaseOK(t, s, "short-1")
	if !exists(t, c, key("short-1")) {
		t.Fatal("the release of a claim expired by the Store's clock deleted the key")
	}
	claimOK(t, s, "a61", time.Minute, true) // forgotten at 181s
	remembered(many+2, many+2)

	at(119)
	claimOK(t, s, "b119", time.Minute, true) // forgotten at 239s
	remembered(many+3, many+3)

	// The claims of 0s are forgotten at 120s.
	at(120)
	claimOK(t, s, "c120", time.Minute, true) // forgotten at 240s
	remembered(5, 5)                         // short-0 (new), mid, a61, b119, c120
	if token, released, ok := redisdedup.Record(s, "short-0"); !ok || token != newToken || released {
		t.Fatalf("short-0's new record: %v, token %q, released %v; want %q, live", ok, token, released, newToken)
	}
	// short-0's new claim expired at 90s, so releasing it does nothing.
	releaseOK(t, s, "short-0")
	if !exists(t, c, key("short-0")) {
		t.Fatal("the release of short-0's expired claim deleted the key")
	}
	// short-2's record is forgotten: Release deletes the key, as for a claim
	// of another receiver.
	releaseOK(t, s, "short-2")
	if exists(t, c, key("short-2")) {
		t.Fatal("the release of a forgotten claim left the key in place")
	}

	at(150)
	claimOK(t, s, "long", time.Hour, true) // forgotten at 7350s
	remembered(4, 4)                       // a61, b119, c120, long
	releaseOK(t, s, "long")                // a tombstone until 7350s
	if exists(t, c, key("long")) {
		t.Fatal("long exists after its release")
	}

	at(181)
	claimOK(t, s, "d181", time.Minute, true)
	remembered(4, 4) // b119, c120, long, d181

	// A record forgotten out of claim order waits in the queue behind long's
	// tombstone, but Release treats it as forgotten at its time all the same.
	at(301)
	claimOK(t, s, "e301", time.Minute, true)
	remembered(3, 3) // long, then d181 (forgotten at 301s, but waiting) and e301
	claimOK(t, s, "d181", time.Minute, false)
	releaseOK(t, s, "d181") // forgotten: a plain DEL
	if exists(t, c, key("d181")) {
		t.Fatal("the release of a forgotten record that waits in the queue left the key in place")
	}
	remembered(2, 3) // long, e301; d181's entry goes when its turn comes

	at(7350) // long's tombstone is forgotten too
	claimOK(t, s, "last", time.Minute, true)
	remembered(1, 1)
}

// Claims and releases from many goroutines on one Store: every release
// deletes its own claim, and the Store keeps at most one record per id, each
// released (run with -race).
func TestConcurrentClaimRelease(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	c := newClient(t, addr)
	s := redisdedup.New(c, redisdedup.WithPrefix("cc:"))
	const ids = 5
	var claims atomic.Int32
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			ctx := context.Background()
			for i := range 40 {
				id := fmt.Sprintf("evt-%d", i%ids) // the goroutines contend for 5 ids
				ok, err := s.Claim(ctx, id, time.Minute)
				if err != nil {
					t.Errorf("goroutine %d: Claim: %v", g, err)
					return
				}
				if ok {
					claims.Add(1)
					if err := s.Release(ctx, id); err != nil {
						t.Errorf("goroutine %d: Release: %v", g, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if claims.Load() < ids {
		t.Fatalf("%d claims won, want at least one per id", claims.Load())
	}
	keys, err := c.Keys(context.Background(), "cc:*").Result()
	if err != nil || len(keys) != 0 {
		t.Fatalf("keys left: %v, %v", keys, err)
	}
	if n, q := redisdedup.Remembered(s); n != ids || q > int(claims.Load()) {
		t.Fatalf("%d ids remembered, %d queued; want %d ids, at most %d queued", n, q, ids, claims.Load())
	}
	for i := range ids {
		id := fmt.Sprintf("evt-%d", i)
		if _, released, ok := redisdedup.Record(s, id); !ok || !released {
			t.Fatalf("%s: record %v, released %v; want a released record", id, ok, released)
		}
		claimOK(t, s, id, time.Minute, true)
	}
}
