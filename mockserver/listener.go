package mockserver

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"
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
	return func(c *config) { c.idleTimeout = d }
}

// WithBodyProgressTimeout sets how long a request body may go without a
// byte arriving before the listener cuts the connection and logs it
// (default DefaultBodyProgressTimeout; negative: no limit).
func WithBodyProgressTimeout(d time.Duration) Option {
	return func(c *config) { c.bodyProgressTimeout = d }
}

// WithLogger sets where the server logs what it does to clients on its
// own, such as cutting off one that trickles its body (default: a text
// logger on standard error). Headers and bodies are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(c *config) { c.logger = l }
}

// orDefault answers d, or def when d is zero, or 0 (no limit) when d is
// negative.
func orDefault(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// HTTPServer answers an http.Server that serves the mock with the
// listener's hygiene: ReadHeaderTimeout, the idle timeout, and the
// progress-based body deadline (WithIdleTimeout, WithBodyProgressTimeout).
// Start and the binary serve with it; so can a caller with its own
// listener.
func (s *Server) HTTPServer() *http.Server {
	h := s.handler
	if d := orDefault(s.cfg.bodyProgressTimeout, DefaultBodyProgressTimeout); d > 0 {
		h = bodyProgress(h, d, s.logger())
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		IdleTimeout:       orDefault(s.cfg.idleTimeout, DefaultIdleTimeout),
		ErrorLog:          slog.NewLogLogger(s.logger().Handler(), slog.LevelWarn),
	}
}

func (s *Server) logger() *slog.Logger {
	if s.cfg.logger != nil {
		return s.cfg.logger
	}
	return slog.New(slog.NewTextHandler(os.Stderr, nil))
}

// bodyProgress cuts off a request whose body goes d without a byte: before
// each read of the body the connection's read deadline is moved to d from
// now. A request over a connection without deadlines (in process) is
// served as it is.
func bodyProgress(next http.Handler, d time.Duration, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(d)) != nil {
			next.ServeHTTP(w, r)
			return
		}
		body := &progressBody{ReadCloser: r.Body, rc: rc, d: d, r: r, log: log}
		r.Body = body
		next.ServeHTTP(w, r)
		if !body.cut && !body.done {
			// net/http reads what the handler left of the body before it
			// reuses the connection: that too must progress.
			_ = rc.SetReadDeadline(time.Now().Add(d))
		}
	})
}

// progressBody moves the read deadline forward as the body arrives, clears
// it once the body is in, and logs once when the deadline cuts it off.
type progressBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	d    time.Duration
	r    *http.Request
	log  *slog.Logger
	done bool // the whole body was read; the deadline is cleared
	cut  bool // the deadline cut the body off; the connection is lost
}

func (b *progressBody) Read(p []byte) (int, error) {
	_ = b.rc.SetReadDeadline(time.Now().Add(b.d))
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		// The body is in: net/http's own reads of the connection (it
		// watches for the client going away) must not meet the deadline.
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	if err != nil && !b.cut && errors.Is(err, os.ErrDeadlineExceeded) {
		b.cut = true
		b.log.Warn("mockserver: request body stalled; connection cut off",
			slog.String("method", b.r.Method), slog.String("path", b.r.URL.Path),
			slog.String("remote", b.r.RemoteAddr), slog.Duration("progress_timeout", b.d))
	}
	return n, err
}
