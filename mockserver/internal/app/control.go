package app

import (
	"net/http"
	"runtime/debug"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// control serves the control API under /mock/ that belongs to no service:
// health, users, the clock, the request journal, stats and reset. The
// services' own control routes (signer actions, emails, events,
// deliveries, faults) are their handlers; routes.go lists them all.
type control struct{ a *App }

// health is GET /mock/health: {"status":"ok","now"}.
func (c control) health(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]any{"status": "ok", "now": c.a.Clock.Now().UTC().Format(time.RFC3339Nano)})
	return nil
}

// credentials is GET /mock/credentials: the default admin user's ids and
// credentials.
func (c control) credentials(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, c.a.Auth.ByID(c.a.Cfg.Admin.ID).Identity())
	return nil
}

// addUser is POST /mock/users with an auth.Spec → 201 with the new
// user's ids and credentials.
func (c control) addUser(w http.ResponseWriter, r *http.Request) error {
	var spec auth.Spec
	if err := wire.DecodeBody(w, r, c.a.Cfg.MaxBodyBytes, &spec); err != nil {
		return err
	}
	u, err := c.a.Auth.Add(spec)
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusCreated, u.Identity())
	return nil
}

// clock is GET /mock/clock: {"now"}.
func (c control) clock(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, map[string]string{"now": c.a.Clock.Now().UTC().Format(time.RFC3339Nano)})
	return nil
}

// advance is POST /mock/clock/advance {"seconds":n}; it answers after
// everything that fell due has run.
func (c control) advance(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Seconds *float64 `json:"seconds"`
	}
	if err := wire.DecodeBody(w, r, c.a.Cfg.MaxBodyBytes, &body); err != nil {
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
	c.a.Clock.Advance(time.Duration(*body.Seconds * float64(time.Second)))
	return c.clock(w, r)
}

// requests is GET /mock/requests: {"items":[{"method","path","status","at"}]}.
// It takes no query parameter: one is a 400 that names it.
func (c control) requests(w http.ResponseWriter, r *http.Request) error {
	if err := wire.OnlyParams(r); err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, map[string]any{"items": c.a.Journal.List()})
	return nil
}

// stats is GET /mock/stats: the counts of Stats.
func (c control) stats(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, c.a.Stats())
	return nil
}

// reset is POST /mock/reset: Reset, then the freed heap is given back to
// the operating system, so that a long CI run's mock shrinks between
// suites.
func (c control) reset(w http.ResponseWriter, _ *http.Request) error {
	c.a.Reset()
	debug.FreeOSMemory()
	w.WriteHeader(http.StatusNoContent)
	return nil
}
