package hardening

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// lockedBuffer is a bytes.Buffer safe for concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// secretSet collects the secrets of a run: credentials, every access token
// issued, every subscription secret.
type secretSet struct {
	mu   sync.Mutex
	list map[string]string // secret → what it is
}

func (s *secretSet) add(what, v string) {
	if len(v) < 8 { // too short to search for without false alarms; none of ours is
		panic("secret too short to scan for: " + what)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.list[v] = what
}

// find answers a description of every secret in text.
func (s *secretSet) find(text string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for v, what := range s.list {
		if strings.Contains(text, v) {
			out = append(out, what)
		}
	}
	return out
}

// tokenSniffer records the access tokens the token endpoint hands out.
type tokenSniffer struct {
	next    http.RoundTripper
	secrets *secretSet
}

func (ts tokenSniffer) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := ts.next.RoundTrip(r)
	if err != nil || !strings.HasSuffix(r.URL.Path, tokenPath) || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if json.Unmarshal(b, &tok) == nil && tok.AccessToken != "" {
		ts.secrets.add("access token", tok.AccessToken)
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return resp, nil
}

// TestNoSecretsInOutput runs forms, case files, webhooks (with deliveries
// verified by a receiver) and errors with every logger at Debug, then looks
// for the secrets in all log output, every error text, and everything the
// mock tells through its control API.
func TestNoSecretsInOutput(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithManualClock(time.Now()))
	secrets := &secretSet{list: map[string]string{}}
	creds := srv.DefaultCredentials()
	secrets.add("client secret", creds.ClientSecret)
	secrets.add("API secret", creds.APISecret)
	secrets.add("default client secret", mockserver.DefaultClientSecret)
	secrets.add("default API secret", mockserver.DefaultAPISecret)

	var logs lockedBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	cfg := srv.Config()
	cfg.Logger = logger
	cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second, Transport: tokenSniffer{http.DefaultTransport, secrets}}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}

	// A receiver that verifies deliveries with the subscription's secret.
	var verifier struct {
		sync.Mutex
		h http.Handler
	}
	events := make(chan *webhooks.Event, 16)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verifier.Lock()
		h := verifier.h
		verifier.Unlock()
		if h == nil {
			http.Error(w, "not ready", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer rcv.Close()

	fx, err := buildFixture(ctx, srv, client) // forms, a submission, a Send job, a subscription
	if err != nil {
		t.Fatal(err)
	}
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{Endpoint: rcv.URL + "/hook",
		EventTypes: []webhooks.EventType{webhooks.SubscriptionTest, webhooks.CaseFileCompleted, webhooks.SignerSigned}})
	if err != nil {
		t.Fatal(err)
	}
	secrets.add("webhook secret", sub.Secret)
	if old, err := client.Subscriptions.Get(ctx, fx.subscription); err == nil {
		secrets.add("webhook secret", old.Secret)
	} else {
		t.Fatal(err)
	}
	v, err := webhooks.NewVerifier(sub.Secret, webhooks.WithLogger(logger), webhooks.WithTolerance(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	failing := true
	verifier.Lock()
	verifier.h = v.Handler(func(_ context.Context, ev *webhooks.Event) error {
		if failing { // the first event fails once: logged, released, retried
			failing = false
			return errors.New("handler failed on purpose")
		}
		events <- ev
		return nil
	})
	verifier.Unlock()

	// Webhooks: a test event (fails once, then is retried), and a forged one.
	keep(client.Subscriptions.SendTestEvent(ctx))
	srv.Advance(6 * time.Second)
	select {
	case <-events:
	case <-time.After(10 * time.Second):
		t.Fatal("the test event was not delivered")
	}
	forged, _ := http.NewRequest(http.MethodPost, rcv.URL+"/hook", strings.NewReader(`{"topic":"x"}`))
	forged.Header.Set("X-Event-Signature", "t=1,h=x-event-id,v1="+strings.Repeat("0", 64))
	forged.Header.Set("X-Event-Id", "forged")
	if resp, err := http.DefaultClient.Do(forged); err == nil {
		resp.Body.Close()
	}
	_, err = v.Verify(ctx, http.Header{"X-Event-Signature": {"t=1,h=a,v1=zz"}}, []byte(`{}`))
	keep(err)

	// Errors: 404, a validation refusal, server 422, injected 500 and 503, an expired token.
	_, err = client.Forms.Get(ctx, "no-such-form")
	keep(err)
	_, err = client.Forms.Create(ctx, &forms.Form{Name: "bad", Sections: []forms.Section{{Fields: []forms.Field{{Name: "e", Type: forms.TypeText, MapTo: "primarySigner.email"}}}}})
	keep(err)
	_, err = client.Subscriptions.Create(ctx, &subscriptions.Request{Endpoint: "http://example.com/x", EventTypes: []webhooks.EventType{"no.such.type"}})
	keep(err)
	for _, status := range []int{500, 503} {
		if err := srv.InjectFault(mockserver.Fault{Path: "/collect/api/v1/forms/" + fx.formA, Status: status, Times: 1}); err != nil {
			t.Fatal(err)
		}
		_, err = client.Forms.Get(ctx, fx.formA)
		keep(err)
	}
	if err := srv.InjectFault(mockserver.Fault{Path: "/api/v1/casefiles/*", Drop: true, Times: 10}); err != nil {
		t.Fatal(err)
	}
	_, err = client.CaseFiles.Get(ctx, fx.sendCase)
	keep(err)
	srv.ClearFaults()
	srv.Advance(10*time.Minute + time.Second)
	if _, err := client.Forms.ListSubmissions(ctx, fx.formA, nil); err != nil {
		t.Fatalf("after renewal: %v", err)
	}
	// The signing simulation: every signer signs, events are delivered.
	d, err := client.CaseFiles.Get(ctx, fx.sendCase)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Signers {
		keep(srv.SignerAction(fx.sendCase, s.ID, mockserver.ActionSign))
	}
	srv.Advance(time.Minute)

	if len(errs) < 6 {
		t.Errorf("only %d errors were produced: the run is not representative", len(errs))
	}
	var texts []string
	for _, e := range errs {
		texts = append(texts, e.Error())
	}
	if n := len(secrets.list); n < 5 {
		t.Errorf("only %d secrets known: the scan would prove little", n)
	}
	scan := map[string]string{"SDK and verifier logs": logs.String(), "error texts": strings.Join(texts, "\n")}
	for _, p := range []string{"/mock/requests", "/mock/deliveries", "/mock/emails", "/mock/events", "/mock/faults", "/mock/clock", "/mock/health"} {
		resp, err := http.Get(srv.URL() + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
		scan["mock "+p] = string(b)
	}
	if !strings.Contains(logs.String(), "level=DEBUG") {
		t.Errorf("no Debug log lines were captured:\n%s", logs.String())
	}
	for where, text := range scan {
		if found := secrets.find(text); len(found) > 0 {
			t.Errorf("%s hold %v", where, found)
		}
	}
	t.Logf("scanned %d log bytes, %d error texts, %d control API answers for %d secrets", len(logs.String()), len(texts), len(scan)-2, len(secrets.list))
}
