package webhooks_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

func deliver(t *testing.T, h http.Handler, method string, hd http.Header, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, "/hooks", strings.NewReader(body))
	for k, v := range hd {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandlerStatusCodes(t *testing.T) {
	t.Parallel()
	var calls atomic.Int32
	fail := errors.New("db down")
	v := newVerifier(t, webhooks.WithMaxBodyBytes(512))
	h := v.Handler(func(_ context.Context, ev *webhooks.Event) error {
		calls.Add(1)
		if ev.ID == "evt-fail" {
			return fail
		}
		if ev.ID == "evt-panic" {
			panic("boom")
		}
		return nil
	})
	small := `{"topic":"casefile","payload":{"id":1,"status":5}}`
	stale := vecHeaders()
	stale.Set("X-Event-Signature", webhooks.Sign(vecSecret, time.Unix(vecUnix-3600, 0), stale, []byte(vecBody)))
	big := strings.Repeat(" ", 600) + "{}"
	tests := []struct {
		name   string
		method string
		hd     http.Header
		body   string
		code   int
		calls  int32
	}{
		{"GET", http.MethodGet, vecHeaders(), vecBody, 405, 0},
		{"ok", http.MethodPost, vecHeaders(), vecBody, 204, 1},
		{"duplicate", http.MethodPost, vecHeaders(), vecBody, 200, 0},
		{"tampered", http.MethodPost, vecHeaders(), vecBody + " ", 400, 0},
		{"stale", http.MethodPost, stale, vecBody, 400, 0},
		{"no signature", http.MethodPost, http.Header{}, vecBody, 400, 0},
		{"too large", http.MethodPost, signed("evt-big", webhooks.CaseFileCompleted, big), big, 413, 0},
		{"not an event", http.MethodPost, signed("evt-arr", webhooks.CaseFileCompleted, "[]"), "[]", 400, 0},
		{"fn fails", http.MethodPost, signed("evt-fail", webhooks.CaseFileCompleted, small), small, 500, 1},
		{"retry after failure", http.MethodPost, signed("evt-fail", webhooks.CaseFileCompleted, small), small, 500, 1},
		{"fn panics", http.MethodPost, signed("evt-panic", webhooks.CaseFileCompleted, small), small, 500, 1},
		{"retry after panic", http.MethodPost, signed("evt-panic", webhooks.CaseFileCompleted, small), small, 500, 1},
	}
	for _, tt := range tests { // in order: they share the verifier's store
		before := calls.Load()
		w := deliver(t, h, tt.method, tt.hd, tt.body)
		if w.Code != tt.code || calls.Load()-before != tt.calls {
			t.Fatalf("%s: status %d, %d calls; want %d, %d", tt.name, w.Code, calls.Load()-before, tt.code, tt.calls)
		}
		if tt.code == 405 && w.Header().Get("Allow") != "POST" {
			t.Fatalf("Allow = %q", w.Header().Get("Allow"))
		}
		if tt.code == 400 && strings.TrimSpace(w.Body.String()) != "invalid webhook request" {
			t.Fatalf("%s: 400 body %q tells too much", tt.name, w.Body.String())
		}
	}
}

// A handler failure releases the claim: the platform's retry is processed,
// and processed once.
func TestHandlerRedeliveryProcessedOnce(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	attempts, done := 0, 0
	h := newVerifier(t).Handler(func(_ context.Context, ev *webhooks.Event) error {
		mu.Lock()
		defer mu.Unlock()
		attempts++
		if attempts == 1 {
			return errors.New("transient")
		}
		done++
		return nil
	})
	codes := []int{}
	for range 4 { // the first attempt and three retries with a new t each
		codes = append(codes, deliver(t, h, http.MethodPost, vecHeaders(), vecBody).Code)
	}
	if want := []int{500, 204, 200, 200}; !slices.Equal(codes, want) || done != 1 {
		t.Fatalf("codes %v, processed %d; want %v, 1", codes, done, want)
	}
}

func TestHandlerStoreFailureIs500(t *testing.T) {
	t.Parallel()
	v := newVerifier(t, webhooks.WithDedup(&recordingStore{err: errors.New("down")}))
	h := v.Handler(func(context.Context, *webhooks.Event) error { t.Error("fn called"); return nil })
	if w := deliver(t, h, http.MethodPost, vecHeaders(), vecBody); w.Code != 500 {
		t.Fatalf("status %d", w.Code)
	}
}

// events numbers n event deliveries.
func events(n int) []http.Header {
	out := make([]http.Header, n)
	for i := range out {
		out[i] = signed("evt-"+itoa(i), webhooks.CaseFileCompleted, vecBody)
	}
	return out
}

func TestAsyncHandlerQueueFull(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	started := make(chan string, 10)
	var processed sync.Map
	v := newVerifier(t)
	a := v.AsyncHandler(func(_ context.Context, ev *webhooks.Event) error {
		started <- ev.ID
		<-block
		processed.Store(ev.ID, true)
		return nil
	}, webhooks.WithWorkers(1), webhooks.WithQueueSize(1))
	hs := events(3)
	if w := deliver(t, a, http.MethodPost, hs[0], vecBody); w.Code != 202 {
		t.Fatalf("first: %d", w.Code)
	}
	<-started // the worker holds evt-0
	if w := deliver(t, a, http.MethodPost, hs[1], vecBody); w.Code != 202 {
		t.Fatalf("second (queued): %d", w.Code)
	}
	if w := deliver(t, a, http.MethodPost, hs[2], vecBody); w.Code != 503 {
		t.Fatalf("third (queue full): %d", w.Code)
	}
	close(block)
	if err := a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The refused event's claim was released: its redelivery is accepted.
	h := v.Handler(func(_ context.Context, ev *webhooks.Event) error { processed.Store(ev.ID, true); return nil })
	if w := deliver(t, h, http.MethodPost, hs[2], vecBody); w.Code != 204 {
		t.Fatalf("redelivery of the refused event: %d", w.Code)
	}
	for i := range 3 {
		if _, ok := processed.Load("evt-" + itoa(i)); !ok {
			t.Errorf("evt-%d lost", i)
		}
	}
}

func TestAsyncHandlerFailureReleases(t *testing.T) {
	t.Parallel()
	var attempts, done atomic.Int32
	v := newVerifier(t)
	a := v.AsyncHandler(func(context.Context, *webhooks.Event) error {
		if attempts.Add(1) == 1 {
			return errors.New("transient")
		}
		done.Add(1)
		return nil
	}, webhooks.WithWorkers(1))
	if w := deliver(t, a, http.MethodPost, vecHeaders(), vecBody); w.Code != 202 {
		t.Fatal(w.Code)
	}
	waitFor(t, func() bool { return attempts.Load() == 1 })
	// The failure released the claim (the release follows fn's return).
	deadline := time.Now().Add(5 * time.Second)
	code := 0
	for time.Now().Before(deadline) {
		if code = deliver(t, a, http.MethodPost, vecHeaders(), vecBody).Code; code == 202 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if code != 202 {
		t.Fatalf("retry after failure: %d", code)
	}
	if err := a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := deliver(t, v.Handler(func(context.Context, *webhooks.Event) error { return nil }), http.MethodPost, vecHeaders(), vecBody); w.Code != 200 {
		t.Fatalf("third delivery: %d, want 200 (duplicate)", w.Code)
	}
	if done.Load() != 1 {
		t.Fatalf("processed %d times", done.Load())
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestAsyncHandlerShutdownDrains(t *testing.T) {
	t.Parallel()
	var done atomic.Int32
	a := newVerifier(t).AsyncHandler(func(context.Context, *webhooks.Event) error {
		time.Sleep(5 * time.Millisecond)
		done.Add(1)
		return nil
	}, webhooks.WithWorkers(2), webhooks.WithQueueSize(20))
	for _, h := range events(10) {
		if w := deliver(t, a, http.MethodPost, h, vecBody); w.Code != 202 {
			t.Fatal(w.Code)
		}
	}
	if err := a.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if done.Load() != 10 {
		t.Fatalf("drained %d of 10", done.Load())
	}
	if w := deliver(t, a, http.MethodPost, signed("evt-late", webhooks.CaseFileCompleted, vecBody), vecBody); w.Code != 503 {
		t.Fatalf("after Shutdown: %d", w.Code)
	}
	if err := a.Shutdown(context.Background()); err != nil { // twice is fine
		t.Fatal(err)
	}
}

// Shutdown returns when its ctx ends; the queued events are handed back
// (claims released) and the running one sees its context cancelled.
func TestAsyncHandlerShutdownTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var cancelled atomic.Bool
	v := newVerifier(t)
	a := v.AsyncHandler(func(ctx context.Context, ev *webhooks.Event) error {
		select {
		case <-ctx.Done():
			cancelled.Store(true)
			return ctx.Err()
		case <-release:
			return nil
		}
	}, webhooks.WithWorkers(1), webhooks.WithQueueSize(5))
	hs := events(3)
	for _, h := range hs {
		if w := deliver(t, a, http.MethodPost, h, vecBody); w.Code != 202 {
			t.Fatal(w.Code)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := a.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v", err)
	}
	// All three claims come back, so the platform's retries are accepted.
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	for _, hd := range hs {
		var code int
		waitFor(t, func() bool {
			code = deliver(t, h, http.MethodPost, hd, vecBody).Code
			return code == 204
		})
	}
	if !cancelled.Load() {
		t.Fatal("running fn not cancelled")
	}
}
