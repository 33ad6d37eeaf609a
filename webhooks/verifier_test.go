package webhooks_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// uid derives a UUID from name, so that tests can name their events.
func uid(name string) string {
	s := sha256.Sum256([]byte(name))
	x := hex.EncodeToString(s[:16])
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-a" + x[17:20] + "-" + x[20:32]
}

// signed returns headers for body signed at vecUnix with the event id id.
func signed(id string, typ webhooks.EventType, body string) http.Header {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Event-Id", id)
	h.Set("X-Event-Type", string(typ))
	h.Set("X-Event-Signature", webhooks.Sign(vecSecret, time.Unix(vecUnix, 0), h, []byte(body)))
	return h
}

func TestNewVerifierRefuses(t *testing.T) {
	t.Parallel()
	for name, tt := range map[string]struct {
		secret string
		opts   []webhooks.VerifierOption
	}{
		"empty secret":   {"", nil},
		"zero tolerance": {"s", []webhooks.VerifierOption{webhooks.WithTolerance(0)}},
		"negative limit": {"s", []webhooks.VerifierOption{webhooks.WithMaxBodyBytes(-1)}},
	} {
		if v, err := webhooks.NewVerifier(tt.secret, tt.opts...); err == nil || v != nil {
			t.Errorf("%s: NewVerifier = %v, %v", name, v, err)
		}
	}
}

func TestVerifyReplay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	v := newVerifier(t)
	h, body := vecHeaders(), []byte(vecBody)
	if _, err := v.Verify(ctx, h, body); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, h, body); !errors.Is(err, webhooks.ErrDuplicateEvent) {
		t.Fatalf("replay: %v", err)
	}
	// A retry carries the same id with a new t: still a duplicate.
	h2 := vecHeaders()
	h2.Set("X-Event-Signature", webhooks.Sign(vecSecret, time.Unix(vecUnix+5, 0), h2, body))
	if _, err := v.Verify(ctx, h2, body); !errors.Is(err, webhooks.ErrDuplicateEvent) {
		t.Fatalf("retry: %v", err)
	}
	// Processing failed: release, and the retry is accepted once.
	if err := v.Release(ctx, vecID); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, h2, body); err != nil {
		t.Fatalf("retry after release: %v", err)
	}
	if _, err := v.Verify(ctx, h, body); !errors.Is(err, webhooks.ErrDuplicateEvent) {
		t.Fatalf("replay after retry: %v", err)
	}
}

// recordingStore records the claims it is asked for.
type recordingStore struct {
	ttl   time.Duration
	ids   []string
	err   error
	taken map[string]bool
}

func (s *recordingStore) Claim(_ context.Context, id string, ttl time.Duration) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	s.ids, s.ttl = append(s.ids, id), ttl
	if s.taken == nil {
		s.taken = map[string]bool{}
	}
	if s.taken[id] {
		return false, nil
	}
	s.taken[id] = true
	return true, nil
}

func (s *recordingStore) Release(_ context.Context, id string) error {
	delete(s.taken, id)
	return s.err
}

func TestVerifyClaimsLastForTwiceTheTolerance(t *testing.T) {
	t.Parallel()
	store := &recordingStore{}
	v := newVerifier(t, webhooks.WithDedup(store), webhooks.WithTolerance(time.Minute))
	ctx := context.Background()
	// Rejected deliveries claim nothing.
	bad := vecHeaders()
	bad.Set("X-Event-Signature", "t=1763805600")
	for _, h := range []http.Header{bad, signed(vecID, webhooks.CaseFileCompleted, `[1,2]`)} {
		if _, err := v.Verify(ctx, h, []byte(`[1,2]`)); err == nil {
			t.Fatal("accepted")
		}
	}
	if len(store.ids) != 0 {
		t.Fatalf("claimed %v for rejected deliveries", store.ids)
	}
	if _, err := v.Verify(ctx, vecHeaders(), []byte(vecBody)); err != nil {
		t.Fatal(err)
	}
	if len(store.ids) != 1 || store.ids[0] != vecID || store.ttl != 2*time.Minute {
		t.Fatalf("claims %v for %v", store.ids, store.ttl)
	}
}

// A refused body keeps no claim on its event id. A numeric topic or a body
// without one is no payload error
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#liberal-payloads),
// but it does not name the topic of X-Event-Type: a header mismatch.
func TestVerifyInvalidPayloadKeepsNoClaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	v := newVerifier(t)
	for _, tt := range []struct {
		body string
		want error
	}{
		{`not json`, webhooks.ErrInvalidPayload}, {`[]`, webhooks.ErrInvalidPayload},
		{`"x"`, webhooks.ErrInvalidPayload}, {`{} {}`, webhooks.ErrInvalidPayload}, {``, webhooks.ErrInvalidPayload},
		{`{"topic":1}`, webhooks.ErrHeaderMismatch}, {`{"payload":{"id":"531"}}`, webhooks.ErrHeaderMismatch},
		{`{"topic":"casefile","eventType":"completed","payload":{"id":531,"status":5}`, webhooks.ErrInvalidPayload},
		{`{"topic":"casefile","eventType":"completed","payload":{"id":531,"status":5}}x`, webhooks.ErrInvalidPayload},
	} {
		h := signed(uid("bad"), webhooks.CaseFileCompleted, tt.body)
		if _, err := v.Verify(ctx, h, []byte(tt.body)); !errors.Is(err, tt.want) {
			t.Fatalf("%q: %v, want %v", tt.body, err, tt.want)
		}
	}
	good := `{"topic":"casefile","eventType":"completed","payload":{"id":1,"status":5}}`
	if _, err := v.Verify(ctx, signed(uid("bad"), webhooks.CaseFileCompleted, good), []byte(good)); err != nil {
		t.Fatalf("the id was kept after invalid payloads: %v", err)
	}
}

func TestVerifyStoreErrorIsWrapped(t *testing.T) {
	t.Parallel()
	boom := errors.New("store down")
	v := newVerifier(t, webhooks.WithDedup(&recordingStore{err: boom}))
	_, err := v.Verify(context.Background(), vecHeaders(), []byte(vecBody))
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	for _, s := range []error{webhooks.ErrMalformedSignature, webhooks.ErrStaleTimestamp,
		webhooks.ErrSignatureMismatch, webhooks.ErrDuplicateEvent, webhooks.ErrInvalidPayload,
		webhooks.ErrHeaderMismatch} {
		if errors.Is(err, s) {
			t.Fatalf("store error matches %v", s)
		}
	}
	if err := v.Release(context.Background(), vecID); !errors.Is(err, boom) {
		t.Fatalf("Release: %v", err)
	}
}

// The event headers are required and well formed even when the signature
// does not cover them, and whether or not replay checks are on.
func TestVerifyMissingEventID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	body := `{"topic":"casefile","eventType":"completed"}`
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Event-Type", string(webhooks.CaseFileCompleted))
	mac := hmacHex(vecSecret, "1763805600.content-type.application/json."+body)
	h.Set("X-Event-Signature", "t=1763805600,h=content-type,v1="+mac)
	for name, v := range map[string]*webhooks.Verifier{
		"dedup on":  newVerifier(t),
		"dedup off": newVerifier(t, webhooks.WithDedup(nil)),
	} {
		if _, err := v.Verify(ctx, h, []byte(body)); !errors.Is(err, webhooks.ErrHeaderMismatch) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	h.Set("X-Event-Id", vecID)
	if ev, err := newVerifier(t, webhooks.WithDedup(nil)).Verify(ctx, h, []byte(body)); err != nil || ev.ID != vecID {
		t.Fatalf("with the id: %v, %v", ev, err)
	}
	if err := newVerifier(t, webhooks.WithDedup(nil)).Release(ctx, "x"); err != nil {
		t.Fatal(err)
	}
}

// Two concurrent deliveries of one event: one is processed.
func TestVerifyConcurrentDeliveries(t *testing.T) {
	t.Parallel()
	v := newVerifier(t)
	const n = 16
	results := make(chan error, n)
	for range n {
		go func() {
			_, err := v.Verify(context.Background(), vecHeaders(), []byte(vecBody))
			results <- err
		}()
	}
	ok := 0
	for range n {
		switch err := <-results; {
		case err == nil:
			ok++
		case !errors.Is(err, webhooks.ErrDuplicateEvent):
			t.Fatal(err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d deliveries accepted, want 1", ok)
	}
}
