// Package retry sends HTTP requests with the SDK's retry policy, on top of
// go-retryablehttp: capped, jittered exponential backoff; Retry-After honoured;
// every wait ended by the request's context. Whether a request is sent again is
// decided in one place, ShouldRetry, from the request's Class: idempotent
// methods and the POSTs that a second copy cannot harm are retried on
// connection errors, 429, 502, 503 and 504; any other POST only when the
// connection failed before the request was written. The table, with the
// reasons, is https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
package retry

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Policy is how often and how long requests are retried.
type Policy struct {
	MaxRetries    int           // retries after the first attempt; 0 means none
	WaitMin       time.Duration // first backoff before jitter
	WaitMax       time.Duration // cap of the exponential backoff
	MaxRetryAfter time.Duration // longest Retry-After that is waited; longer ones are cut to it
}

// MaxRetryAfter is the longest Retry-After the SDK waits. A longer one, or
// one too large for a time.Duration, is waited this long; so reads
// apierror.Error.RetryAfter.
const MaxRetryAfter = time.Minute

// DefaultPolicy is 4 retries, backoff from 250 ms doubling up to 8 s, and
// Retry-After waited up to MaxRetryAfter.
func DefaultPolicy() Policy {
	return Policy{MaxRetries: 4, WaitMin: 250 * time.Millisecond, WaitMax: 8 * time.Second, MaxRetryAfter: MaxRetryAfter}
}

// Body opens a fresh copy of a request body and tells its exact length (-1
// when unknown). It is called once per attempt, so a body is never buffered
// to be re-sent.
type Body func() (io.ReadCloser, int64, error)

// Sender sends requests with retries. It is safe for concurrent use.
type Sender struct {
	rc *retryablehttp.Client
}

// callKey keys the per-call state in a request's context.
type callKey struct{}

// call is the state of one Do: the body opener, the request's class, the
// current attempt's trace, whether a copy was re-sent after an attempt that
// may have taken effect, and for logging the attempt number and when it
// started.
type call struct {
	method  string
	path    string
	class   Class
	body    Body
	trace   attemptTrace
	resent  bool
	attempt int
	start   time.Time
}

// NewSender returns a Sender that sends through hc with policy p, logging one
// Debug line per attempt to logger (nil logs nothing). hc is used as given.
func NewSender(hc *http.Client, p Policy, logger *slog.Logger) *Sender {
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	rc := &retryablehttp.Client{
		HTTPClient:   hc,
		RetryWaitMin: p.WaitMin,
		RetryWaitMax: p.WaitMax,
		RetryMax:     p.MaxRetries,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		RequestLogHook: func(_ retryablehttp.Logger, r *http.Request, i int) {
			if c, ok := r.Context().Value(callKey{}).(*call); ok {
				c.attempt, c.start = i+1, time.Now()
				c.trace.reset()
			}
		},
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			c, ok := ctx.Value(callKey{}).(*call)
			if !ok {
				c = &call{class: NotWritten} // unknown: the careful choice
			}
			written := c.trace.written()
			retry, cerr := ShouldRetry(ctx, c.class, resp, err, written)
			if retry && (resp != nil || (written && !NotSent(err))) {
				c.resent = true
			}
			logAttempt(ctx, logger, resp, err, retry)
			return retry, cerr
		},
		Backoff: func(min, max time.Duration, i int, resp *http.Response) time.Duration {
			return Backoff(p, i, resp)
		},
		PrepareRetry: func(r *http.Request) error {
			c, ok := r.Context().Value(callKey{}).(*call)
			if !ok || c.body == nil {
				return nil
			}
			rc, n, err := c.body()
			if err != nil {
				return err
			}
			r.Body, r.ContentLength = rc, n
			return nil
		},
	}
	return &Sender{rc: rc}
}

// Do sends req as a request of class ByMethod; see Send.
func (s *Sender) Do(req *http.Request, body Body) (*http.Response, error) {
	return s.Send(req, body, ByMethod)
}

// Send sends req, retrying it as class allows (ShouldRetry), opening body
// (nil for none) afresh for every attempt. The response is the last
// attempt's, whatever its status; the caller closes it. A failure without
// an answer is returned as an error for which Written tells whether the
// last attempt may have reached the server; when the context ends, the
// error wraps the context's error.
func (s *Sender) Send(req *http.Request, body Body, class Class) (*http.Response, error) {
	c := &call{method: req.Method, path: req.URL.Path, class: class.For(req.Method), body: body}
	ctx := context.WithValue(req.Context(), callKey{}, c)
	req = req.WithContext(withTrace(ctx, &c.trace))
	if body != nil {
		rc, n, err := body()
		if err != nil {
			return nil, err
		}
		req.Body, req.ContentLength = rc, n
		req.GetBody = func() (io.ReadCloser, error) {
			rc, _, err := body()
			return rc, err
		}
	}
	// Built by hand rather than with retryablehttp.FromRequest, which would
	// read the whole body into memory; PrepareRetry re-opens it instead.
	resp, err := s.rc.Do(&retryablehttp.Request{Request: req})
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
			err = errors.Join(ctxErr, err)
		}
		return nil, &sendError{err: err, written: c.trace.written() && !NotSent(err)}
	}
	return resp, nil
}

// Attempts is how many attempts the request that resp answers took: 1 when
// it was not retried, 0 when resp did not come from a Sender.
func Attempts(resp *http.Response) int {
	if resp == nil || resp.Request == nil {
		return 0
	}
	if c, ok := resp.Request.Context().Value(callKey{}).(*call); ok {
		return c.attempt
	}
	return 0
}

// Resent reports whether the request that resp answers was sent again
// after an attempt that may have taken effect (an answer such as 503, or a
// connection lost after the request was written); false when resp did not
// come from a Sender.
func Resent(resp *http.Response) bool {
	if resp == nil || resp.Request == nil {
		return false
	}
	if c, ok := resp.Request.Context().Value(callKey{}).(*call); ok {
		return c.resent
	}
	return false
}

// Transient reports whether a transport error may go away on a new attempt:
// not a redirect refused by policy, an unsupported scheme or a certificate
// problem.
func Transient(err error) bool {
	var (
		verifyErr   *tls.CertificateVerificationError
		authority   x509.UnknownAuthorityError
		hostname    x509.HostnameError
		invalidCert x509.CertificateInvalidError
	)
	switch {
	case errors.Is(err, ErrRedirect),
		errors.As(err, &verifyErr), errors.As(err, &authority),
		errors.As(err, &hostname), errors.As(err, &invalidCert):
		return false
	}
	return !strings.Contains(err.Error(), "unsupported protocol scheme")
}

// NotSent reports whether err shows that the request never reached the
// server: the dial failed (connection refused, no such host, dial timeout).
func NotSent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// Backoff is the wait before retry i (0-based) after resp: the response's
// Retry-After when it has one (429 or 503), cut to p.MaxRetryAfter;
// otherwise p.WaitMin doubled i times, capped at p.WaitMax, with the upper
// half jittered.
func Backoff(p Policy, i int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := RetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, p.MaxRetryAfter)
		}
	}
	d := p.WaitMax
	if i < 30 && p.WaitMin<<i < p.WaitMax && p.WaitMin<<i > 0 {
		d = p.WaitMin << i
	}
	if d <= 1 {
		return d
	}
	half := d / 2
	return half + rand.N(d-half)
}

// RetryAfter parses a Retry-After value, in decimal seconds or as an HTTP
// date (relative to now; a past date is 0). It is never negative: a number
// of seconds past what a time.Duration holds, however many digits, is the
// largest Duration, which every caller cuts to its own longest wait. A
// value that is neither (a sign, a fraction, a word) is not ok.
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" {
		s, err := strconv.ParseInt(v, 10, 64)
		if err != nil || s > math.MaxInt64/int64(time.Second) {
			return math.MaxInt64, true
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func logAttempt(ctx context.Context, logger *slog.Logger, resp *http.Response, err error, retry bool) {
	c, ok := ctx.Value(callKey{}).(*call)
	if logger == nil || !ok || !logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := []slog.Attr{
		slog.String("method", c.method),
		slog.String("path", c.path),
		slog.Int("attempt", c.attempt),
		slog.Duration("duration", time.Since(c.start)),
		slog.String("resend", c.class.String()),
	}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	msg := "signkit: request"
	if retry {
		msg = "signkit: request, will retry"
	}
	logger.LogAttrs(ctx, slog.LevelDebug, msg, attrs...)
}
