package redisdedup_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
)

const (
	inflightSecret = "whsec-inflight"
	inflightBody   = `{"topic":"casefile","eventType":"completed","payload":{"id":531,"status":5}}`
)

// resend posts one delivery of the same event, signed now, to h.
func resend(h http.Handler) int {
	hd := http.Header{}
	hd.Set("Content-Type", "application/json")
	hd.Set("X-Event-Id", "evt-inflight")
	hd.Set("X-Event-Type", string(webhooks.CaseFileCompleted))
	hd.Set("X-Event-Signature", webhooks.Sign(inflightSecret, time.Now(), hd, []byte(inflightBody)))
	r := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(inflightBody))
	r.Header = hd
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code
}

// Two receivers share one Redis. The first delivery's fn runs longer than
// the platform waits and then fails; the re-send, which reaches the other
// receiver meanwhile, is answered 409, not 2xx; the re-send after the
// failure runs fn again and succeeds; one after that is a 200 duplicate on
// either receiver.
func TestHandlerInFlightDuplicate(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	var calls atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	fn := func(context.Context, *webhooks.Event) error {
		if calls.Add(1) == 1 {
			close(started)
			<-release
			return errors.New("db down")
		}
		return nil
	}
	receiver := func() http.Handler {
		v, err := webhooks.NewVerifier(inflightSecret, webhooks.WithDedup(redisdedup.New(newClient(t, addr))))
		if err != nil {
			t.Fatal(err)
		}
		return v.Handler(fn)
	}
	a, b := receiver(), receiver()
	first := make(chan int)
	go func() { first <- resend(a) }()
	<-started
	for _, h := range []http.Handler{b, a} {
		if code := resend(h); code != http.StatusConflict {
			t.Fatalf("re-send while fn runs: %d, want 409", code)
		}
	}
	close(release)
	if code := <-first; code != http.StatusInternalServerError {
		t.Fatalf("first delivery: %d, want 500", code)
	}
	if code := resend(b); code != http.StatusNoContent {
		t.Fatalf("re-send after fn failed: %d, want 204", code)
	}
	for _, h := range []http.Handler{a, b} {
		if code := resend(h); code != http.StatusOK {
			t.Fatalf("re-send after the event was finished: %d, want 200", code)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("fn called %d times, want 2", n)
	}
}

// Complete marks only this Store's own live claim: once its claim expired
// and another receiver claimed the id, a late Complete leaves that claim in
// flight, so that the other receiver's failure still lets a re-send in.
func TestCompleteLeavesAnotherClaimAlone(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	ctx := context.Background()
	a, b := redisdedup.New(newClient(t, addr)), redisdedup.New(newClient(t, addr))
	if ok, err := a.Claim(ctx, "evt", 50*time.Millisecond); !ok || err != nil {
		t.Fatal(ok, err)
	}
	time.Sleep(100 * time.Millisecond)
	if ok, err := b.Claim(ctx, "evt", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if err := a.Complete(ctx, "evt"); err != nil {
		t.Fatal(err)
	}
	if done, err := b.Completed(ctx, "evt"); done || err != nil {
		t.Fatalf("Completed = %v, %v; want the other claim in flight", done, err)
	}
	if err := b.Release(ctx, "evt"); err != nil {
		t.Fatal(err)
	}
	if ok, err := a.Claim(ctx, "evt", time.Minute); !ok || err != nil {
		t.Fatalf("claim after the other receiver released: %v, %v", ok, err)
	}
	// A completed claim keeps its ttl and is still released by its Store.
	if err := a.Complete(ctx, "evt"); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, addr)
	if ttl, err := c.PTTL(ctx, redisdedup.DefaultPrefix+"evt").Result(); err != nil || ttl <= 50*time.Second {
		t.Fatalf("PTTL after Complete = %v, %v", ttl, err)
	}
	if err := a.Release(ctx, "evt"); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Exists(ctx, redisdedup.DefaultPrefix+"evt").Result(); n != 0 || err != nil {
		t.Fatalf("completed claim not released: %d, %v", n, err)
	}
}
