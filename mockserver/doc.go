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
//   - casefiles_store.go: the signing store that submissions feed.
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
// require a token placed as DESIGN section 3 says; the handler finds the
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
