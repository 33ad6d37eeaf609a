package mockserver

import (
	"fmt"
	"net/http"
)

// RejectSigner makes a signer reject the case file, as the control API's
// reject with {"reason": reason} does: the signer's signing request keeps
// reason as its rejectReason (read back as casefiles.SignerDetails.
// RejectReason), then sign.signer.rejected and sign.casefile.rejected
// follow. An empty reason rejects without one. Its error is a
// *signkit.Error with the control API's status: an unknown case file or
// signer matches signkit.ErrNotFound, a signer or case file whose state
// refuses a reject signkit.ErrConflict, a reason of more than 4000
// characters signkit.ErrValidation.
func (s *Server) RejectSigner(caseFileID, signerID int64, reason string) error {
	return s.controlError(s.core.Signing.Control.RejectSigner(caseFileID, signerID, reason),
		http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/signers/%d/%s", caseFileID, signerID, ActionReject))
}

// FailCaseFile fails a case file, as the platform does when it cannot
// finish one and as POST /mock/casefiles/{id}/fail does: the status
// becomes 6 (failed), reminders and expiry stop, sign.casefile.failed is
// emitted, and reason is what GET /api/v1/casefiles/{id}/errors answers
// (casefiles.Client.Errors); an empty reason gives a default one. An
// unknown case file matches signkit.ErrNotFound, one already in a final
// state (rejected, completed, failed, expired, anonymized)
// signkit.ErrConflict, a reason of more than 4000 characters
// signkit.ErrValidation.
func (s *Server) FailCaseFile(caseFileID int64, reason string) error {
	return s.controlError(s.core.Signing.Control.FailCaseFile(caseFileID, reason),
		http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/fail", caseFileID))
}
