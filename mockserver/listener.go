package mockserver

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/listen"
)

// Connection hygiene of the listener that Start and the binary serve on.
const (
	// ReadHeaderTimeout bounds how long a client may take to send a
	// request's head.
	ReadHeaderTimeout = 10 * time.Second
	// DefaultIdleTimeout is how long an idle keep-alive connection stays
	// open.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultBodyProgressTimeout is how long a request body may go without
	// a byte arriving before the connection is cut. It bounds progress, not
	// total time: a large upload on a slow line goes through.
	DefaultBodyProgressTimeout = 30 * time.Second
)

// WithIdleTimeout sets how long an idle keep-alive connection of the
// listener stays open (default DefaultIdleTimeout; negative: no limit).
func WithIdleTimeout(d time.Duration) Option {
	return func(c *config) { c.idleTimeout = orDefault(d, DefaultIdleTimeout) }
}

// WithBodyProgressTimeout sets how long a request body may go without a
// byte arriving before the listener cuts the connection and logs it
// (default DefaultBodyProgressTimeout; negative: no limit).
func WithBodyProgressTimeout(d time.Duration) Option {
	return func(c *config) { c.bodyProgressTimeout = orDefault(d, DefaultBodyProgressTimeout) }
}

// orDefault answers d, or def when d is zero, or 0 (no limit) when d is
// negative.
func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return max(d, 0)
}

// WithLogger sets where the server logs what it does to clients on its
// own, such as cutting off one that trickles its body (default: a text
// logger on standard error). Headers and bodies are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// HTTPServer answers an http.Server that serves the mock with the
// listener's hygiene: ReadHeaderTimeout, the idle timeout, and the
// progress-based body deadline (WithIdleTimeout, WithBodyProgressTimeout).
// Start and the binary serve with it; so can a caller with its own
// listener.
func (s *Server) HTTPServer() *http.Server {
	return listen.Server(s.core.Handler(), listen.Config{ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout: s.cfg.idleTimeout, ProgressTimeout: s.cfg.bodyProgressTimeout, Log: s.cfg.logger})
}
