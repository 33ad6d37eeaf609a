package app

import (
	"cmp"
	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/quota"
	"net/http"
	"os"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/send"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// initSend sets up the Send service, wired to the signing store: a job's
// case file is made by jobCaseFile and added (and activated) there.
func (a *App) initSend() {
	q := a.quotas
	a.Send = send.New(send.Config{
		Clock: a.Clock, JobDelay: a.Cfg.JobDelay, MaxUploadBytes: a.Cfg.MaxUploadBytes, MaxBodyBytes: a.Cfg.MaxBodyBytes,
		Temp: a.Temp, MaxDocuments: a.Cfg.MaxDocuments,
		CallerOf: func(r *http.Request) send.Caller {
			u := auth.From(r.Context())
			return send.Caller{UserID: u.ID, CustomerID: u.CustomerID}
		},
		TakePlaces:   func(customerID int64) error { return quota.TakeAll(customerID, q.Jobs, q.CaseFiles) },
		GiveCaseFile: func(customerID int64) { q.CaseFiles.Give(customerID, 1) },
		JobRetention: a.Cfg.JobRetention,
		GiveJob:      func(customerID int64) { q.Jobs.Give(customerID, 1) },
		Create: func(j *send.Job) (int64, error) {
			cf, err := jobCaseFile(j, a.Clock.Now())
			if err != nil {
				return 0, err
			}
			a.Signing.Add(cf)
			return cf.ID, nil
		},
		Links: func(caseFileID int64, r *http.Request) []send.Link {
			return a.signingLinks(caseFileID, wire.BaseURL(r))
		},
	})
	a.onReset(a.Send.Reset)
}

// jobCaseFile turns a job's definition and files into a new case file;
// documents keep the definition's order.
func jobCaseFile(j *send.Job, now time.Time) (*signing.CaseFile, error) {
	def := j.Def
	cf := &signing.CaseFile{Title: def.Title, UserID: j.UserID, CustomerID: j.CustomerID, Created: now, Updated: now,
		ExpireAt: def.ExpireAt.Value(), SendAt: def.SendAt.Value(), Language: def.Language, Reference: def.Reference,
		MetaData: def.MetaData, SensitiveData: def.SensitiveData, SignOnMeeting: def.SignOnMeeting,
		DisableNotificationsOwner: def.DisableNotificationsOwner, DisableEmailAttachments: def.DisableEmailAttachments || def.SensitiveData, // sensitive data sends no attachments (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1)
		SenderName: def.SenderName, AccessControl: def.AccessControl}
	if def.FolderID != nil {
		cf.FolderID = *def.FolderID
	}
	if def.VisibilityMode != nil {
		cf.VisibilityMode = *def.VisibilityMode
	}
	for _, cc := range def.CCRecipients {
		cf.CCRecipients = append(cf.CCRecipients, signing.CCRecipient{Name: cc.Name, Email: cc.Email,
			StoreAsContact: cc.StoreAsContact == nil || *cc.StoreAsContact})
	}
	for i := range def.Signers {
		sg := jobSigner(&def.Signers[i])
		// Sensitive data turns access control on for every signer, and it
		// cannot be turned off; so does the case file's own accessControl
		// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
		sg.AccessControl = sg.AccessControl || def.SensitiveData || def.AccessControl
		cf.Signers = append(cf.Signers, sg)
	}
	for i, d := range def.Documents {
		f, ok := j.FileOf(i)
		if !ok {
			continue
		}
		if _, err := os.Stat(f.Path); err != nil {
			return nil, errGone(cmp.Or(d.Name, d.Title))
		}
		nd := &signing.Document{Title: d.Title, Signable: d.IsSignable(), Format: "pdf", Roles: d.Roles,
			FileSize: f.Size, OrigPath: f.Path, DocumentOrder: i, MetaData: d.MetaData}
		if d.DocumentOrder != nil {
			nd.DocumentOrder = *d.DocumentOrder
		}
		cf.Documents = append(cf.Documents, nd)
	}
	return cf, nil
}

// jobSigner turns a signer of the definition into a case file's signer.
func jobSigner(sg *send.Signer) *signing.Signer {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	ns := &signing.Signer{Name: sg.Name, Email: sg.Email, Role: sg.Role, Texts: signing.EmailTexts{
		RequestSubject: str(sg.EmailSubject), RequestText: str(sg.EmailText),
		ReminderSubject: str(sg.ReminderEmailSubject), ReminderText: str(sg.ReminderEmailText),
		CompletedSubject: str(sg.CompletedEmailSubject), CompletedText: str(sg.CompletedEmailText)},
		OnBehalfOf: sg.OnBehalfOf, SSNType: sg.SSNType, SSN: sg.SSN, VATIN: sg.VATIN, AccessControl: sg.AccessControl,
		Language: sg.Language, SuccessURL: str(sg.SuccessURL), FailURL: str(sg.FailURL),
		ActiveAt: sg.ActiveAt.Value(), ExpireAt: sg.ExpireAt.Value(), StoreAsContact: sg.StoreAsContact == nil || *sg.StoreAsContact,
		EmailFormat: sg.EmailFormat, EnableInsecureSigning: sg.EnableInsecureSigning,
		InsecureSigningMethods: sg.InsecureSigningMethods, SecureSigningMethods: sg.SecureSigningMethods}
	if sg.SignOrder != nil {
		ns.SignOrder = *sg.SignOrder
	}
	if sg.ReminderInterval != nil {
		ns.ReminderInterval = *sg.ReminderInterval
	}
	return ns
}

// errGone is the failure of a job whose uploaded files were removed (by a
// reset between acceptance and execution).
type errGone string

func (e errGone) Error() string { return "the uploaded file " + string(e) + " is no longer available" }

// signingLinks answers one signing link per signer of a case file.
func (a *App) signingLinks(caseFileID int64, base string) []send.Link {
	links := []send.Link{}
	for _, l := range a.Signing.SignerLinks(caseFileID, base) {
		links = append(links, send.Link{Name: l.Name, Role: l.Role, Email: l.Email, SigningLink: l.URL})
	}
	return links
}
