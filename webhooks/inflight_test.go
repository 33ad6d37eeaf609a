package webhooks_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/dedup"
)

// plainStore is a user's dedup.Store: Claim and Release only.
type plainStore struct{ dedup.Store }

// slowFailingFn fails its first call once released, after telling started
// that it runs; later calls succeed.
func slowFailingFn(calls *atomic.Int32, started chan<- struct{}, release <-chan struct{}) func(context.Context, *webhooks.Event) error {
	return func(context.Context, *webhooks.Event) error {
		if calls.Add(1) == 1 {
			close(started)
			<-release
			return errors.New("db down")
		}
		return nil
	}
}

// A re-send that arrives while the first delivery's fn still runs (fn
// outlasts the platform's 1 s) is not answered 2xx when the store can tell
// a finished event from one in flight: the platform re-sends it, and the
// re-send after fn failed runs fn again, and a later one is answered 200.
// With a user's store that cannot tell (no dedup.Completer), the re-send
// is answered 200 as before.
func TestHandlerInFlightDuplicate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		store     func() dedup.Store
		duringRun int // the status of the re-send while fn runs
	}{
		{"memory store", func() dedup.Store { return dedup.NewMemory(0) }, http.StatusConflict},
		// The platform stops at that 200: when fn then fails, the event is lost.
		{"store without Completer", func() dedup.Store { return plainStore{dedup.NewMemory(0)} }, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			started, release := make(chan struct{}), make(chan struct{})
			h := newVerifier(t, webhooks.WithDedup(tt.store())).Handler(slowFailingFn(&calls, started, release))
			first := make(chan int)
			go func() { first <- deliverCode(h) }()
			<-started
			if code := deliverCode(h); code != tt.duringRun {
				t.Fatalf("re-send while fn runs: %d, want %d", code, tt.duringRun)
			}
			close(release)
			if code := <-first; code != http.StatusInternalServerError {
				t.Fatalf("first delivery: %d, want 500", code)
			}
			if tt.duringRun/100 == 2 {
				return // the platform re-sends no more
			}
			if code := deliverCode(h); code != http.StatusNoContent {
				t.Fatalf("re-send after fn failed: %d, want 204", code)
			}
			if got := calls.Load(); got != 2 {
				t.Fatalf("fn called %d times, want 2", got)
			}
			if code := deliverCode(h); code != http.StatusOK {
				t.Fatalf("re-send after the event was finished: %d, want 200", code)
			}
		})
	}
}

// deliverCode delivers the test vector to h and returns the status.
func deliverCode(h http.Handler) int {
	r := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(vecBody))
	r.Header = vecHeaders()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code
}

// A store that cannot answer whether a duplicate is finished makes the
// delivery 500 (re-sent), never 200.
func TestHandlerCompletedFails(t *testing.T) {
	t.Parallel()
	s := &brokenCompleter{Store: dedup.NewMemory(0)}
	h := newVerifier(t, webhooks.WithDedup(s)).Handler(func(context.Context, *webhooks.Event) error { return nil })
	if code := deliverCode(h); code != http.StatusNoContent {
		t.Fatalf("first delivery: %d", code)
	}
	if code := deliverCode(h); code != http.StatusInternalServerError {
		t.Fatalf("duplicate with a failing Completed: %d, want 500", code)
	}
	if n := s.completes.Load(); n != 1 {
		t.Fatalf("Complete called %d times, want 1", n)
	}
}

type brokenCompleter struct {
	dedup.Store
	completes atomic.Int32
}

func (b *brokenCompleter) Complete(context.Context, string) error {
	b.completes.Add(1)
	return nil
}

func (b *brokenCompleter) Completed(context.Context, string) (bool, error) {
	return false, errors.New("redis down")
}
