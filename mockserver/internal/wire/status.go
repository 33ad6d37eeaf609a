package wire

import "net/http"

// StatusWriter passes an answer through and remembers its status, or that
// a fault dropped the request without one (faults.DropMarker). The request
// journal and the traffic recorder watch answers with it.
type StatusWriter struct {
	http.ResponseWriter
	// Status is the status written; 0 while nothing is.
	Status int
	// Dropped says that a fault dropped the request.
	Dropped bool
}

// WriteHeader remembers the first status and passes it on.
func (s *StatusWriter) WriteHeader(code int) {
	if s.Status == 0 {
		s.Status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

// Write passes b on; an answer written without a status is a 200.
func (s *StatusWriter) Write(b []byte) (int, error) {
	if s.Status == 0 {
		s.Status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// MarkDropped records that a fault dropped the request.
func (s *StatusWriter) MarkDropped() { s.Dropped = true }

// Unwrap lets http.ResponseController reach the underlying writer.
func (s *StatusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }
