package mockserver

import (
	"net/http"
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

// journal remembers the last requests in a ring of fixed size.
type journal struct {
	mu      sync.Mutex
	entries []journalEntry
	next    int
	full    bool
}

func newJournal(size int) *journal { return &journal{entries: make([]journalEntry, size)} }

func (j *journal) add(e journalEntry) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries[j.next] = e
	j.next++
	if j.next == len(j.entries) {
		j.next, j.full = 0, true
	}
}

// list answers the remembered entries, oldest first.
func (j *journal) list() []journalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	if !j.full {
		return append([]journalEntry(nil), j.entries[:j.next]...)
	}
	out := append([]journalEntry(nil), j.entries[j.next:]...)
	return append(out, j.entries[:j.next]...)
}

func (j *journal) reset() {
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.entries)
	j.next, j.full = 0, false
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
