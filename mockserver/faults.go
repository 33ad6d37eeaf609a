package mockserver

import (
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/faults"
)

// FaultPhase says whether a fault hits before or after the operation takes
// effect.
type FaultPhase string

// The phases of a Fault.
const (
	// FaultBefore answers the fault without running the operation: nothing
	// changes on the server. It is the default.
	FaultBefore FaultPhase = "before"
	// FaultAfter runs the operation (its effect happens, its answer is
	// discarded), then answers the fault.
	FaultAfter FaultPhase = "after"
)

// Fault makes the server misbehave for matching requests, in every service
// (Auth, Forms, Sign, Send, Webhook, public pages); the control API under
// /mock/ is never affected. Add one with Server.InjectFault or POST
// /mock/faults (the JSON shape is this struct's); remove all with
// Server.ClearFaults or DELETE /mock/faults. The first fault that matches a
// request applies to it.
type Fault struct {
	// Method is the HTTP method to match; empty or "*" matches any.
	Method string `json:"method"`
	// Path is the request path to match, from the server's root (for
	// example /send/api/v1/casefiles/20251022/create). A trailing * matches
	// any rest: /webhook/api/v1/subscriptions* matches them all.
	Path string `json:"path"`
	// Status is the status to answer (200–599) with a JSON error body; 0
	// answers the operation's own response (after Delay), unless Drop.
	Status int `json:"status"`
	// RetryAfter, in seconds, sets the Retry-After header of the answer.
	RetryAfter int `json:"retryAfter"`
	// DelayMs delays the answer by this many milliseconds of real time (at
	// most ten minutes), or until the client gives up.
	DelayMs int `json:"delayMs"`
	// Drop closes the connection without an answer (the in-process
	// Transport returns an error instead).
	Drop bool `json:"drop"`
	// Phase is FaultBefore (the default when empty) or FaultAfter.
	Phase FaultPhase `json:"phase"`
	// Times is how many requests the fault hits before it is removed;
	// 0 means every request until ClearFaults.
	Times int `json:"times"`
}

// InjectFault adds a fault; it answers a *signkit.Error matching
// signkit.ErrValidation (and adds nothing) when f is invalid.
func (s *Server) InjectFault(f Fault) error {
	return s.controlError(s.core.Faults.Add(faults.Fault{Method: f.Method, Path: f.Path, Status: f.Status, RetryAfter: f.RetryAfter,
		DelayMs: f.DelayMs, Drop: f.Drop, Phase: faults.Phase(f.Phase), Times: f.Times}), http.MethodPost, "/mock/faults")
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() { s.core.Faults.Reset() }

// Faults answers the injected faults still in force, in the order they were
// added, with the hits each has left in Times (0: unlimited).
func (s *Server) Faults() []Fault {
	in := s.core.Faults.List()
	out := make([]Fault, 0, len(in))
	for _, f := range in {
		out = append(out, Fault{Method: f.Method, Path: f.Path, Status: f.Status, RetryAfter: f.RetryAfter,
			DelayMs: f.DelayMs, Drop: f.Drop, Phase: FaultPhase(f.Phase), Times: f.Times})
	}
	return out
}
