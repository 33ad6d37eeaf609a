package webhooks

import (
	"context"
	"errors"
	"log/slog"
)

// rejectionKinds are the reasons a delivery is rejected (Handler answers
// 400), in the order they are told apart.
var rejectionKinds = []error{ErrMalformedSignature, ErrStaleTimestamp, ErrSignatureMismatch, ErrInvalidPayload, ErrHeaderMismatch}

// rejectionKind answers the reason err rejects a delivery, or nil when err
// is not a rejection.
func rejectionKind(err error) error {
	for _, k := range rejectionKinds {
		if errors.Is(err, k) {
			return k
		}
	}
	return nil
}

// staleHint is what a stale timestamp's log line adds: the usual cause in
// tests is a mock server on a manual clock.
const staleHint = "the delivery's timestamp is far from this verifier's clock; " +
	"a signkit mock server on a manual clock signs with mock time: verify with mockserver.Server.Verifier or WithClock(srv.Now)"

// logRejection makes a rejected delivery visible. With WithLogger, every
// rejection is logged at warn level there. Without, the first rejection of
// each reason (malformed signature, stale timestamp, signature mismatch,
// invalid payload, header mismatch) is logged at warn level through
// slog.Default, and later ones of that reason are not, so that a flood of
// forged deliveries cannot flood the log.
func (v *Verifier) logRejection(ctx context.Context, err error) {
	attrs := []slog.Attr{slog.String("reason", err.Error())}
	if errors.Is(err, ErrStaleTimestamp) {
		attrs = append(attrs, slog.String("hint", staleHint))
	}
	if v.loggerSet {
		v.logger.LogAttrs(ctx, slog.LevelWarn, "webhooks: delivery rejected", attrs...)
		return
	}
	if _, seen := v.rejectionsLogged.LoadOrStore(rejectionKind(err), true); seen {
		return
	}
	attrs = append(attrs, slog.String("note", "logged once per reason; WithLogger logs every rejection"))
	slog.Default().LogAttrs(ctx, slog.LevelWarn, "webhooks: delivery rejected", attrs...)
}
