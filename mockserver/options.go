package mockserver

import (
	"log/slog"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/app"
	"github.com/signkit/signkit-go/mockserver/internal/send"
)

// Default limits of a Server; the With… options change them.
const (
	// DefaultMaxBodyBytes bounds every request body (JSON or multipart).
	DefaultMaxBodyBytes int64 = 32 << 20
	// DefaultMaxFileBytes bounds one file uploaded through a FILE field of a
	// public form.
	DefaultMaxFileBytes int64 = 10 << 20
	// DefaultJobDelay is how long after acceptance a queued job runs, in mock
	// time, with the real clock. With a manual clock a job runs at once
	// unless WithJobDelay says otherwise: mock time would never pass on its
	// own, and casefiles.Wait would wait for ever.
	DefaultJobDelay = time.Second
	// DefaultJournalSize is how many requests GET /mock/requests remembers.
	DefaultJournalSize = 10_000
	// DefaultMaxUploadBytes bounds one Send create request (the whole
	// multipart body, or the whole body of the JSON route).
	DefaultMaxUploadBytes int64 = 1 << 30
	// DefaultMaxDocuments bounds the documents of one Send create request
	// (the mock's choice: no vendor source gives the platform's).
	DefaultMaxDocuments = send.DefaultMaxDocuments
)

// Option configures a Server built by New or Start.
type Option func(*config)

// config is the set of options of one Server: the services' configuration,
// resolved by New, and the listener's.
type config struct {
	app.Config
	limits Limits // per account; zero fields: DefaultLimits (limits.go)

	// The listener's hygiene and log (listener.go); a zero timeout is none.
	idleTimeout         time.Duration
	bodyProgressTimeout time.Duration
	logger              *slog.Logger // nil: text on standard error

	jobDelaySet bool // WithJobDelay was given: it holds with a manual clock too
}

func defaultConfig() config {
	return config{Config: app.Config{
		JobDelay:       DefaultJobDelay,
		MaxBodyBytes:   DefaultMaxBodyBytes,
		MaxFileBytes:   DefaultMaxFileBytes,
		MaxUploadBytes: DefaultMaxUploadBytes,
		MaxDocuments:   DefaultMaxDocuments,
		JournalSize:    DefaultJournalSize,
		Control:        true,
		BaseURL:        "http://signkit.mock",
		Admin:          defaultAdmin,
	}, idleTimeout: DefaultIdleTimeout, bodyProgressTimeout: DefaultBodyProgressTimeout}
}

// WithManualClock makes the server's clock start at start and move only when
// Advance (or POST /mock/clock/advance) moves it. A queued Send job then runs
// at once (a test that wants to see it pending sets WithJobDelay), and
// webhook deliveries are signed with mock time: verify them with
// Server.Verifier, whose clock is the server's.
func WithManualClock(start time.Time) Option {
	return func(c *config) { c.ManualClock, c.Start = true, start }
}

// WithJobDelay sets how long after acceptance, in mock time, a queued job
// runs, with either clock: DefaultJobDelay with the real clock and 0 with a
// manual one when it is not set. Negative values count as zero.
func WithJobDelay(d time.Duration) Option {
	return func(c *config) { c.JobDelay, c.jobDelaySet = max(d, 0), true }
}

// WithJobRetention makes the server forget a Send job d of mock time after it
// ended (completed, failed or aborted as a duplicate), as the platform does:
// its status check then answers 404 {"message":"Job not found"}, which
// casefiles.Status and Wait report as an error matching signkit.ErrNotFound.
// With a manual clock, Advance past d. The default, 0 or less, keeps jobs until
// Reset. Duplicate detection does not depend on it
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#job-retention).
func WithJobRetention(d time.Duration) Option {
	return func(c *config) { c.JobRetention = max(d, 0) }
}

// WithMaxBodyBytes bounds the size of every request body; a larger body is
// answered 413. Values below 1 keep the default.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) { setPositive(&c.MaxBodyBytes, n) }
}

// WithMaxFileBytes bounds the size of one file uploaded through a FILE field
// of a public form; a larger file is a validation error (422). Values below 1
// keep the default.
func WithMaxFileBytes(n int64) Option {
	return func(c *config) { setPositive(&c.MaxFileBytes, n) }
}

// WithJournalSize sets how many requests the journal (GET /mock/requests)
// keeps; older entries are dropped first. Values below 1 keep the default.
func WithJournalSize(n int) Option {
	return func(c *config) { setPositive(&c.JournalSize, n) }
}

// WithControlAPI turns the control API under /mock/ on (the default) or off.
func WithControlAPI(on bool) Option {
	return func(c *config) { c.Control = on }
}

// WithBaseURL sets the URL the server is reachable at (scheme, host, port),
// which URL and Config report. Start sets it itself; cmd/signkit-mock sets it
// to its listener's address. Links in responses (public form URLs, download
// URLs) follow the Host of the request that asks for them.
func WithBaseURL(u string) Option {
	return func(c *config) {
		if u != "" {
			c.BaseURL = u
		}
	}
}

// WithAllowedHosts admits more host names in the Host header of requests
// that reach the server over a connection, besides the loopback names
// (localhost, *.localhost, 127.0.0.0/8, [::1]) and the host of the base URL
// (WithBaseURL): a container's name, a compose service's. Names are
// compared without regard to case, and a port given with one is ignored.
// A request naming another host is answered 421 Misdirected Request on
// every route, so that a web page cannot reach the server under a name of
// its own (DNS rebinding); requests served in process (Transport, or
// Handler called directly) are not checked. Calls add up.
func WithAllowedHosts(names ...string) Option {
	return func(c *config) {
		for _, n := range names {
			if h := app.HostName(strings.TrimSpace(n)); h != "" {
				c.AllowedHosts = append(c.AllowedHosts, h)
			}
		}
	}
}

// WithMaxUploadBytes bounds the size of one Send create request (the whole
// multipart body, data and files, or the JSON route's body with its
// base64 documents); a larger one is answered 413 and nothing is kept.
// Values below 1 keep DefaultMaxUploadBytes (1 GiB). The documents stream
// to a temporary directory on both routes, so memory does not grow with the
// limit; the definition without them is bounded by WithMaxBodyBytes.
func WithMaxUploadBytes(n int64) Option {
	return func(c *config) { setPositive(&c.MaxUploadBytes, n) }
}

// WithMaxDocuments bounds the documents of one Send create request, on the
// multipart route (files parts, and documents its data part names) and on both
// JSON routes. The request past the bound is answered 400, the Send service's
// refusal, naming it; the JSON routes stop reading at the document past it and
// nothing is kept on disk. Values below 1 keep DefaultMaxDocuments (1,000;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
func WithMaxDocuments(n int) Option {
	return func(c *config) { setPositive(&c.MaxDocuments, n) }
}

// setPositive sets *dst to n when n is positive.
func setPositive[T int | int64](dst *T, n T) {
	if n > 0 {
		*dst = n
	}
}
