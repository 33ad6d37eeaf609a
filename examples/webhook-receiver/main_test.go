package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks"
)

const testSecret = "whsec-test-4f1c9a"

// logBuffer collects the receiver's JSON log lines; safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// lines decodes the log lines written so far.
func (b *logBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []map[string]any
	for l := range strings.Lines(b.buf.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", l)
		}
		out = append(out, m)
	}
	return out
}

// count answers how many log lines have msg and, when id is set, event_id id.
func (b *logBuffer) count(t *testing.T, msg, id string) int {
	n := 0
	for _, l := range b.lines(t) {
		if l["msg"] == msg && (id == "" || l["event_id"] == id) {
			n++
		}
	}
	return n
}

// waitFor polls cond until it holds or 5 seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// deliver posts a delivery of body as the platform does, signed with secret.
func deliver(t *testing.T, url, secret, id string, typ webhooks.EventType, body []byte) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(webhooks.EventIDHeader, id)
	req.Header.Set(webhooks.EventTypeHeader, string(typ))
	req.Header.Set(webhooks.SignatureHeader, webhooks.Sign(secret, time.Now(), req.Header, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// startRun runs the receiver on a loopback listener and answers its
// deliveries URL, its logs, its cancel function and the channel of run's
// error.
func startRun(t *testing.T, env map[string]string) (string, *logBuffer, context.CancelFunc, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	logs := &logBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-shutdown-timeout", "5s"}, func(k string) string { return env[k] }, logs, ln)
	}()
	url := "http://" + ln.Addr().String()
	waitFor(t, "the listening log line", func() bool { return logs.count(t, "listening", "") == 1 })
	return url, logs, cancel, done
}

// exercise sends a delivery, its duplicate and a forgery, and checks that the
// event was processed once. exercise delivers an event, its duplicate and a
// forged one. A duplicate is acknowledged and not processed again: 200 when the
// Verifier's claim spots it, 202 when the queue's idempotent enqueue is the
// dedup (redisqueue;
// https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#the-two-handlers).
func exercise(t *testing.T, url string, logs *logBuffer, duplicate int) {
	t.Helper()
	const id = "6f0d3c1e-5b7a-4d2f-9e8c-1a2b3c4d5e6f"
	body := []byte(`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000",` +
		`"timezone_type":3,"timezone":"UTC"},"payload":{"id":42,"status":5}}`)
	if got := deliver(t, url+"/webhooks", testSecret, id, webhooks.CaseFileCompleted, body); got != http.StatusAccepted {
		t.Fatalf("delivery answered %d, want 202", got)
	}
	waitFor(t, "the event to be processed", func() bool { return logs.count(t, "event processed", id) == 1 })
	if got := deliver(t, url+"/webhooks", testSecret, id, webhooks.CaseFileCompleted, body); got != duplicate {
		t.Errorf("duplicate answered %d, want %d (acknowledged, not processed)", got, duplicate)
	}
	if got := deliver(t, url+"/webhooks", "wrong-secret", "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b", webhooks.CaseFileCompleted, body); got != http.StatusBadRequest {
		t.Errorf("forged delivery answered %d, want 400", got)
	}
	resp, err := http.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("healthz answered %d", resp.StatusCode)
	}
	time.Sleep(50 * time.Millisecond) // a wrongly processed duplicate would show by now
	if n := logs.count(t, "event processed", id); n != 1 {
		t.Errorf("event processed %d times, want once", n)
	}
	for _, l := range logs.lines(t) {
		if l["msg"] == "event processed" && (l["casefile_id"] != float64(42) || l["event_type"] != "sign.casefile.completed") {
			t.Errorf("processed event logged as %v", l)
		}
	}
}

// stop cancels run and checks that it shut down cleanly.
func stop(t *testing.T, url string, logs *logBuffer, cancel context.CancelFunc, done <-chan error) {
	t.Helper()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after cancel")
	}
	if logs.count(t, "stopped", "") != 1 {
		t.Error("no stopped log line")
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Error("the server still answers after shutdown")
	}
	b := func() string { logs.mu.Lock(); defer logs.mu.Unlock(); return logs.buf.String() }()
	if strings.Contains(b, testSecret) {
		t.Error("the logs contain the webhook secret")
	}
}

func TestReceiverWithMemoryDedup(t *testing.T) {
	t.Parallel()
	url, logs, cancel, done := startRun(t, map[string]string{"WEBHOOK_SECRET": testSecret})
	exercise(t, url, logs, http.StatusOK)
	stop(t, url, logs, cancel, done)
}

func TestReceiverWithRedisDedup(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	url, logs, cancel, done := startRun(t, map[string]string{"WEBHOOK_SECRET": testSecret, "REDIS_URL": "redis://" + addr + "/0"})
	if logs.count(t, "replay protection and queue in Redis", "") != 1 {
		t.Fatal("the receiver does not use Redis")
	}
	exercise(t, url, logs, http.StatusAccepted)
	stop(t, url, logs, cancel, done)
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
		want string
	}{
		"bad path":       {[]string{"-path", "hooks"}, map[string]string{"WEBHOOK_SECRET": "s"}, "-path must start with /"},
		"bad redis url":  {nil, map[string]string{"WEBHOOK_SECRET": "s", "REDIS_URL": "http://user:pw@x"}, "REDIS_URL is not"},
		"stray argument": {[]string{"x"}, map[string]string{"WEBHOOK_SECRET": "s"}, "unexpected arguments"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			err := run(t.Context(), tc.args, func(k string) string { return tc.env[k] }, &out, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run: %v, want an error containing %q", err, tc.want)
			}
			if strings.Contains(err.Error()+out.String(), "pw") {
				t.Error("the Redis password was printed")
			}
		})
	}
}

// Without WEBHOOK_SECRET the receiver runs on its own: it subscribes itself
// on an embedded mock server and receives, verifies and processes the test
// event it asks for.
func TestReceiverDemoOnTheMock(t *testing.T) {
	t.Parallel()
	url, logs, cancel, done := startRun(t, map[string]string{})
	waitFor(t, "the test event processed", func() bool {
		for _, l := range logs.lines(t) {
			if l["msg"] == "event processed" && l["event_type"] == "webhook.subscription.test" {
				return true
			}
		}
		return false
	})
	if logs.count(t, "demo: no WEBHOOK_SECRET, so the receiver subscribed itself on an embedded mock server", "") != 1 {
		t.Error("the demo does not say what it did")
	}
	stop(t, url, logs, cancel, done)
}
