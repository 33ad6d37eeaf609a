// Package mockserver is an in-memory, stateful imitation of the signing
// platform for tests: the five services of signkit.Endpoints on one handler
// (laid out as signkit.LocalEndpoints), real public form pages, and a control
// API under /mock/. It is the other side of the wire from the SDK and shares
// none of its request code.
//
// # Use
//
//	srv := mockserver.Start(t, mockserver.WithManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)))
//	client, _ := signkit.NewClient(srv.Config())
//	...
//	srv.Advance(10*time.Minute + time.Second) // tokens have expired now
//
// Without sockets (for testing/synctest), build with New and give the client
// an http.Client whose Transport is srv.Transport().
//
// # Layout
//
//   - server.go: Server, New, Start, the domain list (initDomains) and Reset.
//   - options.go: Option and the With… functions.
//   - clock.go: mock time and the scheduler.
//   - router.go: services, path prefixes, routing, JSON 404/405, token checks.
//   - errors.go: the JSON error body and validation details.
//   - accounts.go, auth.go: customers, users, the token endpoint, tokens.
//   - control.go: the control API; journal.go: GET /mock/requests.
//   - forms_*.go: the forms service; public_*.go: the public form pages.
//   - casefiles_store.go: the signing store that submissions and Send jobs feed.
//   - send.go, send_validate.go: the Send create endpoint (streamed multipart
//     upload, WithMaxUploadBytes) and its validation; queue.go: jobs and the
//     queue status check.
//   - signing.go: the signing simulation (activation, rounds, completion,
//     reminders, expiry); control_casefiles.go: its control API and
//     Server.SignerAction; signing_page.go: the page behind each signing link.
//   - sign_service.go: case file details and document content; pdf.go:
//     signature pages (go-pdf/fpdf) merged into signed PDFs (pdfcpu).
//   - events.go: the event log; emails.go: the outbox (GET /mock/emails).
//   - transport.go: the in-process http.RoundTripper.
//   - webhook_subs.go, webhook_handlers.go: webhook subscriptions;
//     delivery*.go, deliveries_journal.go: the delivery engine, its retry
//     schedule and GET /mock/deliveries; faults.go: fault injection.
//
// # Extension points
//
// A domain (forms, case files; later Send, signing, webhooks) keeps its state
// in its own struct and file, with its own lock, and has an init function
// listed in Server.initDomains. The init function creates the state,
// registers its reset with s.onReset, and adds routes:
//
//	s.router.handle(svcSend, http.MethodPost, "/api/v1/casefiles/20251022/create", s.handleSendCreate)
//	s.router.handleOpen(svcSend, http.MethodPost, "/api/v1/queue/public/status", s.handleQueueStatus)
//
// The pattern is relative to the service's prefix; {name} segments are read
// with r.PathValue. Routes of the Forms, Sign, Send and Webhook services
// require a token placed as docs/platform.md ("Authentication") says; the handler finds the
// caller with userFrom(r). A handler returns an error instead of writing
// one: return errNotFound(...), errForbidden(...), errConflict(...) or a
// problems list's err() (422 with one detail per problem); writeError turns
// it into {"statusCode","error","message","details":[{"field","message"}]}.
// Any other error is answered 500 without its text.
//
// Work on mock time goes through s.clock: s.clock.after(d, fn) or
// s.clock.at(t, fn) schedule fn (cancel with s.clock.cancel), s.clock.go_(fn)
// starts background work that Advance waits for. Advance waits for work in
// flight, then runs what falls due in time order (tasks due at the same
// instant concurrently), waiting for each instant's work before the next.
// With the real clock the same tasks run when the wall clock reaches them.
// A task must not call Advance.
//
// # Send, signing simulation, events and emails
//
// A Send create request streams each files part to its own file under the
// server's temporary directory (created on first use, removed by Reset and
// Close) through a fixed buffer, hashing on the way, so memory does not grow
// with file size; the whole body is limited by WithMaxUploadBytes (default
// 1 GiB, 413 above it). A valid request queues a job that runs s.cfg.jobDelay
// of mock time later and adds the case file with s.cases.add.
//
// caseFileStore.add runs the store's onAdd hook, which is s.activate: a
// Send job's case file and a form submission's are activated by the same
// function (status 1, the lowest signOrder round activated, request emails
// to signers with an email, reminders every reminderInterval days from the
// request, the expiry if expireAt is set). Signer actions go through
// s.SignerAction (control API, signing page). All of it is serialized by
// s.sign.mu; writes to case file state also hold s.cases.mu, which readers
// take. Statuses follow docs/platform.md (case file 0..8, signer 0..5).
//
// A case file can be put in the customer's shared folder, where every user
// of the customer may read it: Server.ShareCaseFile or POST
// /mock/casefiles/{id}/shared-folder {"shared":true}. Its expiry can be set
// with caseFile.expireAt (integer unix seconds, or RFC 3339) in the Send data, Server.SetCaseFileExpiry
// or POST /mock/casefiles/{id}/expiry {"expireAt":"…"}.
//
// The event log (s.sign.events, events.go) holds every customer's events in
// order; GET /mock/events lists it. To emit, call
// s.sign.events.emit(customerID, caseFileID, eventType, s.Now(), payload)
// (caseFileID 0 for events of no case file, such as the test event); the
// body is {"topic","eventType","eventTime","payload"}, topic and eventType
// taken from app.topic.event, eventTime {"date":"YYYY-MM-DD
// HH:MM:SS.ffffff","timezone_type":3,"timezone":"UTC"}. s.emitCaseFile and
// s.emitSigner build the spec's case file and signer payloads. A consumer
// calls s.sign.events.subscribe(func(ev *event)) once, in its init function
// (after initSigning); the listener runs synchronously for each event in
// log order, while the emitter holds its locks, so it must return quickly,
// must not emit, and must not call into the case file store or the
// simulation: it starts slow work with s.clock.go_. Listeners survive
// Reset; the log does not, but sequence numbers (event.Seq) keep growing.
// s.sign.events.since(customerID, afterSeq) reads the log.
//
// Emails go to the outbox with s.sendEmail(to, subject, text, signingLink);
// GET /mock/emails lists {"to","subject","text","signingLink","at"}.
//
// # Webhooks
//
// Every event of the event log goes to each active subscription of its
// customer that lists its type, whichever user's case file it concerns:
// a signed POST (X-Event-Id fixed per event and subscription, X-Event-Type,
// X-Event-Signature with t the mock time of the attempt). A connection
// slower than 200 ms, no complete answer within 1 s (real time) or a status
// outside 2xx fails the attempt; redirects are not followed. Retries run on
// the mock clock 5, 10, 15, 20 and 25 s after the previous attempt, then 30
// times an hour apart; after the 36th failed attempt the subscription is
// disabled and its creator and the customer's admins get an email. The
// first attempt starts at once in the background, so
//
//	srv.Advance(31 * time.Hour) // runs all 36 attempts in milliseconds
//
// Each subscription's deliveries leave in order; subscriptions are served
// concurrently by a bounded pool, so a slow endpoint delays only its own.
// Server.Deliveries and GET /mock/deliveries list every attempt.
//
// # Faults
//
// Server.InjectFault(Fault{...}) or POST /mock/faults makes matching
// requests of every service (not the control API) answer a status (with
// Retry-After), wait, or drop the connection, before the operation runs
// (nothing changes) or after it (the effect happens, its answer is
// replaced), n times or until Server.ClearFaults or DELETE /mock/faults.
// The hook is Server.faultInjecting, between the journal and the router.
package mockserver
