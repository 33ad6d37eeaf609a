package mockserver

import (
	"net/http"
	"runtime/debug"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// initControl registers the control API under /mock/ (no token).
func (s *Server) initControl() {
}

func (s *Server) ctlHealth(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]any{"status": "ok", "now": s.Now().UTC().Format(time.RFC3339Nano)})
	return nil
}

func (s *Server) ctlCredentials(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, s.DefaultCredentials())
	return nil
}

func (s *Server) ctlAddUser(w http.ResponseWriter, r *http.Request) error {
	var spec UserSpec
	if err := wire.DecodeBody(w, r, s.cfg.maxBodyBytes, &spec); err != nil {
		return err
	}
	c, err := s.AddUser(spec)
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusCreated, c)
	return nil
}

func (s *Server) ctlClock(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]string{"now": s.Now().UTC().Format(time.RFC3339Nano)})
	return nil
}

// ctlAdvance is POST /mock/clock/advance {"seconds":n}; it answers after
// everything that fell due has run.
func (s *Server) ctlAdvance(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Seconds *float64 `json:"seconds"`
	}
	if err := wire.DecodeBody(w, r, s.cfg.maxBodyBytes, &body); err != nil {
		return err
	}
	var p wire.Problems
	switch {
	case body.Seconds == nil:
		p.Add("seconds", "is required")
	case *body.Seconds < 0:
		p.Add("seconds", "must not be negative")
	case *body.Seconds > 100*365*24*3600:
		p.Add("seconds", "must be at most 100 years")
	}
	if err := p.Err(); err != nil {
		return err
	}
	s.Advance(time.Duration(*body.Seconds * float64(time.Second)))
	return s.ctlClock(w, r)
}

func (s *Server) ctlRequests(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": s.journal.List()})
	return nil
}

// ctlReset is POST /mock/reset: Reset, then the freed heap is given back to
// the operating system, so that a long CI run's mock shrinks between suites.
func (s *Server) ctlReset(w http.ResponseWriter, _ *http.Request) error {
	s.Reset()
	debug.FreeOSMemory()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
