// Package journal remembers the last requests the mock served, as GET
// /mock/requests lists them, in a ring of fixed size.
package journal

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Entry is one request as GET /mock/requests lists it.
type Entry struct {
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Status int       `json:"status"` // 0: dropped without an answer
	At     time.Time `json:"at"`     // mock time, after it was served
}

// Journal remembers the last requests in a ring of fixed size. Every request
// appends to it: it claims the next sequence number and copies its entry into
// that number's slot, under the slot's own lock, which nobody else wants unless
// the ring has come round in the meantime. Appending costs O(1) and allocates
// nothing
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
type Journal struct {
	slots []slot
	next  atomic.Uint64 // sequence number of the next entry
	recs  sync.Pool     // *wire.StatusWriter, reused by Middleware
}

// slot holds one entry with its sequence number plus one (0: empty), so
// that a slot still holding an older entry is told apart.
type slot struct {
	mu  sync.Mutex
	seq uint64
	e   Entry
}

// New answers a journal that keeps the last size requests (at least one).
func New(size int) *Journal {
	return &Journal{slots: make([]slot, max(size, 1)), recs: sync.Pool{New: func() any { return new(wire.StatusWriter) }}}
}

// Add appends e, dropping the oldest entry once the journal is full.
func (j *Journal) Add(e Entry) {
	seq := j.next.Add(1) - 1
	s := &j.slots[seq%uint64(len(j.slots))]
	s.mu.Lock()
	s.seq, s.e = seq+1, e
	s.mu.Unlock()
}

// List answers the entries, oldest first. An entry whose Add has claimed
// its place but not yet stored it is left out.
func (j *Journal) List() []Entry {
	n, size := j.next.Load(), uint64(len(j.slots))
	first := uint64(0)
	if n > size {
		first = n - size
	}
	out := make([]Entry, 0, n-first)
	for seq := first; seq < n; seq++ {
		s := &j.slots[seq%size]
		s.mu.Lock()
		if s.seq == seq+1 {
			out = append(out, s.e)
		}
		s.mu.Unlock()
	}
	return out
}

// Reset empties the journal.
func (j *Journal) Reset() {
	j.next.Store(0)
	for i := range j.slots {
		s := &j.slots[i]
		s.mu.Lock()
		s.seq, s.e = 0, Entry{}
		s.mu.Unlock()
	}
}

// Middleware records every request next serves (method, path without
// query, status, the time now answers) after it was served. Its recorders
// are reused, so that journaling allocates nothing per request.
func Middleware(j *Journal, now func() time.Time, next http.Handler) http.Handler {
	return &recording{j: j, now: now, next: next}
}

// recording is the handler Middleware answers; as it is on the way of every
// request, its frame stays small
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
type recording struct {
	j    *Journal
	now  func() time.Time
	next http.Handler
}

func (m *recording) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := m.j.recs.Get().(*wire.StatusWriter)
	rec.ResponseWriter = w // the rest was cleared when it was put back
	defer m.record(rec, r)
	m.next.ServeHTTP(rec, r)
}

// record journals the request rec served, then gives rec back. It must be
// deferred directly, as it recovers a panic of the handler to list the
// request, then panics again.
func (m *recording) record(rec *wire.StatusWriter, r *http.Request) {
	// A dropped request is listed with status 0, also when the drop
	// aborted the handler with a panic; another panic as a 500.
	p := recover()
	status := rec.Status
	switch {
	case rec.Dropped:
		status = 0
	case p != nil && status == 0:
		status = http.StatusInternalServerError
	case status == 0:
		status = http.StatusOK
	}
	m.j.Add(Entry{Method: r.Method, Path: r.URL.Path, Status: status, At: m.now()})
	*rec = wire.StatusWriter{}
	m.j.recs.Put(rec)
	if p != nil {
		panic(p)
	}
}
