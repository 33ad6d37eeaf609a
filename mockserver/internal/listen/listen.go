// Package listen keeps the mock's listener healthy: it cuts off a client whose
// request body stops making progress
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#connections).
package listen

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"
)

// Config is the hygiene of a listener; a zero timeout is none.
type Config struct {
	ReadHeaderTimeout time.Duration // for a request's head
	IdleTimeout       time.Duration // for an idle keep-alive connection
	ProgressTimeout   time.Duration // for a request body between two bytes
	Log               *slog.Logger  // nil: text on standard error
}

// Server answers an http.Server that serves h with the hygiene of c.
func Server(h http.Handler, c Config) *http.Server {
	log := c.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	if c.ProgressTimeout > 0 {
		h = ProgressDeadline(h, c.ProgressTimeout, log)
	}
	return &http.Server{Handler: h, ReadHeaderTimeout: c.ReadHeaderTimeout, IdleTimeout: c.IdleTimeout,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
}

// Shutdown stops srv: it lets requests in flight end for up to grace, then
// closes what is left.
func Shutdown(srv *http.Server, grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		_ = srv.Close()
	}
}

// ProgressDeadline cuts off a request whose body goes d without a byte: before
// each read of the body the connection's read deadline is moved to d from
// now. A request over a connection without deadlines (in process) is
// served as it is.
func ProgressDeadline(next http.Handler, d time.Duration, log *slog.Logger) http.Handler {
	return &progressDeadline{next: next, d: d, log: log}
}

// progressDeadline is the handler ProgressDeadline answers. A request without a
// body passes through a small frame
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth);
// one with a body is served by withDeadline.
type progressDeadline struct {
	next http.Handler
	d    time.Duration
	log  *slog.Logger
}

func (p *progressDeadline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		p.next.ServeHTTP(w, r)
		return
	}
	p.withDeadline(w, r)
}

// withDeadline serves a request with a body, moving the read deadline as
// the body arrives.
func (p *progressDeadline) withDeadline(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(p.d)) != nil {
		p.next.ServeHTTP(w, r)
		return
	}
	body := &progressBody{ReadCloser: r.Body, rc: rc, d: p.d, r: r, log: p.log}
	r.Body = body
	p.next.ServeHTTP(w, r)
	if !body.cut && !body.done {
		// net/http reads what the handler left of the body before it
		// reuses the connection: that too must progress.
		_ = rc.SetReadDeadline(time.Now().Add(p.d))
	}
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
