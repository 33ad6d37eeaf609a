// Package webhooks receives the platform's event deliveries: it verifies the
// X-Event-Signature header, rejects stale, malformed and replayed
// deliveries, decodes the event body and serves an http.Handler that
// acknowledges the platform the way its retry policy expects. Subscribing
// an endpoint is package subscriptions' job; this package imports none of
// it, so a receiver builds without the SDK's service client.
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
// Verify checks, in order: the header parses strictly
// (ErrMalformedSignature); the timestamp lies within the tolerance, 5
// minutes either way by default (ErrStaleTimestamp); the HMAC-SHA256 over
// the timestamp, the signed header names, their values and the raw body
// matches one of the v1 signatures (ErrSignatureMismatch); the body is
// exactly one whole JSON object, checked with encoding/json
// (ErrInvalidPayload); X-Event-Id is 1 to 200 printable
// ASCII characters without a "." and X-Event-Type names the body's topic
// and eventType (ErrHeaderMismatch: the signed string joins header values
// with ".", so only this check ties each value to its place); and last the event id is claimed in a dedup.Store, so that
// a replay is refused (ErrDuplicateEvent). The handlers read bodies through
// http.MaxBytesReader into a buffer that grows with what arrives, never
// sized from Content-Length, and answer every rejection 400, logged
// without secrets.
//
// Payloads are read liberally: a delivery whose signature, timestamp and
// headers are good is never refused for the types of its members. Ids and
// statuses (payload.id, payload.status, payload.caseFile.id,
// payload.caseFile.status) are read from JSON numbers or numeric strings
// ("531"); a member that cannot be read ("status": {"x":1}, "eventTime": 42, a
// date in an unknown zone) is left zero, fn gets the event with the rest,
// Event.Raw holds the whole body, and the Verifier's logger names the
// unreadable members at warn level.
// https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#liberal-payloads,
// lists the rule member by member.
//
// Two handlers. Handler, the simple default, answers 2xx only once fn has
// succeeded; when fn fails or panics it answers 500 and releases the claim, so
// the platform's retry is processed. A duplicate is answered 200 only once its
// event is finished: one whose first delivery's fn still runs is answered 409,
// and re-sent by the platform, with a dedup.Store that is a dedup.Completer (both of
// this module's are). AsyncHandler answers 202 once the event is stored in a
// queue.Queue (package webhooks/queue) and processes it in a pool of workers:
// success acknowledges the entry, an error or a panic is retried with backoff,
// and after WithMaxAttempts failures the event moves to the queue's dead-letter
// list, read and replayed with the queue's DeadLetters and Replay
// (queue.DeadLetterList). With a queue whose hand-outs are leases, each entry
// is touched on a heartbeat for the whole of its handling; a lost claim
// (queue.ErrClaimLost) stops it, and so does a lease that ran out without a
// successful touch: no further run of fn starts. Its Shutdown waits for the
// workers; when its ctx ends first, it cancels fn's context and waits a grace
// (WithShutdownGrace, default 1 s) for the runs under way. It then returns the
// events a memory queue could not finish, those whose fn returned without
// success within the grace included, with an error matching ErrHandedBack: read
// them whatever the error. Runs still under way are named in a *ShutdownError
// and never handed back. When the base context (WithBaseContext) ends, the
// handler answers 503 and keeps what it holds for Shutdown. With a queue whose
// Enqueue is idempotent for at least the claim's ttl (queue.Idempotent, as
// webhooks/redisqueue's is), AsyncHandler claims no event id: the enqueue is
// the dedup. What the 202 is worth is the queue's durability:
// webhooks/redisqueue (a Redis stream shared by a fleet of receivers) survives
// a crash of the receiver, and with a persistent Redis a crash of Redis;
// queue.NewMemory, an explicit opt-in, does not. Receivers on several machines
// share their claims through webhooks/redisdedup. The design is described
// in https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md, and
// what each queue survives, with the tests that show it, in
// https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#what-a-2xx-guarantees.
//
// A *Verifier prints and logs its secret as [redacted] (every fmt verb,
// slog's handlers).
//
// Sign computes the header value the platform sends; it serves tests and
// senders.
package webhooks
