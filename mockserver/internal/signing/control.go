package signing

import (
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Signer actions of POST /mock/casefiles/{id}/signers/{signerId}/{action}
// and of SignerAction.
const (
	ActionRequestOpened = "request-opened" // the signer opened the request email: requestOpened
	ActionOpen          = "open"           // the signer viewed the signing page: opened
	ActionSign          = "sign"           // the signer signed: signed, then the next round or completion
	ActionReject        = "reject"         // the signer rejected: signer rejected, then case file rejected
	ActionBounce        = "bounce"         // the request email bounced temporarily: transientBounce
	ActionUndeliverable = "undeliverable"  // emails cannot reach the signer: undeliverable, status 5
	ActionDelete        = "delete"         // the signer was removed before their round started: deleted
)

// signerActionRule says in which signer statuses an action is allowed,
// whether it needs the signer to have an email, the signer event it emits
// and the signer status it sets (-1: unchanged).
type signerActionRule struct {
	from      []int
	needEmail bool
	Event     string
	to        int
}

// signerActions are the signer actions, in the order the dashboard offers
// them.
var signerActions = []string{ActionRequestOpened, ActionOpen, ActionSign, ActionReject, ActionBounce,
	ActionUndeliverable, ActionDelete}

// refusal answers the 409 of an action that the state of the case file and
// the signer does not allow, or nil; call with the store lock held.
func (rule signerActionRule) refusal(cf *CaseFile, sg *Signer, action string) error {
	switch {
	case cf.Status != cfPending:
		return wire.Conflict("case file %d is %s: signer actions need a pending case file", cf.ID, caseFileStatusName(cf.Status))
	case !slices.Contains(rule.from, sg.Status):
		return wire.Conflict("signer %d is %s: %s is not possible", sg.ID, signerStatusName(sg.Status), action)
	case rule.needEmail && sg.Email == "":
		return wire.Conflict("signer %d has no email: %s is not possible", sg.ID, action)
	}
	return nil
}

// allowedActions answers the actions the state of the case file and the
// signer allows, in signerActions' order; call with the store lock held.
func allowedActions(cf *CaseFile, sg *Signer) []string {
	rules := signerActionRules()
	var out []string
	for _, a := range signerActions {
		if rules[a].refusal(cf, sg, a) == nil {
			out = append(out, a)
		}
	}
	return out
}

func signerActionRules() map[string]signerActionRule {
	active := []int{sgPending, sgUndeliverable}
	return map[string]signerActionRule{
		ActionRequestOpened: {from: active, needEmail: true, Event: evSignerReqOpened, to: -1},
		ActionOpen:          {from: active, Event: evSignerOpened, to: -1},
		ActionSign:          {from: active, Event: evSignerSigned, to: sgSigned},
		ActionReject:        {from: active, Event: evSignerRejected, to: sgRejected},
		ActionBounce:        {from: active, needEmail: true, Event: evSignerBounce, to: -1},
		ActionUndeliverable: {from: []int{sgPending}, needEmail: true, Event: evSignerUndeliver, to: sgUndeliverable},
		// Only a signer whose round has not started can be removed: once asked
		// to sign, a signer signs or rejects
		// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
		ActionDelete: {from: []int{sgNew}, Event: evSignerDeleted, to: sgDeleted},
	}
}

// SignerAction performs an action of a signer of a case file, as the control
// API does: one of the Action… constants. It takes effect, and its events
// are in the event log, before it returns. An unknown case file, signer or
// action is a 404 error; an action the current state does not allow is a
// 409 error.
func (c *Control) SignerAction(caseFileID, signerID int64, action string) error {
	return c.sim.signerAction(caseFileID, signerID, action)
}

// signerAction performs a signer's action (see Control.SignerAction); the
// signing page's Sign and Reject come here too.
func (s *simulation) signerAction(caseFileID, signerID int64, action string) error {
	return s.signerActionWith(caseFileID, signerID, action, "")
}

// signerActionWith performs a signer's action; a reject keeps reason as
// the signer's rejectReason (checkReason in errors.go checks it first).
func (s *simulation) signerActionWith(caseFileID, signerID int64, action, reason string) error {
	rule, ok := signerActionRules()[action]
	if !ok {
		return wire.NotFound("no signer action %q; actions: request-opened, open, sign, reject, bounce, undeliverable, delete", action)
	}
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	cf, sg := s.lookupSigner(caseFileID, signerID)
	switch {
	case cf == nil:
		return wire.NotFound("no case file %d", caseFileID)
	case sg == nil:
		return wire.NotFound("case file %d has no signer %d", caseFileID, signerID)
	}
	if err := rule.refusal(cf, sg, action); err != nil {
		return err
	}
	now := s.Now()
	if rule.to >= 0 {
		s.clock.Cancel(sg.reminder)
		s.write(func() {
			sg.Status, cf.Updated = rule.to, now
			if rule.to == sgSigned {
				sg.SignedAt = now
			}
			if rule.to == sgRejected {
				sg.RejectReason = reason
			}
		})
	}
	s.emitSigner(cf, sg, rule.Event)
	switch action {
	case ActionReject:
		s.cancelTimers(cf)
		s.write(func() { cf.Status = cfRejected })
		s.EmitCaseFile(cf, evCaseFileRejected)
	case ActionSign, ActionDelete:
		s.progress(cf)
	}
	return nil
}

// ShareCaseFile puts a case file in the customer's shared folder (shared
// true), where every user of the customer may read it, or takes it out.
func (s *Control) ShareCaseFile(caseFileID int64, shared bool) error {
	s.cases.mu.Lock()
	defer s.cases.mu.Unlock()
	cf := s.cases.files[caseFileID]
	if cf == nil {
		return wire.NotFound("no case file %d", caseFileID)
	}
	cf.Shared = shared
	return nil
}

// pathID reads a positive integer path value.
func pathID(r *http.Request, name string) (int64, error) {
	n, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || n < 1 {
		return 0, wire.NotFound("%s must be a positive integer", name)
	}
	return n, nil
}

// CtlSignerAction is POST /mock/casefiles/{id}/signers/{signerId}/{action}
// with no body, or for reject optionally {"reason":"..."}: it answers the
// case file as the signing service shows it, after the action took effect.
func (s *Control) CtlSignerAction(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	sid, err := pathID(r, "signerId")
	if err != nil {
		return err
	}
	action := r.PathValue("action")
	reason, err := s.actionReason(w, r, action)
	if err != nil {
		return err
	}
	if err := s.sim.signerActionWith(id, sid, action, reason); err != nil {
		return err
	}
	return s.writeCaseFile(w, id)
}

// CtlSharedFolder is POST /mock/casefiles/{id}/shared-folder {"shared":bool}.
func (s *Control) CtlSharedFolder(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	var body struct {
		Shared *bool `json:"shared"`
	}
	if err := wire.DecodeBody(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return err
	}
	if body.Shared == nil {
		var p wire.Problems
		p.Add("shared", "is required (true or false)")
		return p.Err()
	}
	if err := s.ShareCaseFile(id, *body.Shared); err != nil {
		return err
	}
	return s.writeCaseFile(w, id)
}

// SetCaseFileExpiry sets when a case file that is still pending expires
// (sign.casefile.expired, status 7); at must be in the future.
func (s *Control) SetCaseFileExpiry(caseFileID int64, at time.Time) error {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	cf, _ := s.lookupSigner(caseFileID, 0)
	if cf == nil {
		return wire.NotFound("no case file %d", caseFileID)
	}
	if !at.After(s.Now()) {
		var p wire.Problems
		p.Add("expireAt", "must be in the future")
		return p.Err()
	}
	if cf.Status != cfPending && cf.Status != cfNew {
		return wire.Conflict("case file %d is %s: only a new or pending case file can expire", cf.ID, caseFileStatusName(cf.Status))
	}
	s.write(func() { cf.ExpireAt = at })
	if cf.Status == cfPending {
		s.sim.scheduleExpiry(cf)
	}
	return nil
}

// CtlExpiry is POST /mock/casefiles/{id}/expiry {"expireAt":"<RFC 3339>"}.
func (s *Control) CtlExpiry(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	var body struct {
		ExpireAt string `json:"expireAt"`
	}
	if err := wire.DecodeBody(w, r, s.cfg.MaxBodyBytes, &body); err != nil {
		return err
	}
	at, err := time.Parse(time.RFC3339Nano, body.ExpireAt)
	if err != nil {
		var p wire.Problems
		p.Add("expireAt", "must be an RFC 3339 time")
		return p.Err()
	}
	if err := s.SetCaseFileExpiry(id, at); err != nil {
		return err
	}
	return s.writeCaseFile(w, id)
}

// CtlAnonymize is POST /mock/casefiles/{id}/anonymize: it anonymizes a
// finished case file (completed, rejected, expired or failed) as the
// platform does after its retention period (AnonymizeCaseFile): status 8,
// the signers' and CC recipients' names and emails blanked, signing links
// gone. It answers the case file as the signing service then shows it; an
// unknown case file 404, one not finished 409.
func (s *Control) CtlAnonymize(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	if err := s.AnonymizeCaseFile(id); err != nil {
		return err
	}
	return s.writeCaseFile(w, id)
}
