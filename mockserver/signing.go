package mockserver

import (
	"fmt"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
)

// Signer actions of POST /mock/casefiles/{id}/signers/{signerId}/{action}
// and of SignerAction.
const (
	ActionRequestOpened = signing.ActionRequestOpened // the signer opened the request email: requestOpened
	ActionOpen          = signing.ActionOpen          // the signer viewed the signing page: opened
	ActionSign          = signing.ActionSign          // the signer signed: signed, then the next round or completion
	ActionReject        = signing.ActionReject        // the signer rejected: signer rejected, then case file rejected
	ActionBounce        = signing.ActionBounce        // the request email bounced temporarily: transientBounce
	ActionUndeliverable = signing.ActionUndeliverable // emails cannot reach the signer: undeliverable, status 5
	ActionDelete        = signing.ActionDelete        // the signer was removed before their round: deleted; 409 once asked to sign
)

// SignerAction performs an action of a signer of a case file, as the control
// API does: one of the Action… constants. It takes effect, and its events
// are in the event log, before it returns. Its error is a *signkit.Error
// with the control API's status: an unknown case file, signer or action
// matches signkit.ErrNotFound (404), an action the current state does not
// allow (a second sign, say) signkit.ErrConflict (409).
func (s *Server) SignerAction(caseFileID, signerID int64, action string) error {
	return s.controlError(s.core.Signing.Control.SignerAction(caseFileID, signerID, action),
		http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/signers/%d/%s", caseFileID, signerID, action))
}

// ShareCaseFile puts a case file in the customer's shared folder (shared
// true), where every user of the customer may read it, or takes it out.
// An unknown case file matches signkit.ErrNotFound.
func (s *Server) ShareCaseFile(caseFileID int64, shared bool) error {
	return s.controlError(s.core.Signing.Control.ShareCaseFile(caseFileID, shared),
		http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/shared-folder", caseFileID))
}

// SetCaseFileExpiry sets when a case file that is still pending expires
// (sign.casefile.expired, status 7); at must be in the future. An unknown
// case file matches signkit.ErrNotFound, one that is not pending
// signkit.ErrConflict.
func (s *Server) SetCaseFileExpiry(caseFileID int64, at time.Time) error {
	return s.controlError(s.core.Signing.Control.SetCaseFileExpiry(caseFileID, at),
		http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/expiry", caseFileID))
}

// AnonymizeCaseFile anonymizes a finished case file (completed, rejected,
// expired or failed), as the platform does after its retention period: the
// status becomes 8 (anonymized), the names, emails and identity numbers of its
// signers and CC recipients are blanked and its signing links stop working;
// documents stay. An unknown case file matches signkit.ErrNotFound, one that is
// not finished signkit.ErrConflict
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file status").
func (s *Server) AnonymizeCaseFile(caseFileID int64) error {
	return s.controlError(s.core.Signing.Control.AnonymizeCaseFile(caseFileID),
		http.MethodPost, fmt.Sprintf("/mock/casefiles/%d/anonymize", caseFileID))
}
