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
		if ev.ID == uid("fail") {
			return fail
		}
		if ev.ID == uid("panic") {
			panic("boom")
		}
		return nil
	})
	small := `{"topic":"casefile","eventType":"completed","payload":{"id":1,"status":5}}`
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
		{"too large", http.MethodPost, signed(uid("big"), webhooks.CaseFileCompleted, big), big, 413, 0},
		{"not an event", http.MethodPost, signed(uid("arr"), webhooks.CaseFileCompleted, "[]"), "[]", 400, 0},
		{"fn fails", http.MethodPost, signed(uid("fail"), webhooks.CaseFileCompleted, small), small, 500, 1},
		{"retry after failure", http.MethodPost, signed(uid("fail"), webhooks.CaseFileCompleted, small), small, 500, 1},
		{"fn panics", http.MethodPost, signed(uid("panic"), webhooks.CaseFileCompleted, small), small, 500, 1},
		{"retry after panic", http.MethodPost, signed(uid("panic"), webhooks.CaseFileCompleted, small), small, 500, 1},
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
