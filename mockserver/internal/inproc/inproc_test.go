package inproc

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCloseWaitsForTheHandler: a client that reads part of an answer and
// closes its body sees what the handler did after writing it (the mock
// journals a request there), as a client over a connection does, where
// the answer leaves when the handler returns.
func TestCloseWaitsForTheHandler(t *testing.T) {
	var after atomic.Bool
	tr := Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"ok":true}`)
		w.(http.Flusher).Flush()
		time.Sleep(50 * time.Millisecond)
		after.Store(true)
	})}
	req, err := http.NewRequest(http.MethodGet, "http://mock/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if _, err := io.ReadFull(resp.Body, b); err != nil || string(b) != `{"ok` {
		t.Fatalf("read %q, %v", b, err)
	}
	if err := resp.Body.Close(); err != nil {
		t.Fatal(err)
	}
	if !after.Load() {
		t.Fatal("Close returned before the handler did")
	}
}

// TestCloseGivesUpWithTheContext: a handler that never returns holds Close
// only until the request's context ends.
func TestCloseGivesUpWithTheContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tr := Transport{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "x")
		w.(http.Flusher).Flush()
		<-release
	})}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://mock/x", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = resp.Body.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v", d)
	}
}
