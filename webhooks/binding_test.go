package webhooks_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// The attacks of
// https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md, each
// correctly signed: every one is rejected with its documented error, and the
// vector still verifies.
func TestVerifyRejectsSignedAttacks(t *testing.T) {
	t.Parallel()
	truncated := vecBody[:len(vecBody)-1]
	mismatch := `{"topic":"casefile","eventType":"expired","payload":{"id":531,"status":5}}`
	tests := []struct {
		name     string
		id, typ  string
		body     string
		want     error
		wantText string
	}{
		{"vector", vecID, vecType, vecBody, nil, ""},
		{"truncated body", vecID, vecType, truncated, webhooks.ErrInvalidPayload, ""},
		{"trailing bytes", vecID, vecType, vecBody + "{}", webhooks.ErrInvalidPayload, ""},
		{"type does not match the body", vecID, vecType, mismatch, webhooks.ErrHeaderMismatch, "eventType"},
		{"type of another topic", vecID, string(webhooks.SignerSigned), vecBody, webhooks.ErrHeaderMismatch, "topic"},
		{"id not a UUID", "evt-1", vecType, vecBody, nil, ""},
		{"id with braces", "{" + vecID[1:35] + "}", vecType, vecBody, nil, ""},
		{"id of 200 characters", strings.Repeat("a", 200), vecType, vecBody, nil, ""},
		{"id of 201 characters", strings.Repeat("a", 201), vecType, vecBody, webhooks.ErrHeaderMismatch, "200"},
		{"id with a dot", "evt.1", vecType, vecBody, webhooks.ErrHeaderMismatch, "dot"},
		{"id with a space", "evt 1", vecType, vecBody, webhooks.ErrHeaderMismatch, "printable"},
		{"id with a control character", "evt\x7f1", vecType, vecBody, webhooks.ErrHeaderMismatch, "printable"},
		{"id not ASCII", "évt-1", vecType, vecBody, webhooks.ErrHeaderMismatch, "printable"},
		{"type of the wrong form", vecID, "Sign.casefile.completed", vecBody, webhooks.ErrHeaderMismatch, "not an event type"},
		{"type of two segments", vecID, "casefile.completed", vecBody, webhooks.ErrHeaderMismatch, "not an event type"},
		{"unknown type of the right form", vecID, "archive.casefile.completed", vecBody, nil, ""},
		{"upper-case UUID", strings.ToUpper(vecID), vecType, vecBody, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			h.Set("Content-Type", "application/json")
			h.Set(webhooks.EventIDHeader, tt.id)
			h.Set(webhooks.EventTypeHeader, tt.typ)
			h.Set(webhooks.SignatureHeader, webhooks.Sign(vecSecret, time.Unix(vecUnix, 0), h, []byte(tt.body)))
			_, err := newVerifier(t).Verify(context.Background(), h, []byte(tt.body))
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("err %q does not say %q", err, tt.wantText)
			}
		})
	}
}

// The signed string joins header values with ".", so moving a dot from the
// type into the id keeps the signature; the binding check refuses the
// shifted pair.
func TestVerifyRejectsDotShift(t *testing.T) {
	t.Parallel()
	honest := vecHeaders()
	shifted := vecHeaders()
	shifted.Set(webhooks.EventIDHeader, vecID+".sign")
	shifted.Set(webhooks.EventTypeHeader, "casefile.completed")
	at := time.Unix(vecUnix, 0)
	if a, b := webhooks.Sign(vecSecret, at, honest, []byte(vecBody)), webhooks.Sign(vecSecret, at, shifted, []byte(vecBody)); a != b {
		t.Fatalf("the pair no longer shares a signature:\n%s\n%s", a, b)
	}
	if _, err := newVerifier(t).Verify(context.Background(), honest, []byte(vecBody)); err != nil {
		t.Fatalf("honest: %v", err)
	}
	if _, err := newVerifier(t).Verify(context.Background(), shifted, []byte(vecBody)); !errors.Is(err, webhooks.ErrHeaderMismatch) {
		t.Fatalf("shifted: %v", err)
	}
}

// A header mismatch is answered 400 like the other rejections, and logged
// without the secret or the signature.
func TestHandlerHeaderMismatchIs400(t *testing.T) {
	t.Parallel()
	log := &lockedBuilder{}
	v := newVerifier(t, webhooks.WithLogger(slog.New(slog.NewTextHandler(log, nil))))
	h := signed("evt.1", webhooks.CaseFileCompleted, vecBody)
	w := deliver(t, v.Handler(func(context.Context, *webhooks.Event) error { t.Error("fn called"); return nil }),
		http.MethodPost, h, vecBody)
	if w.Code != 400 || !strings.Contains(log.String(), "dot") {
		t.Fatalf("status %d, log %q", w.Code, log.String())
	}
	v1 := h.Get(webhooks.SignatureHeader)
	if strings.Contains(log.String(), vecSecret) || strings.Contains(log.String(), v1[strings.LastIndex(v1, "=")+1:]) {
		t.Fatalf("log shows a secret or signature: %q", log.String())
	}
}

// lockedBuilder is a strings.Builder that several goroutines may write.
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// 300 connections each declaring a 1 MiB body and sending one byte hold
// little memory: the body buffer grows with what arrives.
func TestHandlerDoesNotTrustContentLength(t *testing.T) {
	const conns = 300
	v := newVerifier(t)
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	var entered atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	open := make([]net.Conn, 0, conns)
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	for range conns {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		req := fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", 1<<20)
		if _, err := c.Write([]byte(req)); err != nil {
			t.Fatal(err)
		}
	}
	// Every request is in the handler, reading its body.
	waitFor(t, func() bool { return entered.Load() == conns })
	time.Sleep(100 * time.Millisecond)
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("heap grew by %.1f MiB for %d connections declaring 1 MiB each", float64(grown)/(1<<20), conns)
	if grown >= 16<<20 {
		t.Fatalf("heap grew by %d bytes; want < 16 MiB", grown)
	}
}
