package signing

import (
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// Case file statuses
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file status").
const (
	cfNew        = 0
	cfPending    = 1
	cfRejected   = 2
	cfDeleted    = 3
	cfSigned     = 4
	cfCompleted  = 5
	cfFailed     = 6
	cfExpired    = 7
	cfAnonymized = 8
)

// Signer statuses
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Signer status").
const (
	sgNew           = 0
	sgPending       = 1
	sgRejected      = 2
	sgDeleted       = 3
	sgSigned        = 4
	sgUndeliverable = 5
)

// caseFileStatusName names a case file status for messages.
func caseFileStatusName(st int) string {
	switch st {
	case cfNew:
		return "new"
	case cfPending:
		return "pending"
	case cfRejected:
		return "rejected"
	case cfDeleted:
		return "deleted"
	case cfSigned:
		return "signed"
	case cfCompleted:
		return "completed"
	case cfFailed:
		return "failed"
	case cfExpired:
		return "expired"
	case cfAnonymized:
		return "anonymized"
	}
	return "unknown"
}

// signerStatusName names a signer status for messages.
func signerStatusName(st int) string {
	switch st {
	case sgNew:
		return "new (their signing round has not started)"
	case sgPending:
		return "pending"
	case sgRejected:
		return "rejected"
	case sgDeleted:
		return "deleted"
	case sgSigned:
		return "signed"
	case sgUndeliverable:
		return "undeliverable"
	}
	return "unknown"
}

// signingState is the state of the Send and signing domain: the Send jobs,
// the queue status rate limit, the event log, the email outbox, the signing
// links and the temporary directory.
// mu serializes the signing simulation: every status change of a case file
// or signer, and the events it emits, happen under it (and under the case
// file store's lock for the writes), so each case file's events are in the
// log in the order of its changes.
type signingState struct {
	mu     sync.Mutex
	links  map[string]linkRef // signing link token → case file and signer
	gone   map[string]bool    // tokens of deleted and anonymized case files: 410, not 404
	events *eventLog
	outbox *outbox
}

// linkRef locates the signer of a signing link.
type linkRef struct{ caseFileID, signerID int64 }

// SigningPageURL is the signing link of a signer.
func SigningPageURL(base, token string) string { return base + "/public/sign/" + token }

// lookupSigner answers a case file and one of its signers (nil when either
// does not exist).
func (s *state) lookupSigner(caseFileID, signerID int64) (*CaseFile, *Signer) {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	cf := s.cases.files[caseFileID]
	if cf == nil {
		return nil, nil
	}
	for _, sg := range cf.Signers {
		if sg.ID == signerID {
			return cf, sg
		}
	}
	return cf, nil
}

// write applies fn to case file state under the store's write lock.
func (s *state) write(fn func()) {
	s.cases.mu.Lock()
	defer s.cases.mu.Unlock()
	fn()
}

// activate starts the signing process of a new case file: it becomes
// pending and the signers of the lowest signOrder are activated. Both a
// Send job and a form submission reach it through the store's add hook;
// calling it again, or on a case file without signers, does nothing. A
// case file whose sendAt lies ahead gets its signing links now and stays
// new (0) until sendAt, when it is activated.
func (s *simulation) activate(cf *CaseFile) {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	if cf.Status != cfNew || len(cf.Signers) == 0 {
		return
	}
	now := s.Now()
	s.write(func() {
		for _, sg := range cf.Signers {
			if sg.Token == "" {
				sg.Token = ids.Hex(20)
			}
		}
	})
	for _, sg := range cf.Signers {
		s.sign.links[sg.Token] = linkRef{caseFileID: cf.ID, signerID: sg.ID}
	}
	s.measureRendered(cf)
	if now.Before(cf.SendAt) {
		id := cf.ID
		cf.sending = s.clock.At(cf.SendAt, func() { s.activateID(id) })
		return
	}
	s.write(func() {
		cf.Status, cf.Activated, cf.Updated = cfPending, now, now
		for _, d := range cf.Documents {
			d.Status = cfPending
		}
	})
	if !cf.ExpireAt.IsZero() {
		s.scheduleExpiry(cf)
	}
	s.nextRound(cf)
}

// activateID activates a case file whose sendAt has come, unless it was
// deleted meanwhile.
func (s *simulation) activateID(caseFileID int64) {
	if cf, _ := s.lookupSigner(caseFileID, 0); cf != nil {
		s.activate(cf)
	}
}

// measureRendered records the size of documents rendered on demand (the
// answers PDF of a submission), so that details can report fileSize.
func (s *simulation) measureRendered(cf *CaseFile) {
	for _, d := range cf.Documents {
		if d.FileSize == 0 && d.OrigPath == "" && d.Render != nil {
			if b, err := d.Render(); err == nil {
				s.write(func() { d.FileSize = int64(len(b)) })
			}
		}
	}
}

// nextRound activates the signers of the lowest signOrder among those not
// yet activated: requestActivated for each, and for those with an email the
// request email, requestSent and their reminders.
func (s *simulation) nextRound(cf *CaseFile) {
	order, found := 0, false
	for _, sg := range cf.Signers {
		if sg.Status == sgNew && (!found || sg.SignOrder < order) {
			order, found = sg.SignOrder, true
		}
	}
	if !found {
		return
	}
	now := s.Now()
	for _, sg := range cf.Signers {
		if sg.Status != sgNew || sg.SignOrder != order {
			continue
		}
		s.write(func() { sg.Status, sg.ActivatedAt = sgPending, now })
		s.emitSigner(cf, sg, evSignerActivated)
		if sg.Email == "" {
			continue
		}
		s.emailSigner(cf, sg, "request")
		s.emitSigner(cf, sg, evSignerRequestSent)
		s.scheduleReminder(cf, sg)
	}
}

// progress moves a pending case file on after a signer signed or was
// deleted: while a signer of the current round is still to sign, nothing;
// then the next round; when no signer is left, completion (if anyone
// signed).
func (s *simulation) progress(cf *CaseFile) {
	if cf.Status != cfPending {
		return
	}
	anySigned, anyNew := false, false
	for _, sg := range cf.Signers {
		switch sg.Status {
		case sgPending, sgUndeliverable:
			return
		case sgSigned:
			anySigned = true
		case sgNew:
			anyNew = true
		}
	}
	switch {
	case anyNew:
		s.nextRound(cf)
	case anySigned:
		s.complete(cf)
	}
}

// complete finishes a case file whose signers have all signed: it becomes
// completed (5) with a signed PDF for each signable document, then
// sign.casefile.completed and sign.signer.finalized for each signer who
// signed, each of whom with an email gets the completion email. If the
// signed PDFs cannot be made (an original that is not a readable PDF), it
// becomes failed (6) with sign.casefile.failed instead.
func (s *simulation) complete(cf *CaseFile) {
	s.cancelTimers(cf)
	now := s.Now()
	paths, err := s.signDocuments(cf, now)
	s.write(func() {
		cf.Updated = now
		if err != nil {
			cf.Status = cfFailed
			cf.FailureReasons = append(cf.FailureReasons, signingFailure(err))
			return
		}
		cf.Status, cf.Completed = cfCompleted, now
		for _, d := range cf.Documents {
			d.Status, d.signedPath = cfCompleted, paths[d.ID]
		}
	})
	if err != nil {
		s.EmitCaseFile(cf, evCaseFileFailed)
		return
	}
	s.EmitCaseFile(cf, evCaseFileCompleted)
	for _, sg := range cf.Signers {
		if sg.Status != sgSigned {
			continue
		}
		s.emitSigner(cf, sg, evSignerFinalized)
		if sg.Email != "" {
			s.emailSigner(cf, sg, "completed")
		}
	}
	for _, cc := range cf.CCRecipients {
		subject, text := ccEmail(cf, cc)
		s.SendEmail(cc.Email, subject, text, "")
	}
}

// emailSigner sends sg the email of kind ("request", "reminder" or
// "completed") with the link to their signing page.
func (s *simulation) emailSigner(cf *CaseFile, sg *Signer, kind string) {
	link := SigningPageURL(s.cfg.BaseURL(), sg.Token)
	subject, text := signerEmail(kind, cf, sg, link)
	s.SendEmail(sg.Email, subject, text, link)
}

// scheduleReminder plans a signer's next reminder reminderInterval days
// from now (none without an interval or an email).
func (s *simulation) scheduleReminder(cf *CaseFile, sg *Signer) {
	if sg.ReminderInterval < 1 || sg.Email == "" {
		return
	}
	id, sid := cf.ID, sg.ID
	sg.reminder = s.clock.After(time.Duration(sg.ReminderInterval)*24*time.Hour, func() { s.remind(id, sid) })
}

// remind sends a reminder to a signer who is still to sign, and plans the
// next one.
func (s *simulation) remind(caseFileID, signerID int64) {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	cf, sg := s.lookupSigner(caseFileID, signerID)
	if sg == nil || cf.Status != cfPending || sg.Status != sgPending {
		return
	}
	s.emailSigner(cf, sg, "reminder")
	s.emitSigner(cf, sg, evSignerReminderSent)
	s.scheduleReminder(cf, sg)
}

// scheduleExpiry plans (or re-plans) the expiry of a case file.
func (s *simulation) scheduleExpiry(cf *CaseFile) {
	s.clock.Cancel(cf.expiry)
	id := cf.ID
	cf.expiry = s.clock.At(cf.ExpireAt, func() { s.expire(id) })
}

// expire moves a case file that is still pending to expired (7) with
// sign.casefile.expired; reminders stop.
func (s *simulation) expire(caseFileID int64) {
	s.sign.mu.Lock()
	defer s.sign.mu.Unlock()
	cf, _ := s.lookupSigner(caseFileID, 0)
	if cf == nil || cf.Status != cfPending || s.Now().Before(cf.ExpireAt) {
		return
	}
	s.cancelTimers(cf)
	now := s.Now()
	s.write(func() { cf.Status, cf.Updated = cfExpired, now })
	s.EmitCaseFile(cf, evCaseFileExpired)
}

// cancelTimers stops a case file's planned activation, its expiry and
// every reminder.
func (s *simulation) cancelTimers(cf *CaseFile) {
	s.clock.Cancel(cf.sending)
	s.clock.Cancel(cf.expiry)
	for _, sg := range cf.Signers {
		s.clock.Cancel(sg.reminder)
	}
}
