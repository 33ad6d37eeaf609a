package signing

import (
	"net/http"
	"os"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// HandleDeleteCaseFile is DELETE {Sign}/api/v1/casefiles/{casefileId}: it
// deletes a case file the user may read that is not completed: 200 with the
// case file as it was, status 3 (deleted), and from then on the case file, its
// documents and its signing links answer 404. A completed (or signed, or
// anonymized) case file cannot be deleted: 409, nothing changes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Delete").
func (s *Service) HandleDeleteCaseFile(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	if _, err := s.cases.access(id, userFrom(r)); err != nil {
		return err
	}
	v, err := s.deleteCaseFile(id)
	if err != nil {
		return err
	}
	wire.WriteJSON(w, http.StatusOK, v)
	return nil
}

// deleteCaseFile removes a case file that is not completed, with its
// planned work, signing links and files on disk, and answers its last view.
func (s *Service) deleteCaseFile(id int64) (CaseFileJSON, error) {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	cf, _ := s.lookupSigner(id, 0)
	if cf == nil {
		return CaseFileJSON{}, wire.NotFound("no case file %d", id)
	}
	switch cf.Status {
	case cfCompleted, cfSigned, cfAnonymized:
		return CaseFileJSON{}, wire.Conflict("case file %d is %s and cannot be deleted", id, caseFileStatusName(cf.Status))
	}
	s.sim.cancelTimers(cf)
	now := s.Now()
	var paths []string
	s.cases.mu.Lock()
	cf.Status, cf.Updated = cfDeleted, now
	v := viewLocked(cf)
	s.cases.removeLocked(cf)
	s.cfg.GiveCaseFile(cf.CustomerID)
	for _, d := range cf.Documents {
		paths = append(paths, d.OrigPath, d.signedPath)
	}
	s.cases.mu.Unlock()
	for _, sg := range cf.Signers {
		delete(s.sign.links, sg.Token)
		if sg.Token != "" {
			s.sign.gone[sg.Token] = true
		}
	}
	for _, p := range paths {
		if p != "" {
			_ = os.Remove(p)
		}
	}
	return v, nil
}

// AnonymizeCaseFile anonymizes a finished case file (completed, rejected,
// expired or failed), as the platform does after its retention period: the
// status becomes 8 (anonymized), the names, emails and identity numbers of its
// signers and CC recipients are blanked and its signing links stop working;
// documents stay. An unknown case file is a 404 error, one that is not finished
// a 409 error
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file status").
func (s *Control) AnonymizeCaseFile(caseFileID int64) error {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	cf, _ := s.lookupSigner(caseFileID, 0)
	if cf == nil {
		return wire.NotFound("no case file %d", caseFileID)
	}
	switch cf.Status {
	case cfCompleted, cfRejected, cfExpired, cfFailed:
	default:
		return wire.Conflict("case file %d is %s: only a finished case file can be anonymized", cf.ID, caseFileStatusName(cf.Status))
	}
	s.sim.cancelTimers(cf)
	now := s.Now()
	s.write(func() {
		cf.Status, cf.Updated = cfAnonymized, now
		for _, sg := range cf.Signers {
			delete(s.sign.links, sg.Token)
			if sg.Token != "" {
				s.sign.gone[sg.Token] = true
			}
			sg.Name, sg.Email, sg.OnBehalfOf, sg.SSN, sg.VATIN, sg.Token = "", "", "", "", "", ""
			sg.RejectReason = "" // free text, which may name people
		}
		for i := range cf.CCRecipients {
			cf.CCRecipients[i].Name, cf.CCRecipients[i].Email = "", ""
		}
	})
	return nil
}
