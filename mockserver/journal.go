package mockserver

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ring"
)

// journalEntry is one request as GET /mock/requests lists it.
type journalEntry struct {
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Status int       `json:"status"`
	At     time.Time `json:"at"`
}

// journal remembers the last requests.
type journal = ring.Ring[journalEntry]

func newJournal(size int) *journal { return ring.New[journalEntry](size) }

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
			s.journal.Add(journalEntry{Method: r.Method, Path: r.URL.Path, Status: rec.status, At: s.Now()})
			if p != nil {
				panic(p)
			}
		}()
		next.ServeHTTP(rec, r)
	})
}
