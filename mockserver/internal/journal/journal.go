// Package journal remembers the last requests the mock served, as GET
// /mock/requests lists them, in a ring of fixed size.
package journal

import (
	"net/http"
	"sync/atomic"
	"time"
)

// Entry is one request as GET /mock/requests lists it.
type Entry struct {
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Status int       `json:"status"` // 0: dropped without an answer
	At     time.Time `json:"at"`     // mock time, after it was served
}

// Journal remembers the last requests in a ring of fixed size. Every
// request appends to it, so appending takes no lock: it claims the next
// sequence number and stores its entry in that number's slot. It costs
// O(1) and one allocation.
type Journal struct {
	slots []atomic.Pointer[item]
	next  atomic.Uint64 // sequence number of the next entry
}

// item is an entry in its slot, with its sequence number: a slot still
// holding an older entry, whose writer has not stored yet, is told apart.
type item struct {
	seq uint64
	e   Entry
}

// New answers a journal that keeps the last size requests (at least one).
func New(size int) *Journal { return &Journal{slots: make([]atomic.Pointer[item], max(size, 1))} }

// Add appends e, dropping the oldest entry once the journal is full.
func (j *Journal) Add(e Entry) { j.add(&item{e: e}) }

// add appends it, which it numbers; it must not change afterwards.
func (j *Journal) add(it *item) {
	it.seq = j.next.Add(1) - 1
	j.slots[it.seq%uint64(len(j.slots))].Store(it)
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
		if it := j.slots[seq%size].Load(); it != nil && it.seq == seq {
			out = append(out, it.e)
		}
	}
	return out
}

// Reset empties the journal.
func (j *Journal) Reset() {
	j.next.Store(0)
	for i := range j.slots {
		j.slots[i].Store(nil)
	}
}

// Middleware records every request next serves (method, path without
// query, status, the time now answers) after it was served. It allocates
// once per request: the recorder, whose item the journal then keeps.
func Middleware(j *Journal, now func() time.Time, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
		defer rec.record(j, now, r)
		next.ServeHTTP(rec, r)
	})
}

// record journals the request rec served. It must be deferred directly, as
// it recovers a panic of the handler to list the request, then panics again.
func (rec *recorder) record(j *Journal, now func() time.Time, r *http.Request) {
	// A dropped request is listed with status 0, also when the drop
	// aborted the handler with a panic; another panic as a 500.
	p := recover()
	switch {
	case rec.dropped:
		rec.status = 0
	case p != nil && rec.status == 0:
		rec.status = http.StatusInternalServerError
	case rec.status == 0:
		rec.status = http.StatusOK
	}
	rec.ResponseWriter = nil // the journal keeps the entry, not the answer's writer
	rec.it.e = Entry{Method: r.Method, Path: r.URL.Path, Status: rec.status, At: now()}
	j.add(&rec.it)
	if p != nil {
		panic(p)
	}
}

// recorder remembers the status a handler wrote, or that the request was
// dropped without an answer.
type recorder struct {
	http.ResponseWriter
	status  int
	dropped bool
	it      item // the journal's entry, filled once served
}

func (s *recorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *recorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// MarkDropped records that a fault dropped the request.
func (s *recorder) MarkDropped() { s.dropped = true }

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *recorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }
