// Package faults holds the faults injected into the mock (a status, a
// delay or a dropped connection, before or after the operation) and the
// middleware that applies them to every request outside the control API.
package faults

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Phase says whether a fault hits before or after the operation takes
// effect.
type Phase string

// The phases of a Fault.
const (
	Before Phase = "before" // answer without running the operation (the default)
	After  Phase = "after"  // run the operation, discard its answer, then answer the fault
)

// maxDelay bounds Fault.DelayMs.
const maxDelay = 10 * time.Minute

// ErrDropped is what an in-process round trip fails with when a fault
// drops the connection.
var ErrDropped = errors.New("mockserver: connection dropped by an injected fault")

// Fault is one injected fault; mockserver.Fault documents its fields, and
// its JSON shape is that of POST /mock/faults.
type Fault struct {
	Method     string `json:"method"`
	Path       string `json:"path"`
	Status     int    `json:"status"`
	RetryAfter int    `json:"retryAfter"`
	DelayMs    int    `json:"delayMs"`
	Drop       bool   `json:"drop"`
	Phase      Phase  `json:"phase"`
	Times      int    `json:"times"`
}

// Check reports every problem of f as a 422.
func (f *Fault) Check() error {
	var p wire.Problems
	switch {
	case f.Path == "":
		p.Add("path", "is required")
	case !strings.HasPrefix(f.Path, "/"):
		p.Add("path", "must start with /")
	case strings.Contains(strings.TrimSuffix(f.Path, "*"), "*"):
		p.Add("path", "may hold * only at its end")
	case IsControlPath(strings.TrimSuffix(f.Path, "*")):
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
	if f.DelayMs < 0 || time.Duration(f.DelayMs)*time.Millisecond > maxDelay {
		p.Add("delayMs", "must be between 0 and %d", maxDelay.Milliseconds())
	}
	if f.Phase != "" && f.Phase != Before && f.Phase != After {
		p.Add("phase", "must be %q or %q", Before, After)
	}
	if f.Times < 0 {
		p.Add("times", "must not be negative")
	}
	if f.Status == 0 && !f.Drop && f.DelayMs == 0 {
		p.Add("status", "a fault needs a status, a delay or drop")
	}
	return p.Err()
}

// Normalize spells defaults out: phase before, "" for any method.
func (f *Fault) Normalize() {
	if f.Phase == "" {
		f.Phase = Before
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

// IsControlPath reports whether path is the control API's.
func IsControlPath(path string) bool { return path == "/mock" || strings.HasPrefix(path, "/mock/") }

// Store holds the injected faults in the order they were added.
type Store struct {
	maxBodyBytes int64 // of POST /mock/faults

	mu     sync.Mutex
	faults []*Fault     // Times counts down; a fault is removed when it reaches 0
	n      atomic.Int32 // len(faults), read without the lock by every request
}

// NewStore answers an empty store whose control handlers read bodies of at
// most maxBodyBytes.
func NewStore(maxBodyBytes int64) *Store { return &Store{maxBodyBytes: maxBodyBytes} }

// Add adds a fault; it answers a validation error (and adds nothing) when f
// is invalid.
func (fs *Store) Add(f Fault) error {
	if err := f.Check(); err != nil {
		return err
	}
	f.Normalize()
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = append(fs.faults, &f)
	fs.n.Store(int32(len(fs.faults)))
	return nil
}

// Reset removes every fault.
func (fs *Store) Reset() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.faults = nil
	fs.n.Store(0)
}

// List answers the faults still in force, in the order they were added.
func (fs *Store) List() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, 0, len(fs.faults))
	for _, f := range fs.faults {
		out = append(out, *f)
	}
	return out
}

// take answers a copy of the first fault matching a request, counted
// down, or nil when none matches.
func (fs *Store) take(method, path string) *Fault {
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
		return &hit
	}
	return nil
}

// HandleList is GET /mock/faults: {"items":[fault…]}.
func (fs *Store) HandleList(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": fs.List()})
	return nil
}

// HandleAdd is POST /mock/faults with a Fault → 201 with the fault.
func (fs *Store) HandleAdd(w http.ResponseWriter, r *http.Request) error {
	var f Fault
	if err := wire.DecodeBody(w, r, fs.maxBodyBytes, &f); err != nil {
		return err
	}
	if err := fs.Add(f); err != nil {
		return err
	}
	f.Normalize()
	wire.WriteJSON(w, http.StatusCreated, f)
	return nil
}

// HandleClear is DELETE /mock/faults → 204: every fault is removed.
func (fs *Store) HandleClear(w http.ResponseWriter, _ *http.Request) error {
	fs.Reset()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
