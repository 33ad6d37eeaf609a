// Package journal remembers the last requests the mock served, as GET
// /mock/requests lists them, in a ring of fixed size.
package journal

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ring"
)

// Entry is one request as GET /mock/requests lists it.
type Entry struct {
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Status int       `json:"status"` // 0: dropped without an answer
	At     time.Time `json:"at"`     // mock time, after it was served
}

// Journal remembers the last requests; appending costs O(1).
type Journal = ring.Ring[Entry]

// New answers a journal that keeps the last size requests.
func New(size int) *Journal { return ring.New[Entry](size) }

// Middleware records every request next serves (method, path without
// query, status, the time now answers) after it was served.
func Middleware(j *Journal, now func() time.Time, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &recorder{ResponseWriter: w}
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
			j.Add(Entry{Method: r.Method, Path: r.URL.Path, Status: rec.status, At: now()})
			if p != nil {
				panic(p)
			}
		}()
		next.ServeHTTP(rec, r)
	})
}

// recorder remembers the status a handler wrote, or that the request was
// dropped without an answer.
type recorder struct {
	http.ResponseWriter
	status  int
	dropped bool
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
