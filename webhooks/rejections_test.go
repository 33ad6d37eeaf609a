package webhooks_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// A verifier without a logger is not silent: the first rejection of each
// reason goes to slog.Default at warn level (a stale timestamp with the
// hint about a mock's manual clock), later ones of that reason do not.
// Not parallel: it swaps slog's default logger.
func TestRejectionsLoggedOncePerReasonWithoutLogger(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	body := `{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-01-01 00:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":1,"status":5}}`
	v, err := webhooks.NewVerifier(vecSecret) // the wall clock, far from vecUnix: stale
	if err != nil {
		t.Fatal(err)
	}
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	for i := range 3 {
		if w := deliver(t, h, http.MethodPost, signed(uid("stale"+string(rune('a'+i))), webhooks.CaseFileCompleted, body), body); w.Code != 400 {
			t.Fatalf("stale delivery answered %d", w.Code)
		}
	}
	forged := signed(uid("forged"), webhooks.CaseFileCompleted, body)
	forged.Set("X-Event-Signature", webhooks.Sign("another secret", time.Now(), forged, []byte(body)))
	for range 2 {
		if w := deliver(t, h, http.MethodPost, forged, body); w.Code != 400 {
			t.Fatalf("forged delivery answered %d", w.Code)
		}
	}
	out := buf.String()
	if n := strings.Count(out, "webhooks: delivery rejected"); n != 2 {
		t.Fatalf("%d log lines, want 2 (one per reason):\n%s", n, out)
	}
	for _, want := range []string{"level=WARN", "outside the tolerance", "mockserver.Server.Verifier", "signature mismatch"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, vecSecret) || strings.Contains(out, "another secret") {
		t.Errorf("a secret reached the log:\n%s", out)
	}
}

// With WithLogger, every rejection is logged there, and nothing through
// slog.Default.
func TestRejectionsLoggedEachWithLogger(t *testing.T) {
	var def, own bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&def, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	body := `{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-01-01 00:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":1,"status":5}}`
	v, err := webhooks.NewVerifier(vecSecret, webhooks.WithLogger(slog.New(slog.NewTextHandler(&own, nil))))
	if err != nil {
		t.Fatal(err)
	}
	h := v.Handler(func(context.Context, *webhooks.Event) error { return nil })
	for i := range 3 {
		deliver(t, h, http.MethodPost, signed(uid("each"+string(rune('a'+i))), webhooks.CaseFileCompleted, body), body)
	}
	if n := strings.Count(own.String(), "webhooks: delivery rejected"); n != 3 {
		t.Errorf("%d lines in the verifier's logger, want 3:\n%s", n, own.String())
	}
	if def.Len() != 0 {
		t.Errorf("slog.Default got lines although a logger was given:\n%s", def.String())
	}
}
