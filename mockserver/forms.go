package mockserver

import (
	"github.com/signkit/signkit-go/mockserver/internal/collect"
)

// initCollect sets up the forms service and its public pages, wired to the
// signing store (a submission creates and activates a case file) and the
// per-account limits.
func (s *Server) initCollect() {
	q := s.quotas
	s.collect = collect.New(collect.Config{
		Clock: s.clock, MaxBodyBytes: s.cfg.maxBodyBytes, MaxFileBytes: s.cfg.maxFileBytes, CaseFiles: s.signing,
		Limits: collect.Limits{
			TakeForm:       func(customerID int64) error { return q.forms.take(customerID, 1) },
			TakePrefill:    func(customerID int64) error { return q.prefills.take(customerID, 1) },
			TakeSubmission: func(customerID int64) error { return takeAll(customerID, q.submissions, q.caseFiles) },
			Versions:       q.versions,
			VersionsError:  func(customerID int64) error { return errStorageLimit("Versions", q.versions, customerID) },
		},
	})
	s.onReset(s.collect.Reset)
}
