package mockserver

import (
	"log/slog"
	"time"
)

// Default limits of a Server; the With… options change them.
const (
	// DefaultMaxBodyBytes bounds every request body (JSON or multipart).
	DefaultMaxBodyBytes int64 = 32 << 20
	// DefaultMaxFileBytes bounds one file uploaded through a FILE field of a
	// public form.
	DefaultMaxFileBytes int64 = 10 << 20
	// DefaultJobDelay is how long after acceptance a queued job runs, in mock time.
	DefaultJobDelay = time.Second
	// DefaultJournalSize is how many requests GET /mock/requests remembers.
	DefaultJournalSize = 10_000
)

// Option configures a Server built by New or Start.
type Option func(*config)

// config is the resolved set of options of one Server.
type config struct {
	manualClock    bool
	start          time.Time
	jobDelay       time.Duration
	maxBodyBytes   int64
	maxFileBytes   int64
	maxUploadBytes int64 // Send create requests; 0: DefaultMaxUploadBytes (send.go)
	journalSize    int
	control        bool
	baseURL        string

	limits Limits // per account; zero fields: DefaultLimits (limits.go)

	// The listener's hygiene and log (listener.go).
	idleTimeout         time.Duration
	bodyProgressTimeout time.Duration
	logger              *slog.Logger
}

func defaultConfig() config {
	return config{
		jobDelay:     DefaultJobDelay,
		maxBodyBytes: DefaultMaxBodyBytes,
		maxFileBytes: DefaultMaxFileBytes,
		journalSize:  DefaultJournalSize,
		control:      true,
		baseURL:      "http://signkit.mock",
	}
}

// WithManualClock makes the server's clock start at start and move only when
// Advance (or POST /mock/clock/advance) moves it.
func WithManualClock(start time.Time) Option {
	return func(c *config) { c.manualClock, c.start = true, start }
}

// WithJobDelay sets how long after acceptance, in mock time, a queued job
// runs. Negative values count as zero.
func WithJobDelay(d time.Duration) Option {
	return func(c *config) { c.jobDelay = max(d, 0) }
}

// WithMaxBodyBytes bounds the size of every request body; a larger body is
// answered 413. Values below 1 keep the default.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxBodyBytes = n
		}
	}
}

// WithMaxFileBytes bounds the size of one file uploaded through a FILE field
// of a public form; a larger file is a validation error (422). Values below 1
// keep the default.
func WithMaxFileBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxFileBytes = n
		}
	}
}

// WithJournalSize sets how many requests the journal (GET /mock/requests)
// keeps; older entries are dropped first. Values below 1 keep the default.
func WithJournalSize(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.journalSize = n
		}
	}
}

// WithControlAPI turns the control API under /mock/ on (the default) or off.
func WithControlAPI(on bool) Option {
	return func(c *config) { c.control = on }
}

// WithBaseURL sets the URL the server is reachable at (scheme, host, port),
// which URL and Config report. Start sets it itself; cmd/signkit-mock sets it
// to its listener's address. Links in responses (public form URLs, download
// URLs) follow the Host of the request that asks for them.
func WithBaseURL(u string) Option {
	return func(c *config) {
		if u != "" {
			c.baseURL = u
		}
	}
}
