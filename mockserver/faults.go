package mockserver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// FaultPhase says whether a fault hits before or after the operation takes
// effect.
type FaultPhase string

// The phases of a Fault.
const (
	// FaultBefore answers the fault without running the operation: nothing
	// changes on the server. It is the default.
	FaultBefore FaultPhase = "before"
	// FaultAfter runs the operation (its effect happens, its answer is
	// discarded), then answers the fault.
	FaultAfter FaultPhase = "after"
)

// maxFaultDelay bounds Fault.DelayMs.
const maxFaultDelay = 10 * time.Minute

// errInjectedDrop is what an in-process round trip fails with when a fault
// drops the connection.
var errInjectedDrop = errors.New("mockserver: connection dropped by an injected fault")

// Fault makes the server misbehave for matching requests, in every service
// (Auth, Forms, Sign, Send, Webhook, public pages); the control API under
// /mock/ is never affected. Add one with Server.InjectFault or POST
// /mock/faults (the JSON shape is this struct's); remove all with
// Server.ClearFaults or DELETE /mock/faults. The first fault that matches a
// request applies to it.
type Fault struct {
	// Method is the HTTP method to match; empty or "*" matches any.
	Method string `json:"method"`
	// Path is the request path to match, from the server's root (for
	// example /send/api/v1/casefiles/20251022/create). A trailing * matches
	// any rest: /webhook/api/v1/subscriptions* matches them all.
	Path string `json:"path"`
	// Status is the status to answer (200–599) with a JSON error body; 0
	// answers the operation's own response (after Delay), unless Drop.
	Status int `json:"status"`
	// RetryAfter, in seconds, sets the Retry-After header of the answer.
	RetryAfter int `json:"retryAfter"`
	// DelayMs delays the answer by this many milliseconds of real time (at
	// most ten minutes), or until the client gives up.
	DelayMs int `json:"delayMs"`
	// Drop closes the connection without an answer (the in-process
	// Transport returns an error instead).
	Drop bool `json:"drop"`
	// Phase is FaultBefore (the default when empty) or FaultAfter.
	Phase FaultPhase `json:"phase"`
	// Times is how many requests the fault hits before it is removed;
	// 0 means every request until ClearFaults.
	Times int `json:"times"`
}

// check reports every problem of f as a 422.
func (f *Fault) check() error {
	var p wire.Problems
	switch {
	case f.Path == "":
		p.Add("path", "is required")
	case !strings.HasPrefix(f.Path, "/"):
		p.Add("path", "must start with /")
	case strings.Contains(strings.TrimSuffix(f.Path, "*"), "*"):
		p.Add("path", "may hold * only at its end")
	case isControlPath(strings.TrimSuffix(f.Path, "*")):
		p.Add("path", "the control API under /mock/ cannot be faulted")
	}
	if f.Method != "" && f.Method != "*" && strings.ToUpper(f.Method) != f.Method {
		p.Add("method", "must be an upper-case HTTP method, empty or *")
	}
	if f.Status != 0 && (f.Status < 200 || f.Status > 599) {
		p.Add("status", "must be between 200 and 599")
	}
	if f.Drop && f.Status != 0 {
		p.Add("status", "must be 0 when drop is set: a dropped connection has no status")
	}
	if f.RetryAfter < 0 || (f.RetryAfter > 0 && f.Status == 0) {
		p.Add("retryAfter", "must be a non-negative number of seconds, with a status")
	}
	if f.DelayMs < 0 || time.Duration(f.DelayMs)*time.Millisecond > maxFaultDelay {
		p.Add("delayMs", "must be between 0 and %d", maxFaultDelay.Milliseconds())
	}
	if f.Phase != "" && f.Phase != FaultBefore && f.Phase != FaultAfter {
		p.Add("phase", "must be %q or %q", FaultBefore, FaultAfter)
	}
	if f.Times < 0 {
		p.Add("times", "must not be negative")
	}
	if f.Status == 0 && !f.Drop && f.DelayMs == 0 {
		p.Add("status", "a fault needs a status, a delay or drop")
	}
	return p.Err()
}

// normalize spells defaults out: phase before, "" for any method.
func (f *Fault) normalize() {
	if f.Phase == "" {
		f.Phase = FaultBefore
	}
	if f.Method == "*" {
		f.Method = ""
	}
}

// matches reports whether the fault applies to a request.
func (f *Fault) matches(method, path string) bool {
	if f.Method != "" && f.Method != "*" && f.Method != method {
		return false
	}
	if prefix, ok := strings.CutSuffix(f.Path, "*"); ok {
		return strings.HasPrefix(path, prefix)
	}
	return path == f.Path
}

// isControlPath reports whether path is the control API's.
func isControlPath(path string) bool { return path == "/mock" || strings.HasPrefix(path, "/mock/") }

// faultStore holds the injected faults in the order they were added.
type faultStore struct {
	mu     sync.Mutex
	faults []*Fault     // Times counts down; a fault is removed when it reaches 0
	n      atomic.Int32 // len(faults), read without the lock by every request
}

func newFaultStore() *faultStore { return &faultStore{} }

func (fs *faultStore) reset() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = nil
	fs.n.Store(0)
}

// take answers the first fault matching a request and counts it down.
func (fs *faultStore) take(method, path string) (Fault, bool) {
	if fs.n.Load() == 0 { // no fault: no lock on the way of every request
		return Fault{}, false
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if !f.matches(method, path) {
			continue
		}
		hit := *f
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				fs.faults = append(fs.faults[:i], fs.faults[i+1:]...)
				fs.n.Store(int32(len(fs.faults)))
			}
		}
		return hit, true
	}
	return Fault{}, false
}

// InjectFault adds a fault; it answers a validation error (and adds
// nothing) when f is invalid.
func (s *Server) InjectFault(f Fault) error {
	if err := f.check(); err != nil {
		return err
	}
	f.normalize()
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.faults = append(s.faults.faults, &f)
	s.faults.n.Store(int32(len(s.faults.faults)))
	return nil
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() { s.faults.reset() }

// Faults answers the injected faults still in force, in the order they were
// added, with the hits each has left in Times (0: unlimited).
func (s *Server) Faults() []Fault {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	out := make([]Fault, 0, len(s.faults.faults))
	for _, f := range s.faults.faults {
		out = append(out, *f)
	}
	return out
}

// ctlFaults is GET /mock/faults: {"items":[fault…]}.
func (s *Server) ctlFaults(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": s.Faults()})
	return nil
}

// ctlAddFault is POST /mock/faults with a Fault → 201 with the fault.
func (s *Server) ctlAddFault(w http.ResponseWriter, r *http.Request) error {
	var f Fault
	if err := wire.DecodeBody(w, r, s.cfg.maxBodyBytes, &f); err != nil {
		return err
	}
	if err := s.InjectFault(f); err != nil {
		return err
	}
	f.normalize()
	wire.WriteJSON(w, http.StatusCreated, f)
	return nil
}

// ctlClearFaults is DELETE /mock/faults → 204: every fault is removed.
func (s *Server) ctlClearFaults(w http.ResponseWriter, _ *http.Request) error {
	s.ClearFaults()
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// faultInjecting applies injected faults to the requests next serves.
func (s *Server) faultInjecting(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isControlPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		f, ok := s.faults.take(r.Method, r.URL.Path)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		applyFault(w, r, next, f)
	})
}

// applyFault serves a request that a fault hits.
func applyFault(w http.ResponseWriter, r *http.Request, next http.Handler, f Fault) {
	var effect *bufferedResponse
	if f.Phase == FaultAfter {
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

// dropConnection ends the request without an answer: it hijacks and closes
// a network connection, fails an in-process round trip, or else aborts the
// handler the way net/http understands.
func dropConnection(w http.ResponseWriter) {
	for {
		if rec, ok := w.(*statusRecorder); ok {
			rec.dropped = true // the journal lists the request with status 0
		}
		switch x := w.(type) {
		case http.Hijacker:
			if conn, _, err := x.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		case interface{ abort(error) }:
			x.abort(errInjectedDrop)
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
