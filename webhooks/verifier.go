package webhooks

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"hash"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/signkit/signkit-go/internal/redact"
	"github.com/signkit/signkit-go/webhooks/dedup"
)

// Errors of Verify. Each error Verify returns for a rejected delivery matches
// one of them with errors.Is; a dedup.Store failure matches none.
var (
	// ErrMalformedSignature: the X-Event-Signature header is missing or
	// malformed: t, h or v1 missing, repeated t or h, unknown keys, empty
	// values, a t that is not decimal seconds, a v1 that is not 64 hex
	// digits.
	ErrMalformedSignature = errors.New("webhooks: malformed X-Event-Signature")
	// ErrStaleTimestamp: t is further from the verifier's clock than the
	// tolerance, in either direction.
	ErrStaleTimestamp = errors.New("webhooks: signature timestamp outside the tolerance")
	// ErrSignatureMismatch: no v1 value matches the HMAC of the delivery, or
	// a header named in h is missing from the request.
	ErrSignatureMismatch = errors.New("webhooks: signature mismatch")
	// ErrDuplicateEvent: the event id was already claimed, by an earlier
	// delivery that was processed or is being processed.
	ErrDuplicateEvent = errors.New("webhooks: duplicate event")
	// ErrInvalidPayload: the signature is valid but the body is not exactly one
	// whole JSON object: malformed or truncated JSON, anything after the
	// object, or another JSON value (an array, a string, null). Members of
	// unexpected types are not refused: they are left zero and logged
	// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#liberal-payloads).
	ErrInvalidPayload = errors.New("webhooks: invalid event payload")
)

// Defaults of a Verifier.
const (
	// DefaultTolerance is the accepted distance between t and the clock.
	DefaultTolerance = 5 * time.Minute
	// DefaultMaxBodyBytes is the largest body Handler and AsyncHandler read.
	DefaultMaxBodyBytes = 1 << 20
)

// Verifier verifies deliveries signed with one subscription secret. It is
// safe for concurrent use; build it once and share it. Printing or logging
// it (any fmt verb, any slog handler) shows its settings, never the secret.
type Verifier struct {
	key       []byte
	tolerance time.Duration
	now       func() time.Time
	dedup     dedup.Store
	dedupSet  bool
	maxBody   int64
	logger    *slog.Logger
	loggerSet bool      // WithLogger was given (rejections.go)
	macs      sync.Pool // of *macState keyed with key

	rejectionsLogged sync.Map // reasons logged through slog.Default (rejections.go)
}

// VerifierOption configures a Verifier.
type VerifierOption func(*Verifier)

// WithTolerance sets how far t may lie from the clock, in either direction
// (default 5 minutes). It must be positive. Event ids are claimed for twice
// the tolerance.
func WithTolerance(d time.Duration) VerifierOption {
	return func(v *Verifier) { v.tolerance = d }
}

// WithClock sets the clock that timestamps are checked against (default
// time.Now).
func WithClock(now func() time.Time) VerifierOption {
	return func(v *Verifier) { v.now = now }
}

// WithDedup sets the store that remembers event ids (default
// dedup.NewMemory(dedup.DefaultMaxEntries)); nil turns replay checks off.
func WithDedup(s dedup.Store) VerifierOption {
	return func(v *Verifier) { v.dedup, v.dedupSet = s, true }
}

// WithMaxBodyBytes sets the largest body Handler and AsyncHandler accept
// (default 1 MiB); larger bodies are answered 413. It must be positive.
func WithMaxBodyBytes(n int64) VerifierOption {
	return func(v *Verifier) { v.maxBody = n }
}

// WithLogger sets where Handler and AsyncHandler report rejected
// deliveries (warn), and failures of processing and of the dedup.Store, and
// where Verify, and so both handlers, report an accepted event whose
// members could not all be read (warn, naming the members). Without it, the
// first rejection of each reason and the first such event are logged at
// warn level through slog.Default, so that a verifier that refuses every
// delivery (a wrong secret, a clock that is not the sender's) or reads
// every event partly is never silent, and the rest is not logged. Secrets,
// signatures and member values are never logged.
func WithLogger(l *slog.Logger) VerifierOption {
	return func(v *Verifier) { v.logger, v.loggerSet = l, l != nil }
}

// NewVerifier returns a Verifier for secret, the subscription's secret. It
// refuses an empty secret and invalid options.
func NewVerifier(secret string, opts ...VerifierOption) (*Verifier, error) {
	if secret == "" {
		return nil, errors.New("webhooks: empty secret")
	}
	v := &Verifier{
		key:       []byte(secret),
		tolerance: DefaultTolerance,
		now:       time.Now,
		maxBody:   DefaultMaxBodyBytes,
	}
	for _, o := range opts {
		o(v)
	}
	switch {
	case v.tolerance <= 0:
		return nil, fmt.Errorf("webhooks: tolerance %v is not positive", v.tolerance)
	case v.maxBody <= 0:
		return nil, fmt.Errorf("webhooks: body limit %d is not positive", v.maxBody)
	}
	if v.now == nil {
		v.now = time.Now
	}
	if !v.dedupSet {
		v.dedup = dedup.NewMemory(dedup.DefaultMaxEntries)
	}
	if v.logger == nil {
		v.logger = slog.New(slog.DiscardHandler)
	}
	v.macs.New = func() any {
		return &macState{mac: hmac.New(sha256.New, v.key), buf: make([]byte, 0, 256)}
	}
	return v, nil
}

// Verify checks a delivery in the specification's order and decodes it:
// the X-Event-Signature header (ErrMalformedSignature), its timestamp
// (ErrStaleTimestamp), the signature over the headers named in h, read
// case-insensitively, and body (ErrSignatureMismatch), the body, which must
// be exactly one whole JSON object (ErrInvalidPayload), the event headers
// against the body (ErrHeaderMismatch), and last the event id, which it
// claims in the dedup.Store for twice the tolerance (ErrDuplicateEvent). A
// store failure is returned wrapped and matches none of these errors.
//
// The body's members are read liberally
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#liberal-payloads):
// ids and statuses from JSON numbers or numeric strings ("531"); a member that
// cannot be read (a status that is an object, an eventTime that is a number or
// names an unknown zone) is left zero in the Event, and the members' names,
// never their values, are logged at warn level (WithLogger). Only topic and
// eventType are bound: one that is not a string does not name X-Event-Type's
// topic and event (ErrHeaderMismatch).
//
// A caller that fails to process the event must call Release, so that the
// platform's retry is accepted. The returned Event's Raw shares memory with
// body.
func (v *Verifier) Verify(ctx context.Context, h http.Header, body []byte) (*Event, error) {
	ev, err := v.verify(ctx, h, body, true)
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// verify is Verify, except that it also returns the event with
// ErrDuplicateEvent: a duplicate is a verified delivery whose id was
// claimed before. Without claim it claims nothing and finds no duplicate
// (AsyncHandler on a queue whose Enqueue is the dedup, async.go).
func (v *Verifier) verify(ctx context.Context, h http.Header, body []byte, claim bool) (*Event, error) {
	var sig signature
	sigValue, _ := headerValue(h, SignatureHeader)
	if err := parseSignature(sigValue, &sig); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedSignature, err)
	}
	now := v.now()
	if d := now.Sub(time.Unix(sig.unix, 0)); d > v.tolerance || d < -v.tolerance {
		return nil, fmt.Errorf("%w: t=%d, clock %d", ErrStaleTimestamp, sig.unix, now.Unix())
	}
	if !v.signatureMatches(&sig, h, body) {
		return nil, ErrSignatureMismatch
	}
	id, _ := headerValue(h, EventIDHeader)
	typ, _ := headerValue(h, EventTypeHeader)
	ev, bad, err := decodeEvent(id, EventType(typ), body)
	if err != nil {
		return nil, err
	}
	if err := checkBinding(ev); err != nil {
		return nil, err
	}
	if v.dedup != nil && claim {
		ok, err := v.dedup.Claim(ctx, id, v.claimTTL())
		if err != nil {
			return nil, fmt.Errorf("webhooks: claim event id: %w", err)
		}
		if !ok {
			return ev, ErrDuplicateEvent
		}
	}
	if bad != 0 {
		v.logUnreadable(ctx, ev, bad)
	}
	return ev, nil
}

// claimTTL is how long Verify claims an event id: twice the tolerance, so
// that a replay is refused for as long as its timestamp is accepted.
func (v *Verifier) claimTTL() time.Duration { return 2 * v.tolerance }

// macState is a MAC keyed with the verifier's secret and a buffer for the
// head of the signed string, reused through a pool.
type macState struct {
	mac hash.Hash
	buf []byte
}

// signatureMatches computes the HMAC once and compares it with every v1,
// all of them, so that the time taken does not depend on which matched.
func (v *Verifier) signatureMatches(sig *signature, h http.Header, body []byte) bool {
	st := v.macs.Get().(*macState)
	defer v.macs.Put(st)
	st.mac.Reset()
	if !writeSigned(st.mac, st.buf, sig.t, sig.h, h, body) {
		return false
	}
	var sum [sha256.Size]byte
	got := st.mac.Sum(sum[:0])
	match := 0
	for i := range sig.n {
		match |= subtle.ConstantTimeCompare(got, sig.v1[i][:])
	}
	return match == 1
}

// Release forgets the claim on eventID so that a redelivery is accepted.
// Call it when processing an event that Verify returned fails. It does
// nothing when replay checks are off.
func (v *Verifier) Release(ctx context.Context, eventID string) error {
	if v.dedup == nil || eventID == "" {
		return nil
	}
	if err := v.dedup.Release(ctx, eventID); err != nil {
		return fmt.Errorf("webhooks: release event id: %w", err)
	}
	return nil
}

// isRejection reports whether err is one of Verify's verdicts on the
// delivery, as opposed to a failure of the receiver.
func isRejection(err error) bool { return rejectionKind(err) != nil }

// String describes the verifier by its settings; the secret shows as
// "[redacted]".
func (v *Verifier) String() string {
	if v == nil {
		return "<nil>"
	}
	return fmt.Sprintf("webhooks.Verifier{Secret:%s, Tolerance:%v, MaxBodyBytes:%d, Dedup:%s}",
		redact.Mark, v.tolerance, v.maxBody, v.dedupName())
}

// GoString is String, so that %#v does not print the secret either.
func (v *Verifier) GoString() string { return v.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString), never the fields, which hold the secret.
func (v *Verifier) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, v.String(), v.GoString())
}

// LogValue implements slog.LogValuer: the verifier's settings, and the
// secret as "[redacted]".
func (v *Verifier) LogValue() slog.Value {
	if v == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(
		slog.String("Secret", redact.Mark),
		slog.String("Tolerance", v.tolerance.String()),
		slog.Int64("MaxBodyBytes", v.maxBody),
		slog.String("Dedup", v.dedupName()),
	)
}

// dedupName names the dedup.Store's type, or "off" when replay checks are off.
func (v *Verifier) dedupName() string {
	if v.dedup == nil {
		return "off"
	}
	return fmt.Sprintf("%T", v.dedup)
}

// Interface checks.
var (
	_ fmt.Formatter  = (*Verifier)(nil)
	_ fmt.GoStringer = (*Verifier)(nil)
	_ slog.LogValuer = (*Verifier)(nil)
)
