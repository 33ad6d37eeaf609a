package mockserver

import (
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Stats counts what the mock holds, so that a test can check that nothing
// was stored twice or lost (after a fault, a retry, a refused request). GET
// /mock/stats answers the same counts.
type Stats struct {
	Forms           int `json:"forms"`
	PrefillRequests int `json:"prefillRequests"`
	Submissions     int `json:"submissions"`
	CaseFiles       int `json:"caseFiles"`
	Jobs            int `json:"jobs"` // Send jobs, queued or run
	Subscriptions   int `json:"subscriptions"`
}

// Stats answers what the mock holds now, across all customers.
func (s *Server) Stats() Stats {
	var st Stats
	st.Forms, st.PrefillRequests, st.Submissions = s.collect.Counts()
	st.CaseFiles = s.signing.Count()
	st.Jobs = s.send.Count()
	st.Subscriptions = s.webhooks.Count()
	return st
}

// ctlStats is GET /mock/stats: the counts of Stats.
func (s *Server) ctlStats(w http.ResponseWriter, _ *http.Request) error {
	wire.WriteJSON(w, http.StatusOK, s.Stats())
	return nil
}
