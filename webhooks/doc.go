// Package webhooks receives the platform's event deliveries: it verifies the
// X-Event-Signature header, rejects stale and replayed deliveries, decodes
// the event body and serves an http.Handler that acknowledges the platform
// the way its retry policy expects.
//
// Build one Verifier per subscription secret and share it:
//
//	v, err := webhooks.NewVerifier(secret)
//	if err != nil { ... }
//	http.Handle("/webhooks", v.Handler(func(ctx context.Context, ev *webhooks.Event) error {
//		switch ev.Type {
//		case webhooks.CaseFileCompleted:
//			return fetchSignedDocuments(ctx, ev.CaseFile.ID)
//		}
//		return nil
//	}))
//
// Verification follows the specification's order: the header is parsed
// strictly, the timestamp must lie within the tolerance (5 minutes either way
// by default), the HMAC-SHA256 over the timestamp, the signed header names,
// their values and the raw body must match one of the v1 signatures, and
// finally the event id (X-Event-Id) is claimed in a DedupStore so that a
// replay is refused with ErrDuplicateEvent.
//
// Delivery is at least once. A handler whose processing fails must make the
// platform retry, and the retry must not be mistaken for a replay: Handler
// and AsyncHandler release the claim on the event id when processing fails,
// so nothing is lost. Receivers that run on several machines share their
// claims through a common store such as the one in package
// webhooks/redisdedup.
//
// A Subscription and a *Verifier print and log their secret as [redacted]
// (every fmt verb, slog's handlers); a Subscription's JSON encoding keeps
// it, since you store it. CreateSubscription is re-sent after a lost answer:
// a re-sent copy that meets the platform's 409 for the same endpoint returns
// the subscription that exists (docs/retries.md).
//
// Sign computes the header value the platform sends; it serves tests and
// senders.
package webhooks
