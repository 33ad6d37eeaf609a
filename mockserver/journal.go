package mockserver

import (
	"net/http"
	"sort"
	"sync"
	"time"
)

// journalEntry is one request as GET /mock/requests lists it.
type journalEntry struct {
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Status int       `json:"status"`
	At     time.Time `json:"at"`
}

// ring keeps the last entries added, at most size of them (at least one);
// it is safe for concurrent use. It grows as entries come, up to size, and
// then overwrites the oldest: an append costs O(1) however full it is. The
// request journal, the deliveries journal, the event log and the outbox are
// rings.
type ring[T any] struct {
	mu      sync.Mutex
	size    int
	entries []T
	next    int // once full: the index of the oldest entry, overwritten next
}

func newRing[T any](size int) *ring[T] { return &ring[T]{size: max(size, 1)} }

// journal remembers the last requests.
type journal = ring[journalEntry]

func newJournal(size int) *journal { return newRing[journalEntry](size) }

func (j *ring[T]) add(e T) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.entries) < j.size {
		j.entries = append(j.entries, e)
		return
	}
	j.entries[j.next] = e
	j.next = (j.next + 1) % j.size
}

// list answers the remembered entries, oldest first (never nil).
func (j *ring[T]) list() []T {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := make([]T, 0, len(j.entries))
	out = append(out, j.entries[j.next:]...)
	return append(out, j.entries[:j.next]...)
}

// after answers, oldest first, the entries from the first one for which
// from holds on: from must be false for a prefix of the entries (oldest
// first) and true for the rest, so that a binary search finds it and the
// cost is that of the entries answered.
func (j *ring[T]) after(from func(T) bool) []T {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := len(j.entries)
	at := func(i int) T { return j.entries[(j.next+i)%n] }
	first := sort.Search(n, func(i int) bool { return from(at(i)) })
	out := make([]T, 0, n-first)
	for i := first; i < n; i++ {
		out = append(out, at(i))
	}
	return out
}

// reset forgets every entry and gives their memory back.
func (j *ring[T]) reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries, j.next = nil, 0
}

// statusRecorder remembers the status a handler wrote, or that the request
// was dropped without an answer.
type statusRecorder struct {
	http.ResponseWriter
	status  int
	dropped bool
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// journaled records every request (method, path without query, status, mock
// time) after it was served.
func (s *Server) journaled(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		defer func() {
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
			s.journal.add(journalEntry{Method: r.Method, Path: r.URL.Path, Status: rec.status, At: s.Now()})
			if p != nil {
				panic(p)
			}
		}()
		next.ServeHTTP(rec, r)
	})
}
