package mockserver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/accounts"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/collect"
	"github.com/signkit/signkit-go/mockserver/internal/send"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/tmpdir"
	"github.com/signkit/signkit-go/mockserver/internal/webhook"

	"github.com/signkit/signkit-go"
)

// Server is the in-memory service: all five services of signkit.Endpoints
// under one handler (laid out as signkit.LocalEndpoints), the public form
// pages and the control API. It is safe for concurrent use.
type Server struct {
	cfg     config
	clock   *clock.Clock
	journal *journal
	handler http.Handler

	// Per-domain state, each in its own file with its own lock.
	accounts *accounts.Service // users and tokens (internal/accounts)
	collect  *collect.Service  // forms, prefilled requests, public pages, submissions (internal/collect)
	signing  *signing.Service  // case files, simulation, signing pages, events, emails (internal/signing)
	webhooks *webhook.Service  // subscriptions, delivery engine, deliveries journal (internal/webhook)
	faults   *faultStore       // injected faults (faults.go)
	quotas   *quotas           // per-account storage limits (limits.go)
	send     *send.Service     // Send jobs and the queue status check (internal/send)
	tmp      *tmpdir.Dir       // uploaded files and signed PDFs

	resetHooks []func() // run by Reset, in registration order

	closeOnce sync.Once
	httpSrv   *http.Server // set by Start
}

// New builds a Server. It does not listen: serve Handler() yourself, use
// Transport() in process, or call Start in tests.
func New(opts ...Option) *Server {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	start := cfg.start
	if start.IsZero() {
		start = time.Now()
	}
	s := &Server{cfg: cfg, clock: clock.New(cfg.manualClock, start), journal: newJournal(cfg.journalSize)}
	s.initDomains()
	s.handler = withRequestID(s.journaled(s.faultInjecting(s.routes())))
	return s
}

// initDomains creates each domain's state and registers its reset with
// s.onReset; a new domain adds one line here, and its routes go in
// routes.go.
func (s *Server) initDomains() {
	s.quotas = newQuotas(s.cfg.limits.resolve())
	s.tmp = &tmpdir.Dir{}
	s.onReset(s.quotas.reset)
	s.initAccounts()
	s.initSigning()
	s.initCollect()  // after initSigning: a submission creates a case file there
	s.initSend()     // after initSigning: its jobs create case files there
	s.initWebhooks() // after initSigning: it listens to the event log
	if s.cfg.control {
		s.initControl()
	}
}

// onReset registers what Reset must do to bring a domain back to its
// initial state.
func (s *Server) onReset(fn func()) { s.resetHooks = append(s.resetHooks, fn) }

// initAccounts sets up users, tokens and the token endpoint.
func (s *Server) initAccounts() {
	s.accounts = accounts.New(accounts.Config{Clock: s.clock, MaxBodyBytes: s.cfg.maxBodyBytes, Admin: defaultAdmin})
	s.onReset(s.accounts.Reset)
}

// Start builds a Server listening on a free loopback port; it is closed when
// the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mockserver: listen on loopback: %v", err)
	}
	s := New(append(opts, WithBaseURL("http://"+l.Addr().String()))...)
	s.httpSrv = s.HTTPServer()
	go func() { _ = s.httpSrv.Serve(l) }()
	t.Cleanup(s.Close)
	return s
}

// Handler serves every service, the public pages and the control API.
func (s *Server) Handler() http.Handler { return s.handler }

// URL is the base URL of the server (see WithBaseURL), without a trailing slash.
func (s *Server) URL() string { return strings.TrimRight(s.cfg.baseURL, "/") }

// Config answers a signkit.Config for the default admin user of this server.
// With a server that does not listen (New without Start), set HTTPClient to a
// client whose Transport is s.Transport().
func (s *Server) Config() signkit.Config {
	return signkit.Config{Endpoints: signkit.LocalEndpoints(s.URL()), Credentials: s.DefaultCredentials().Credentials()}
}

// DefaultCredentials answers the ids and credentials of the default admin user.
func (s *Server) DefaultCredentials() UserCredentials {
	return credentialsOf(s.accounts.ByID(DefaultUserID))
}

// AddUser adds an API user (to the default customer unless spec says
// otherwise) with fresh credentials.
func (s *Server) AddUser(spec UserSpec) (UserCredentials, error) {
	u, err := s.accounts.Add(accounts.Spec{Name: spec.Name, Email: spec.Email, Admin: spec.Admin,
		SuperUser: spec.SuperUser, CustomerID: spec.CustomerID, NewCustomer: spec.NewCustomer})
	if err != nil {
		return UserCredentials{}, err
	}
	return credentialsOf(u), nil
}

// Now answers the current mock time.
func (s *Server) Now() time.Time { return s.clock.Now() }

// Advance moves mock time forward by d: it waits for work in flight, runs
// everything that falls due in time order, waits for that too, then returns.
// It works with either clock. Do not call it from inside a handler.
func (s *Server) Advance(d time.Duration) { s.clock.Advance(d) }

// Transport answers an http.RoundTripper that serves requests in process,
// without sockets, so it works inside testing/synctest. Any host works.
func (s *Server) Transport() http.RoundTripper { return inProcess{h: s.handler} }

// Reset returns every domain to its initial state: the default account only,
// no tokens, forms, submissions or case files, an empty journal and no
// scheduled work. Mock time stays where it is.
func (s *Server) Reset() {
	s.clock.DropTasks()
	s.clock.WaitIdle()
	for _, fn := range s.resetHooks {
		fn()
	}
	s.journal.Reset()
}

// Close stops the listener of Start (if any), the scheduler, and waits for
// work in flight. Calling it again does nothing.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		if s.httpSrv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := s.httpSrv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
				_ = s.httpSrv.Close()
			}
		}
		s.clock.Close()
		s.signing.Close()
		s.closeWebhooks()
	})
}
