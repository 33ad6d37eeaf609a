// Package inproc serves HTTP requests by calling a handler in the same
// process, as an http.RoundTripper: the mock's Transport.
package inproc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// Transport is an http.RoundTripper that serves requests by calling the
// server's handler directly: no sockets, so it works inside testing/synctest.
// The response body streams through a pipe while the handler runs; closing
// it waits until the handler has returned (or the request's context ends),
// so that what the handler does after its answer (the request journal's
// entry) has happened once the client is done with the answer, as over a
// connection, where the answer is sent when the handler returns.
type Transport struct{ Handler http.Handler }

// servedKey marks the context of a request that Transport serves.
type servedKey struct{}

// Served reports whether r is served in process by a Transport: it reached the
// handler without a connection, so no browser can have sent it. A request that
// came over a connection carries the listener's context
// (http.LocalAddrContextKey) instead; the Host rule of
// https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#who-may-drive-the-control-api
// applies only to those. The mark is needed because a request built from a
// handler's own context carries that listener's context too.
func Served(r *http.Request) bool {
	v, _ := r.Context().Value(servedKey{}).(bool)
	return v
}

// RoundTrip implements http.RoundTripper.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	r := req.Clone(context.WithValue(ctx, servedKey{}, true))
	if r.Body == nil {
		r.Body = http.NoBody
	}
	r.RequestURI = r.URL.RequestURI()
	r.RemoteAddr = "127.0.0.1:1"
	if r.Host == "" {
		r.Host = r.URL.Host
	}
	pr, pw := io.Pipe()
	rw := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	done := make(chan struct{}) // closed when the handler has returned
	go func() {
		defer close(done)
		defer func() {
			if p := recover(); p != nil {
				rw.Abort(fmt.Errorf("mockserver: handler panicked: %v", p))
			}
			rw.finish()
			_ = r.Body.Close()
		}()
		t.Handler.ServeHTTP(rw, r)
	}()
	select {
	case <-rw.ready:
	case <-ctx.Done():
		_ = pr.CloseWithError(ctx.Err())
		return nil, fmt.Errorf("mockserver: in-process round trip: %w", ctx.Err())
	}
	if rw.err != nil {
		_ = pr.Close()
		return nil, rw.err
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", rw.status, http.StatusText(rw.status)),
		StatusCode:    rw.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        rw.sent,
		Body:          &body{PipeReader: pr, done: done, ctx: ctx},
		ContentLength: -1,
		Request:       req,
	}, nil
}

// body is an in-process answer's body: Close stops the handler's writes
// and waits for the handler to return, or for the request's context.
type body struct {
	*io.PipeReader
	done <-chan struct{}
	ctx  context.Context
}

func (b *body) Close() error {
	err := b.PipeReader.Close()
	select {
	case <-b.done:
	case <-b.ctx.Done():
	}
	return err
}

// pipeWriter is the http.ResponseWriter of an in-process round trip.
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter

	once   sync.Once
	ready  chan struct{} // closed when the status and headers are known
	status int
	sent   http.Header
	err    error // set before ready closes when the handler failed early
}

func (p *pipeWriter) Header() http.Header { return p.header }

func (p *pipeWriter) WriteHeader(code int) {
	p.once.Do(func() {
		p.status, p.sent = code, p.header.Clone()
		close(p.ready)
	})
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	n, err := p.pw.Write(b)
	if err != nil {
		return n, fmt.Errorf("mockserver: response body: %w", err)
	}
	return n, nil
}

// Flush implements http.Flusher; the pipe has no buffer to flush.
func (p *pipeWriter) Flush() { p.WriteHeader(http.StatusOK) }

// Abort fails the round trip (before headers) or the body read (after).
func (p *pipeWriter) Abort(err error) {
	p.once.Do(func() {
		p.err = err
		close(p.ready)
	})
	_ = p.pw.CloseWithError(err)
}

// finish ends the body; a handler that wrote nothing answered 200.
func (p *pipeWriter) finish() {
	p.WriteHeader(http.StatusOK)
	_ = p.pw.Close()
}
