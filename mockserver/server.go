package mockserver

import (
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/app"
	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/inproc"
	"github.com/signkit/signkit-go/mockserver/internal/listen"

	"github.com/signkit/signkit-go"
)

// Server is the in-memory service: all five services of signkit.Endpoints
// under one handler (laid out as signkit.LocalEndpoints), the public form
// pages and the control API. It is safe for concurrent use.
type Server struct {
	cfg  config
	core *app.App // the services, wired (internal/app)

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
	cfg.Limits = cfg.limits.resolve()
	if cfg.ManualClock && !cfg.jobDelaySet {
		cfg.JobDelay = 0 // https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#time
	}
	return &Server{cfg: cfg, core: app.New(cfg.Config)}
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
// Served by a listener of your own, it answers 421 to a Host that is not a
// loopback name, the base URL's host or an allowed one (WithAllowedHosts);
// called in process (no connection), it takes any host.
func (s *Server) Handler() http.Handler { return s.core.Handler() }

// URL is the base URL of the server (see WithBaseURL), without a trailing slash.
func (s *Server) URL() string { return s.core.URL() }

// Config answers a signkit.Config for the default admin user of this server.
// With a server that does not listen (New without Start), set HTTPClient to a
// client whose Transport is s.Transport().
func (s *Server) Config() signkit.Config {
	return signkit.Config{Endpoints: signkit.LocalEndpoints(s.URL()), Credentials: s.DefaultCredentials().Credentials()}
}

// DefaultCredentials answers the ids and credentials of the default admin user.
func (s *Server) DefaultCredentials() UserCredentials {
	return UserCredentials(s.core.Auth.ByID(DefaultUserID).Identity())
}

// AddUser adds an API user (to the default customer unless spec says
// otherwise) with fresh credentials. A spec the mock refuses (an unknown
// customer included) is a *signkit.Error matching signkit.ErrValidation.
func (s *Server) AddUser(spec UserSpec) (UserCredentials, error) {
	u, err := s.core.Auth.Add(auth.Spec(spec))
	if err != nil {
		return UserCredentials{}, s.controlError(err, http.MethodPost, "/mock/users")
	}
	return UserCredentials(u.Identity()), nil
}

// Now answers the current mock time.
func (s *Server) Now() time.Time { return s.core.Clock.Now() }

// Advance moves mock time forward by d: it waits for work in flight, runs
// everything that falls due in time order, waits for that too, then returns.
// It works with either clock. Do not call it from inside a handler.
func (s *Server) Advance(d time.Duration) { s.core.Clock.Advance(d) }

// Transport answers an http.RoundTripper that serves requests in process,
// without sockets, so it works inside testing/synctest. Any host works: the
// Host rule of WithAllowedHosts is for requests over a connection.
func (s *Server) Transport() http.RoundTripper { return inproc.Transport{Handler: s.core.Handler()} }

// Reset returns every domain to its initial state, as POST /mock/reset does:
// the default account only, no tokens, forms, submissions or case files,
// empty journals, no scheduled work, ids from 1, and the clock where it
// started (a manual clock at its start time, a real clock without the time
// Advance added), so that a verifier on the wall clock accepts deliveries
// again.
func (s *Server) Reset() { s.core.Reset() }

// Stats answers what the mock holds now, across all customers.
func (s *Server) Stats() Stats { return Stats(s.core.Stats()) }

// Close stops the listener of Start (if any), the scheduler, and waits for
// work in flight. Calling it again does nothing.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		if s.httpSrv != nil {
			listen.Shutdown(s.httpSrv, 5*time.Second)
		}
		s.core.Close()
	})
}
