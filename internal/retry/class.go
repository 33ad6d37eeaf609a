package retry

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
)

// Class says when a request may be sent again after an attempt failed. Every
// request has one; the table of which SDK request has which class, and why, is
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md. The replay
// after the platform refused the token (a 401, or the Send service's 400
// "Invalid JWT token") is not a retry of this package: package transport sends
// it once for every class, since the platform did nothing with the refused
// request.
type Class int

// The classes of request.
const (
	// ByMethod is the zero Class: Idempotent for GET, HEAD, PUT, DELETE and
	// OPTIONS, NotWritten for any other method (a POST).
	ByMethod Class = iota
	// Idempotent requests (GET, HEAD, PUT, DELETE) are re-sent after a
	// connection error, 429, 502, 503 and 504: a second copy changes
	// nothing more than the first.
	Idempotent
	// Always is a POST that is re-sent like an Idempotent request, because
	// a second copy cannot do harm: the token request (a fresh grant every
	// time) and the read-only queue status check.
	Always
	// NotWritten is a POST that is re-sent only when the connection failed
	// before the request was written (the dial or the TLS handshake
	// failed): after any answer, or a connection lost once the request was
	// on its way, the platform may have carried it out.
	NotWritten
	// DuplicateSafe is a POST that is re-sent like an Idempotent request
	// because the platform refuses a second copy itself: the Send create,
	// whose duplicate payload ends aborted_duplicated.
	DuplicateSafe
	// ConflictSafe is a POST that is re-sent like an Idempotent request
	// because a second copy meets a 409 that the caller resolves: the
	// subscription create, refused for an endpoint already subscribed.
	ConflictSafe
)

// String names the class, for logs.
func (c Class) String() string {
	switch c {
	case ByMethod:
		return "by-method"
	case Idempotent:
		return "idempotent"
	case Always:
		return "always"
	case NotWritten:
		return "not-written"
	case DuplicateSafe:
		return "duplicate-safe"
	case ConflictSafe:
		return "conflict-safe"
	}
	return "unknown"
}

// For resolves ByMethod for a request with method; any other class is
// returned as it is.
func (c Class) For(method string) Class {
	if c != ByMethod {
		return c
	}
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete, http.MethodOptions:
		return Idempotent
	}
	return NotWritten
}

// ChangesState reports whether a request of class (resolved) may change
// something on the platform, so that an answer that leaves its outcome in
// doubt must be reported as such rather than re-sent blindly: every POST
// class but Always.
func (c Class) ChangesState() bool {
	switch c {
	case NotWritten, DuplicateSafe, ConflictSafe:
		return true
	}
	return false
}

// ShouldRetry is the retry decision for one attempt of a request of class
// (ByMethod is resolved as a POST) that ended with resp or err; written tells
// whether the request may have reached the server before err (see Written).
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md has the
// table.
func ShouldRetry(ctx context.Context, class Class, resp *http.Response, err error, written bool) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	class = class.For(http.MethodPost)
	if err != nil {
		if !Transient(err) {
			return false, nil
		}
		return class != NotWritten || !written || NotSent(err), nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return class != NotWritten, nil
	}
	return false, nil
}

// attemptTrace follows one attempt on the wire: whether net/http took a
// connection for it, and whether it wrote the request's headers.
type attemptTrace struct {
	gotConn atomic.Bool // GetConn ran: a net/http Transport handled the attempt
	wrote   atomic.Bool // WroteHeaders ran: the request is (at least partly) on its way
}

func (a *attemptTrace) reset() {
	a.gotConn.Store(false)
	a.wrote.Store(false)
}

// written reports whether the attempt may have reached the server: true
// unless net/http traced it and never wrote its headers. A RoundTripper
// that is not net/http's (an in-process server, a mock) traces nothing and
// counts as written: the careful choice.
func (a *attemptTrace) written() bool {
	return !a.gotConn.Load() || a.wrote.Load()
}

// withTrace adds a's hooks to ctx, keeping any trace the caller set.
func withTrace(ctx context.Context, a *attemptTrace) context.Context {
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn:      func(string) { a.gotConn.Store(true) },
		WroteHeaders: func() { a.wrote.Store(true) },
	})
}

// sendError is the error of a request whose last attempt failed without an
// answer; it remembers whether that attempt may have reached the server.
type sendError struct {
	err     error
	written bool
}

func (e *sendError) Error() string { return e.err.Error() }
func (e *sendError) Unwrap() error { return e.err }

// Written reports whether the failed request whose error Sender.Do
// returned may have reached the server: false only when the last attempt
// surely never left (the dial failed, or net/http wrote none of it). An
// error that did not come from Do counts as written.
func Written(err error) bool {
	var se *sendError
	if errors.As(err, &se) {
		return se.written
	}
	return true
}
