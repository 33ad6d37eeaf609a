// Package app assembles the mock: it builds each service with its Config, wires
// the services to one another, the limits, the fault injection and the request
// journal, and serves them all through the route table of routes.go. Package
// mockserver is the public façade over it
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#layout).
package app

import (
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/dashboard"
	"github.com/signkit/signkit-go/mockserver/internal/faults"
	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/journal"
	"github.com/signkit/signkit-go/mockserver/internal/quota"
	"github.com/signkit/signkit-go/mockserver/internal/send"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/tmpdir"
	"github.com/signkit/signkit-go/mockserver/internal/traffic"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Config is the resolved configuration of one mock; mockserver's options
// fill it.
type Config struct {
	ManualClock    bool          // time moves only when Advance moves it
	Start          time.Time     // the clock's start; zero: now
	JobDelay       time.Duration // how long after acceptance a Send job runs
	JobRetention   time.Duration // how long an ended Send job is kept; 0: until reset
	MaxBodyBytes   int64         // every request body
	MaxFileBytes   int64         // one file of a public form's FILE field
	MaxUploadBytes int64         // one Send create request
	MaxDocuments   int           // documents of one Send create request
	JournalSize    int           // requests and delivery attempts remembered
	Control        bool          // serve the control API under /mock/
	BaseURL        string        // where the mock is reachable
	AllowedHosts   []string      // Host names served besides loopback names and BaseURL's (guard.go)
	Limits         quota.Limits  // per customer, resolved
	Admin          auth.User     // the default customer's admin user
}

// App is one mock: its services and the handler that serves them.
type App struct {
	Cfg      Config
	Clock    *clock.Clock
	Journal  *journal.Journal  // requests, for GET /mock/requests
	Auth     *auth.Service     // users and tokens
	Forms    *forms.Service    // forms, prefilled requests, public pages, submissions
	Signing  *signing.Service  // case files, simulation, signing pages, events, emails
	Send     *send.Service     // Send jobs and the queue status check
	Webhooks *webhooks.Service // subscriptions, delivery engine, deliveries journal
	Faults   *faults.Store     // injected faults
	Temp     *tmpdir.Dir       // uploaded files and signed PDFs

	// OpenAPI answers the mock's OpenAPI description as JSON
	// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
	OpenAPI func() ([]byte, error)
	// Patterns are the route table's patterns, in its order.
	Patterns []string

	quotas     *quota.Set
	handler    http.Handler
	ui         *dashboard.Dashboard // nil with the control API off
	baseHost   string               // BaseURL's host name, as HostName answers it
	baseOrigin string               // BaseURL's origin, as originOf answers it; "": none
	resetHooks []func()             // run by Reset, in registration order
	closeOnce  sync.Once
}

// New builds the mock that cfg describes.
func New(cfg Config) *App {
	start := cfg.Start
	if start.IsZero() {
		start = time.Now()
	}
	a := &App{Cfg: cfg, Clock: clock.New(cfg.ManualClock, start), Journal: journal.New(cfg.JournalSize),
		quotas: quota.NewSet(cfg.Limits), Temp: &tmpdir.Dir{}, Faults: faults.NewStore(cfg.MaxBodyBytes),
		OpenAPI: newOpenAPI()}
	if u, err := url.Parse(cfg.BaseURL); err == nil {
		a.baseHost = HostName(u.Host)
	}
	a.baseOrigin, _ = originOf(cfg.BaseURL)
	a.onReset(a.quotas.Reset)
	a.onReset(a.Faults.Reset)
	a.initAuth()
	a.initSigning()
	a.initForms()    // after initSigning: a submission creates a case file there
	a.initSend()     // after initSigning: its jobs create case files there
	a.initWebhooks() // after initSigning: it listens to the event log
	a.handler = wire.WithRequestID(journal.Middleware(a.Journal, a.Clock.Now, &guard{a: a, next: a.Faults.Middleware(a.routes())}))
	if dir := os.Getenv(traffic.DirEnv); dir != "" {
		a.handler = traffic.Record(dir, a.handler) // the OpenAPI check's recording (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md)
	}
	a.handler = served{Handler: a.handler, app: a} // for Of
	return a
}

// onReset registers what Reset must do to bring a service back to its
// initial state.
func (a *App) onReset(fn func()) { a.resetHooks = append(a.resetHooks, fn) }

// Handler serves every service, the public pages and the control API.
func (a *App) Handler() http.Handler { return a.handler }

// URL is the base URL of the mock, without a trailing slash.
func (a *App) URL() string { return strings.TrimRight(a.Cfg.BaseURL, "/") }

// Reset returns every service to its initial state: the default account
// only, nothing stored, empty journals, no scheduled work, ids from 1, and
// the clock where it started (a manual clock at its start, a real clock
// without the offset Advance added).
func (a *App) Reset() {
	a.Clock.DropTasks()
	a.Clock.WaitIdle()
	a.Clock.Rewind() // the clock is part of the state at start (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#time)
	for _, fn := range a.resetHooks {
		fn()
	}
	// A request served meanwhile may have scheduled work at the time
	// before the rewind; what is left now belongs to no state.
	a.Clock.DropTasks()
	a.Journal.Reset()
}

// Close stops the scheduler and waits for work in flight, then lets go of
// the delivery engine's connections. Calling it again does nothing.
func (a *App) Close() {
	a.closeOnce.Do(func() {
		a.Clock.Close()
		a.Signing.Close()
		a.Webhooks.Close()
	})
}

// Stats counts what the mock holds across all customers; its fields match
// mockserver.Stats one for one.
type Stats struct {
	Forms           int `json:"forms"`
	PrefillRequests int `json:"prefillRequests"`
	Submissions     int `json:"submissions"`
	CaseFiles       int `json:"caseFiles"`
	Jobs            int `json:"jobs"`
	Subscriptions   int `json:"subscriptions"`
}

// Stats answers what the mock holds now.
func (a *App) Stats() Stats {
	var st Stats
	st.Forms, st.PrefillRequests, st.Submissions = a.Forms.Counts()
	st.CaseFiles = a.Signing.Count()
	st.Jobs = a.Send.Count()
	st.Subscriptions = a.Webhooks.Count()
	return st
}

// initAuth sets up users, tokens and the token endpoint.
func (a *App) initAuth() {
	a.Auth = auth.New(auth.Config{Clock: a.Clock, MaxBodyBytes: a.Cfg.MaxBodyBytes, Admin: a.Cfg.Admin})
	a.onReset(a.Auth.Reset)
}

// initSigning sets up the signing service: the case file store that form
// submissions and Send jobs feed, the simulation, the signing pages, the
// event log and the outbox.
func (a *App) initSigning() {
	a.Signing = signing.New(signing.Config{
		Clock: a.Clock, Temp: a.Temp, MaxBodyBytes: a.Cfg.MaxBodyBytes, Control: a.Cfg.Control,
		BaseURL:      a.URL,
		GiveCaseFile: func(customerID int64) { a.quotas.CaseFiles.Give(customerID, 1) },
	})
	a.onReset(a.Signing.Reset)
}

// initForms sets up the forms service and its public pages, wired to the
// signing store (a submission creates and activates a case file) and the
// per-account limits.
func (a *App) initForms() {
	q := a.quotas
	a.Forms = forms.New(forms.Config{
		Clock: a.Clock, MaxBodyBytes: a.Cfg.MaxBodyBytes, MaxFileBytes: a.Cfg.MaxFileBytes, CaseFiles: a.Signing,
		Limits: forms.Limits{
			TakeForm:       func(customerID int64) error { return q.Forms.Take(customerID, 1) },
			TakePrefill:    func(customerID int64) error { return q.Prefills.Take(customerID, 1) },
			TakeSubmission: func(customerID int64) error { return quota.TakeAll(customerID, q.Submissions, q.CaseFiles) },
			Versions:       q.Versions,
			VersionsError:  func(customerID int64) error { return quota.ErrLimit("Versions", q.Versions, customerID) },
		},
	})
	a.onReset(a.Forms.Reset)
}
