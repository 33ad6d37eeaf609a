// Package mockserver is an in-memory, stateful imitation of the signing
// platform for tests: the five services of signkit.Endpoints on one handler
// (laid out as signkit.LocalEndpoints), real public form pages and signing
// pages, webhook delivery, and a control API under /mock/. It is the other
// side of the wire from the SDK and shares none of its request code.
//
// # Start it
//
//	srv := mockserver.Start(t, mockserver.WithManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
//	client, _ := signkit.NewClient(srv.Config())
//	...
//	srv.Advance(10*time.Minute + time.Second) // tokens have expired now
//
// Start listens on a loopback port and closes the server when the test
// ends. Without sockets (for testing/synctest), build with New and give the
// client an http.Client whose Transport is srv.Transport(). Outside Go
// tests, run the binary cmd/signkit-mock.
//
// # What it imitates
//
//   - Auth: the API Keys Grant token endpoint; tokens expire after 10
//     minutes of mock time, and each service takes its token where the
//     platform does (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
//   - Forms: forms and versions (DRAFT, ACTIVE, ARCHIVED), prefilled
//     requests, public pages that validate and store submissions, answers
//     and files; each submission creates and activates a case file.
//   - Send: simple case file creation (multipart upload streamed to disk,
//     WithMaxUploadBytes; or the vendor connector's JSON routes, production
//     and sandbox, documents in base64, decoded to disk as they stream)
//     through a job queue and its status check; a refused create answers
//     the platform's 400. Keys are read exactly; documents per request are
//     bounded (WithMaxDocuments).
//   - Signing: case file details, lists sorted by any of their times,
//     failure reasons, document content, signing requests (update, resend,
//     link), a signing page per signer, and the simulation: rounds by sign
//     order, emails (GET /mock/emails), reminders, expiry, rejection with a
//     reason, completion, signed PDFs.
//   - Webhooks: subscriptions, signed deliveries of every event with the
//     platform's retry schedule on the mock clock (Server.Deliveries, GET
//     /mock/deliveries), and the test event.
//   - Control API (WithControlAPI): users, the clock (GET /mock/clock, POST
//     /mock/clock/advance), signer actions, failing a case file, shared
//     folders, expiry, faults
//     (Server.InjectFault, POST /mock/faults: a status, a delay or a dropped
//     connection, before or after the effect), the journals and POST
//     /mock/reset.
//
// Time comes from the server's clock: real by default, or a manual clock
// (WithManualClock) that Advance moves; token expiry, jobs, reminders,
// expiry and webhook retries all run on it. With a manual clock a queued
// job runs at once (WithJobDelay makes it wait), so casefiles.Wait returns;
// deliveries are signed with mock time, so verify them with Verifier,
// whose clock is the server's. Jobs are kept until Reset unless
// WithJobRetention makes the queue status forget a finished one, as the
// platform does. Reset takes everything back, the clock included.
//
// # Test with it in Go
//
// What a person would see or do, a test reads and does through Go calls
// on the Server: EmailsTo (the signing emails and their links), Events
// (the event log), Requests (the request journal), Deliveries,
// SignerAction (sign, reject, ...), RejectSigner (a rejection with its
// reason), FailCaseFile (a case file that fails, with its reasons),
// SubmitForm (a form's public page, as a
// browser posts it), ReplayDelivery, and SamplePDF for documents to
// upload. Their errors match the SDK's sentinels: errors.Is(err,
// signkit.ErrConflict) for an action the state refuses, signkit.ErrNotFound
// for an unknown id.
//
// # Who may drive it
//
// The control API has no token, so the mock keeps it to the people who run it
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#who-may-drive-the-control-api):
//
//   - A state-changing request (not GET, HEAD or OPTIONS) to the control
//     API or the dashboard's forms with an Origin, or without one a
//     Referer, of another origin is answered 403; Origin: null is another
//     origin. curl, the SDK and test code send neither and pass; the
//     dashboard's own forms carry the mock's origin.
//   - A control API request with a body that is not JSON is answered 415:
//     send Content-Type: application/json with a body, or no body at all
//     (POST /mock/reset).
//   - A request over the network whose Host is neither a loopback name
//     (localhost, *.localhost, 127.0.0.0/8, [::1]), the base URL's host,
//     nor a name given to WithAllowedHosts (the binary: -allow-host) is
//     answered 421 on every route, so that a page whose name is rebound to
//     127.0.0.1 reads nothing. Requests through Transport, or to Handler
//     called in process, are not checked; Start listens on 127.0.0.1.
//
// # What it does not do
//
// It keeps everything in memory, bounded: per-account Limits (WithLimits)
// answer 507 when a run outgrows them, a status the platform never sends; POST
// /mock/reset empties it. It signs nothing for real: signatures are drawn into
// the PDFs. It does not imitate the platform's other services, its rate limits
// beyond the queue status check, or its exact error texts. Where the platform's
// own clients disagree,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md says which
// one the mock follows. Notes for people changing the mock are in
// https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md.
package mockserver
