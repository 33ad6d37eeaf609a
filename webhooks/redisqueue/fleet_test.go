package redisqueue_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

const fleetSecret = "whsec-fleet"

// crashable wraps a receiver's queue so that the test can stop it as a
// crash would: from the crash on, nothing this receiver does reaches Redis
// (no ack, touch or dead letter) and its workers take nothing more.
type crashable struct {
	queue.Queue
	mu      sync.Mutex
	crashed bool
	inHand  map[string]string // queue key → event id, handed out and not finished
}

var errCrashed = errors.New("receiver crashed")

// The wrapped queue's leases and idempotent enqueue reach the handler, so
// that the fleet runs the path that production runs.
var (
	_ queue.Leaser     = (*crashable)(nil)
	_ queue.Idempotent = (*crashable)(nil)
)

func (c *crashable) TouchInterval() time.Duration {
	return c.Queue.(queue.Leaser).TouchInterval()
}

func (c *crashable) IdempotencyWindow() time.Duration {
	return c.Queue.(queue.Idempotent).IdempotencyWindow()
}

func (c *crashable) Next(ctx context.Context) (*queue.Message, error) {
	m, err := c.Queue.Next(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.crashed {
		return nil, queue.ErrClosed // a dead process takes nothing; the entry waits for a takeover
	}
	if err == nil {
		c.inHand[m.Key] = m.ID
	}
	return m, err
}

// finish runs op for m unless the receiver crashed, under the lock, so that
// the crash is either before or after it.
func (c *crashable) finish(m *queue.Message, op func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.crashed {
		return errCrashed
	}
	if err := op(); err != nil {
		return err
	}
	delete(c.inHand, m.Key)
	return nil
}

func (c *crashable) Ack(ctx context.Context, m *queue.Message) error {
	return c.finish(m, func() error { return c.Queue.Ack(ctx, m) })
}

func (c *crashable) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	return c.finish(m, func() error { return c.Queue.DeadLetter(ctx, m, reason) })
}

func (c *crashable) Touch(ctx context.Context, m *queue.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.crashed {
		return errCrashed
	}
	return c.Queue.Touch(ctx, m)
}

func (c *crashable) Enqueue(ctx context.Context, d queue.Delivery) error {
	c.mu.Lock()
	crashed := c.crashed
	c.mu.Unlock()
	if crashed {
		return errCrashed
	}
	return c.Queue.Enqueue(ctx, d)
}

// crash stops the receiver and returns the ids it had in hand.
func (c *crashable) crash() map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.crashed = true
	held := map[string]bool{}
	for _, id := range c.inHand {
		held[id] = true
	}
	return held
}

// ledger counts, per event id, the runs of fn that succeeded, and which
// receiver ran them.
type ledger struct {
	mu        sync.Mutex
	rng       *rand.Rand
	successes map[string]int
	succeeded map[string]map[string]bool // id → receivers
	running   map[string]int             // receiver → runs of fn in progress
	calls     int
	failures  int
	panics    int
	poisonID  string
	poisoned  atomic.Bool
}

// fn is the event handler of receiver name: it fails on a seeded 10% of
// calls and panics on 1%, and always fails for the poison event until the
// test cures it.
func (l *ledger) fn(name string, c *crashable) func(context.Context, *webhooks.Event) error {
	return func(_ context.Context, ev *webhooks.Event) error {
		c.mu.Lock()
		crashed := c.crashed
		c.mu.Unlock()
		if crashed { // a crashed process starts no run
			return errCrashed
		}
		l.mu.Lock()
		l.calls++
		r := l.rng.IntN(100)
		l.running[name]++
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			l.running[name]--
			l.mu.Unlock()
		}()
		time.Sleep(time.Duration(r%3) * time.Millisecond) // work in progress
		switch {
		case ev.ID == l.poisonID && l.poisoned.Load():
			return errors.New("poison event")
		case r == 0:
			l.mu.Lock()
			l.panics++
			l.mu.Unlock()
			panic("handler bug")
		case r <= 10:
			l.mu.Lock()
			l.failures++
			l.mu.Unlock()
			return errors.New("transient failure")
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		l.successes[ev.ID]++
		if l.succeeded[ev.ID] == nil {
			l.succeeded[ev.ID] = map[string]bool{}
		}
		l.succeeded[ev.ID][name] = true
		return nil
	}
}

func fleetUUID(i int) string {
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
}

// delivery is a signed delivery of event i, as the platform sends it.
func delivery(i int, id string) *http.Request {
	body := fmt.Sprintf(`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-24 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":%d,"status":5}}`, i)
	r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set(webhooks.EventIDHeader, id)
	r.Header.Set(webhooks.EventTypeHeader, string(webhooks.CaseFileCompleted))
	r.Header.Set(webhooks.SignatureHeader, webhooks.Sign(fleetSecret, time.Now(), r.Header, []byte(body)))
	return r
}

// receiver is one machine of the fleet: its Redis client, verifier, queue
// and handler.
type receiver struct {
	name string
	q    *crashable
	raw  *redisqueue.Queue
	h    *webhooks.AsyncHandler
}

func newFleetReceiver(t *testing.T, addr, name string, l *ledger, attempts int) *receiver {
	rdb := client(t, addr)
	v, err := webhooks.NewVerifier(fleetSecret, webhooks.WithDedup(redisdedup.New(rdb)))
	if err != nil {
		t.Fatal(err)
	}
	raw := newQueue(t, rdb, redisqueue.WithConsumer(name), redisqueue.WithVisibilityTimeout(time.Second))
	c := &crashable{Queue: raw, inHand: map[string]string{}}
	h := v.AsyncHandler(c, l.fn(name, c), webhooks.WithWorkers(8), webhooks.WithMaxAttempts(attempts),
		webhooks.WithBackoff(time.Millisecond, 5*time.Millisecond))
	return &receiver{name: name, q: c, raw: raw, h: h}
}

// TestFleetLosesNothing: 10,000 events through two receivers that share
// one stream; fn fails on 10% of calls and panics on 1%; receiver A
// crashes mid-run while fn runs for some of its events. Every event's fn
// succeeds at least once, no honest event is dead-lettered, and the events
// processed twice are exactly those that A had in hand and finished
// running before its acknowledgement was lost. A poison event is
// dead-lettered after N tries and replayed.
func TestFleetLosesNothing(t *testing.T) {
	const events, attempts = 10_000, 10
	addr := redistest.Start(t)
	l := &ledger{
		rng:       rand.New(rand.NewPCG(10, 1)),
		successes: map[string]int{},
		succeeded: map[string]map[string]bool{},
		running:   map[string]int{},
		poisonID:  fleetUUID(events),
	}
	a := newFleetReceiver(t, addr, "A", l, attempts)
	b := newFleetReceiver(t, addr, "B", l, attempts)

	var delivered atomic.Int32
	var held map[string]bool
	var runningAtCrash int
	crashed := make(chan struct{})
	go func() { // crash A mid-run, while fn runs on it
		defer close(crashed)
		for delivered.Load() < events/2 {
			time.Sleep(time.Millisecond)
		}
		for {
			l.mu.Lock()
			if l.running["A"] > 0 {
				runningAtCrash = l.running["A"]
				held = a.q.crash()
				l.mu.Unlock()
				return
			}
			l.mu.Unlock()
			time.Sleep(100 * time.Microsecond)
		}
	}()

	ids := make(chan int)
	var wg sync.WaitGroup
	for range 16 { // the platform's concurrent deliveries
		wg.Go(func() {
			for i := range ids {
				id := fleetUUID(i)
				for try := 0; ; try++ {
					r := b
					if i%2 == 0 && !a.q.isCrashed() {
						r = a
					}
					w := httptest.NewRecorder()
					r.h.ServeHTTP(w, delivery(i, id))
					if w.Code/100 == 2 {
						break
					}
					if try > 20 {
						t.Errorf("event %d: %d after %d tries", i, w.Code, try)
						return
					}
					time.Sleep(time.Millisecond) // the platform retries
				}
				delivered.Add(1)
			}
		})
	}
	for i := range events {
		ids <- i
	}
	close(ids)
	wg.Wait()
	<-crashed

	// Every event succeeds at least once; A's events wait for the takeover.
	deadline := time.Now().Add(90 * time.Second)
	for {
		l.mu.Lock()
		done := len(l.successes)
		l.mu.Unlock()
		if done == events {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events processed", done, events)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ctx := context.Background()
	dead, err := b.raw.DeadLetters(ctx, 10)
	if err != nil || len(dead) != 0 {
		t.Fatalf("dead letters of honest events: %v, %v", dead, err)
	}

	l.mu.Lock()
	twice, finishedOnA := 0, 0
	for id, n := range l.successes {
		switch {
		case n > 2:
			t.Errorf("event %s processed %d times", id, n)
		case n == 2:
			twice++
			if !held[id] || !l.succeeded[id]["A"] || !l.succeeded[id]["B"] {
				t.Errorf("event %s processed twice but A did not have it in hand", id)
			}
		}
	}
	for id := range held {
		if l.succeeded[id]["A"] {
			finishedOnA++
			if l.successes[id] != 2 {
				t.Errorf("event %s: A finished it, its ack was lost, but it ran %d times", id, l.successes[id])
			}
		}
	}
	t.Logf("%d events, %d fn calls (%d failures, %d panics); A crashed with %d events in hand, fn running for %d; "+
		"%d of those had succeeded on A and ran again on B (processed twice); %d events processed twice in all",
		events, l.calls, l.failures, l.panics, len(held), runningAtCrash, finishedOnA, twice)
	if len(held) == 0 || runningAtCrash == 0 || twice != finishedOnA {
		t.Errorf("held %d, running %d, twice %d, finished on A %d", len(held), runningAtCrash, twice, finishedOnA)
	}
	l.mu.Unlock()

	// A poison event is dead-lettered after N tries, then replayed.
	l.poisoned.Store(true)
	w := httptest.NewRecorder()
	b.h.ServeHTTP(w, delivery(events, l.poisonID))
	if w.Code != http.StatusAccepted {
		t.Fatalf("poison delivery: %d", w.Code)
	}
	waitDead := time.Now().Add(30 * time.Second)
	for {
		if dead, _ = b.raw.DeadLetters(ctx, 10); len(dead) == 1 || time.Now().After(waitDead) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(dead) != 1 || dead[0].ID != l.poisonID || dead[0].Reason != "poison event" {
		t.Fatalf("dead letters: %+v", dead)
	}
	l.poisoned.Store(false)
	if err := b.raw.Replay(ctx, dead[0].Key); err != nil {
		t.Fatal(err)
	}
	waitFleet(t, func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.successes[l.poisonID] == 1
	})
	if left, err := b.h.Shutdown(ctx); err != nil || left != nil {
		t.Fatalf("B Shutdown: %v, %v", left, err)
	}
	if dead, _ = b.raw.DeadLetters(ctx, 10); len(dead) != 0 {
		t.Fatalf("dead letters after the replay: %+v", dead)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, _ = a.h.Shutdown(short) // the crashed receiver's workers have stopped
}

func (c *crashable) isCrashed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.crashed
}

func waitFleet(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
