package faults

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Middleware applies the store's faults to the requests next serves; the
// control API is never faulted.
func (fs *Store) Middleware(next http.Handler) http.Handler { return &faulting{fs: fs, next: next} }

// faulting is the handler Middleware answers. It is on the way of every
// request, so its frame stays small while no fault is set
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
type faulting struct {
	fs   *Store
	next http.Handler
}

func (m *faulting) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if m.fs.n.Load() == 0 || IsControlPath(r.URL.Path) {
		m.next.ServeHTTP(w, r)
		return
	}
	if f := m.fs.take(r.Method, r.URL.Path); f != nil {
		apply(w, r, m.next, f)
		return
	}
	m.next.ServeHTTP(w, r)
}

// apply serves a request that a fault hits.
func apply(w http.ResponseWriter, r *http.Request, next http.Handler, f *Fault) {
	var effect *bufferedResponse
	if f.Phase == After {
		effect = &bufferedResponse{header: http.Header{}}
		next.ServeHTTP(effect, r)
	}
	if f.DelayMs > 0 {
		if effect == nil {
			// net/http notices a client that hangs up only once the body is
			// read: read it first, so a client that gives up during the
			// delay ends it and the operation does not run.
			bufferBody(r, maxDelayedBody)
		}
		if !sleepCtx(r.Context(), time.Duration(f.DelayMs)*time.Millisecond) {
			return // the client gave up
		}
	}
	switch {
	case f.Drop:
		dropConnection(w)
	case f.Status != 0:
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		}
		wire.WriteError(w, &wire.Error{Status: f.Status, Code: "injected_fault",
			Message: "fault injected by the mock server for " + r.Method + " " + r.URL.Path})
	case effect != nil:
		effect.replay(w)
	default:
		next.ServeHTTP(w, r)
	}
}

// maxDelayedBody is the most of a delayed request's body that is read ahead
// of the delay; the rest stays on the connection.
const maxDelayedBody = 32 << 20

// bufferBody reads up to limit bytes of r's body ahead and puts them back in
// front of what remains, so the handler still sees the whole body.
func bufferBody(r *http.Request, limit int64) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	head, err := io.ReadAll(io.LimitReader(r.Body, limit))
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), errReader{err}, rest), rest}
}

// errReader returns err, or io.EOF when err is nil.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// sleepCtx waits d of real time; it answers false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// DropMarker is a response writer that records that its request was
// dropped (the request journal lists it with status 0).
type DropMarker interface{ MarkDropped() }

// Aborter is a response writer that can fail its round trip with an error
// (the in-process transport).
type Aborter interface{ Abort(error) }

// dropConnection ends the request without an answer: it hijacks and closes
// a network connection, fails an in-process round trip, or else aborts the
// handler the way net/http understands.
func dropConnection(w http.ResponseWriter) {
	for {
		if m, ok := w.(DropMarker); ok {
			m.MarkDropped()
		}
		switch x := w.(type) {
		case http.Hijacker:
			if conn, _, err := x.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		case Aborter:
			x.Abort(ErrDropped)
			return
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		w = u.Unwrap()
	}
	panic(http.ErrAbortHandler)
}

// bufferedResponse keeps a handler's answer so that it can be discarded or
// written later.
type bufferedResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedResponse) Header() http.Header { return b.header }

func (b *bufferedResponse) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedResponse) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}

// replay writes the kept answer to w.
func (b *bufferedResponse) replay(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	w.WriteHeader(max(b.status, http.StatusOK))
	_, _ = w.Write(b.body.Bytes())
}
