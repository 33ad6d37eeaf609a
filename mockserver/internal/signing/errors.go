package signing

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Reasons: a rejecting signer's rejectReason and a failed case file's errors
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi;
// https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#send-signing-simulation-events-and-emails).

// MaxReasonChars bounds a reject reason and a failure reason, in
// characters: the platform states no limit, the mock keeps its memory
// bounded.
const MaxReasonChars = 4000

// defaultFailure is the reason of a case file failed through the control
// API without one.
const defaultFailure = "The case file was failed through the mock's control API."

// documentError is the failure to make a document's signed PDF.
type documentError struct {
	title string
	err   error
}

func (e *documentError) Error() string { return fmt.Sprintf("document %q: %v", e.title, e.err) }
func (e *documentError) Unwrap() error { return e.err }

// signingFailure is the reason a case file failed at completion, as its
// errors answer says it: which document, never a path on disk.
func signingFailure(err error) string {
	var de *documentError
	if errors.As(err, &de) {
		return fmt.Sprintf("The signed PDF of document %q could not be made: its original is not a readable PDF.", de.title)
	}
	return "The signed PDFs could not be made."
}

// checkReason trims a reason and refuses one that is too long or not
// UTF-8 (400, naming field).
func checkReason(field, reason string) (string, error) {
	reason = strings.TrimSpace(reason)
	var p wire.Problems
	switch {
	case !utf8.ValidString(reason):
		p.Add(field, "must be UTF-8 text")
	case utf8.RuneCountInString(reason) > MaxReasonChars:
		p.Add(field, "must be at most %d characters", MaxReasonChars)
	}
	if err := p.Err(); err != nil {
		return "", err
	}
	return reason, nil
}

// RejectSigner makes a signer reject, as the control API's reject does,
// keeping reason (may be empty) as the signer's rejectReason. Errors are
// those of SignerAction, and a 400 for a reason too long.
func (c *Control) RejectSigner(caseFileID, signerID int64, reason string) error {
	reason, err := checkReason("reason", reason)
	if err != nil {
		return err
	}
	return c.sim.signerActionWith(caseFileID, signerID, ActionReject, reason)
}

// actionReason reads the optional body of a control signer action:
// nothing, or for reject {"reason":"..."}; another action with a reason
// is a 400.
func (s *Control) actionReason(w http.ResponseWriter, r *http.Request, action string) (string, error) {
	var body struct {
		Reason string `json:"reason"`
	}
	if err := wire.DecodeOptionalBody(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return "", err
	}
	if body.Reason != "" && action != ActionReject {
		var p wire.Problems
		p.Add("reason", "only the reject action takes a reason")
		return "", p.Err()
	}
	return checkReason("reason", body.Reason)
}

// FailCaseFile fails a case file that is not in a final state (new,
// pending or signed), as the platform does when it cannot finish one: the
// status becomes 6 (failed), planned activation, expiry and reminders
// stop, reason (defaultFailure when empty) is added to its errors, and
// sign.casefile.failed is emitted. An unknown case file is a 404 error,
// one already final a 409 error, a reason too long a 400 error.
func (c *Control) FailCaseFile(caseFileID int64, reason string) error {
	reason, err := checkReason("reason", reason)
	if err != nil {
		return err
	}
	if reason == "" {
		reason = defaultFailure
	}
	c.sign.mu.Lock()
	defer c.sign.mu.Unlock()
	cf, _ := c.lookupSigner(caseFileID, 0)
	if cf == nil {
		return wire.NotFound("no case file %d", caseFileID)
	}
	switch cf.Status {
	case cfNew, cfPending, cfSigned:
	default:
		return wire.Conflict("case file %d is %s: only a new, pending or signed case file can fail",
			cf.ID, caseFileStatusName(cf.Status))
	}
	c.sim.cancelTimers(cf)
	now := c.Now()
	c.write(func() {
		cf.Status, cf.Updated = cfFailed, now
		cf.FailureReasons = append(cf.FailureReasons, reason)
	})
	c.EmitCaseFile(cf, evCaseFileFailed)
	return nil
}

// CtlFail is POST /mock/casefiles/{id}/fail with no body or
// {"reason":"..."}: it answers the case file as the signing service then
// shows it.
func (s *Control) CtlFail(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	var body struct {
		Reason string `json:"reason"`
	}
	if err := wire.DecodeOptionalBody(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return err
	}
	if err := s.FailCaseFile(id, body.Reason); err != nil {
		return err
	}
	return s.writeCaseFile(w, id)
}

// HandleCaseFileErrors is GET {Sign}/api/v1/casefiles/{casefileId}/errors: a
// JSON array of strings, the reasons a failed case file failed; [] for any
// other
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file errors"). Access as GET of the case file: 404 unknown or another
// customer's, 403 another user's.
func (s *Service) HandleCaseFileErrors(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	cf, err := s.cases.access(id, userFrom(r))
	if err != nil {
		return err
	}
	s.cases.mu.RLock()
	reasons := append([]string{}, cf.FailureReasons...)
	s.cases.mu.RUnlock()
	wire.WriteJSON(w, http.StatusOK, reasons)
	return nil
}
