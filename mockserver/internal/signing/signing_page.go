package signing

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// signingPageHTML is the page behind a signing link, inside the pages' layout:
// what happened last, where the case file stands, every signer's progress, the
// documents, and while the signer is to sign a Sign button and a Reject link
// that asks for confirmation first. Sign and Reject post and are redirected
// back here (Post/Redirect/Get), so a refresh never posts again
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#pages).
const signingPageHTML = `{{define "main"}}<h1>{{.Title}}</h1>
{{if .Flash}}<p class="flash" id="flash" role="status">{{.Flash}}</p>
{{end}}<p class="status" id="status">{{.Message}}</p>
<p id="signer">{{printf .T.SigningAsF .Name}}</p>
<h2 id="signers-title">{{.T.Signers}}</h2>
<ol class="signers" id="signers" aria-labelledby="signers-title">{{range .Signers}}<li class="signer" data-status="{{.Key}}">{{.Name}}: <span class="progress">{{.Progress}}</span></li>
{{end}}</ol>
<h2 id="documents-title">{{.T.Documents}}</h2>
<ul id="documents" aria-labelledby="documents-title">{{range .Documents}}<li><a href="{{.URL}}">{{.Title}}</a>{{if .Signed}} ({{$.T.SignedDoc}}){{end}}</li>
{{end}}</ul>
{{if .Confirm}}<section id="confirm-reject" class="error-summary" aria-labelledby="confirm-text">
<p id="confirm-text">{{.T.ConfirmReject}}</p>
<form method="post" action="{{.Action}}" class="actions">
<input type="hidden" name="action" value="reject"><input type="hidden" name="confirm" value="yes">
<label for="reject-reason">{{.T.RejectReason}}</label>
<textarea id="reject-reason" name="reason" rows="3" maxlength="{{.MaxReason}}"></textarea>
<button type="submit" class="danger" id="confirm-reject-button">{{.T.ConfirmRejectYes}}</button>
<a class="button secondary" id="cancel-reject" href="{{.Action}}" autofocus>{{.T.Cancel}}</a>
</form></section>
{{else if .CanSign}}<form method="post" action="{{.Action}}" class="actions" id="sign-form">
<button type="submit" name="action" value="sign" id="sign">{{.T.Sign}}</button>
</form>
<p class="reject-area"><a class="button secondary" id="reject" href="{{.Action}}?confirm=reject">{{.T.Reject}}</a></p>{{end}}{{end}}`

// signingPage renders signingPageHTML.
var signingPage = pages.Must("sign", signingPageHTML, nil)

// signingPageData fills signingPageHTML.
type signingPageData struct {
	Lang, Title, Name, Message, Flash, Action string
	T                                         *pages.Text
	CanSign, Confirm                          bool
	MaxReason                                 int // the reason's maxlength (MaxReasonChars)
	Signers                                   []signerProgress
	Documents                                 []signingPageDoc
}

// signerProgress is a line of the signers' list.
type signerProgress struct{ Name, Key, Progress string }

type signingPageDoc struct {
	Title, URL string
	Signed     bool
}

// signerOfLink answers the case file and signer of a signing link token;
// a token of a deleted or anonymized case file is 410, an unknown one 404.
func (s *Pages) signerOfLink(token string) (*CaseFile, *Signer, error) {
	s.sign.mu.Lock()
	ref, ok := s.sign.links[token]
	gone := s.sign.gone[token]
	s.sign.mu.Unlock()
	if gone {
		return nil, nil, &wire.Error{Status: http.StatusGone, Code: "gone", Message: "this signing link no longer works"}
	}
	if !ok {
		return nil, nil, wire.NotFound("no such signing link")
	}
	cf, sg := s.lookupSigner(ref.caseFileID, ref.signerID)
	if sg == nil {
		return nil, nil, wire.NotFound("no such signing link")
	}
	return cf, sg, nil
}

// linkError answers an unknown or dead link: the JSON error to JSON
// clients, an HTML page to browsers.
func (s *Pages) linkError(w http.ResponseWriter, r *http.Request, err error) error {
	var ae *wire.Error
	if wire.WantsJSON(r) || !errors.As(err, &ae) || (ae.Status != http.StatusNotFound && ae.Status != http.StatusGone) {
		return err
	}
	lang, t := pages.Language("")
	m := pages.Message{Lang: lang, Title: t.LinkUnknownTitle, Message: t.LinkUnknown}
	if ae.Status == http.StatusGone {
		m.Title, m.Message = t.LinkGoneTitle, t.LinkGone
	}
	return pages.WriteMessage(w, ae.Status, m)
}

// HandleSigningPage is GET /public/sign/{token}[?confirm=reject][?done=sign|reject]:
// viewing it while the signer is to sign counts as opening the signing
// page (sign.signer.opened); a HEAD request does not.
func (s *Pages) HandleSigningPage(w http.ResponseWriter, r *http.Request) error {
	token := r.PathValue("token")
	cf, sg, err := s.signerOfLink(token)
	if err != nil {
		return s.linkError(w, r, err)
	}
	if r.Method == http.MethodGet {
		if err := s.sim.signerAction(cf.ID, sg.ID, ActionOpen); err != nil && !isConflict(err) {
			return err
		}
	}
	q := r.URL.Query()
	return s.renderSigningPage(w, r, token, q.Get("confirm") == ActionReject, q.Get("done"))
}

// HandleSigningPost is POST /public/sign/{token} with action=sign or
// action=reject (form encoded); a reject may carry reason, the signer's
// rejectReason. A browser is redirected (303) to the page,
// which says what happened; a reject without confirm=yes is redirected to
// the confirmation first. With Accept: application/json it answers the
// case file JSON, or the error (409 for an action the state does not
// allow).
func (s *Pages) HandleSigningPost(w http.ResponseWriter, r *http.Request) error {
	token := r.PathValue("token")
	cf, sg, err := s.signerOfLink(token)
	if err != nil {
		return s.linkError(w, r, err)
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	if err := r.ParseForm(); err != nil {
		return wire.BadRequest("the body must be a form with action=sign or action=reject")
	}
	action := r.PostForm.Get("action")
	if action != ActionSign && action != ActionReject {
		var p wire.Problems
		p.Add("action", "must be sign or reject")
		return p.Err()
	}
	reason, err := pageReason(r, action)
	if err != nil {
		return err
	}
	page := SigningPageURL(wire.BaseURL(r), token)
	if wire.WantsJSON(r) {
		if err := s.sim.signerActionWith(cf.ID, sg.ID, action, reason); err != nil {
			return err
		}
		return s.writeCaseFile(w, cf.ID)
	}
	if action == ActionReject && r.PostForm.Get("confirm") != "yes" {
		http.Redirect(w, r, page+"?confirm=reject", http.StatusSeeOther)
		return nil
	}
	switch err := s.sim.signerActionWith(cf.ID, sg.ID, action, reason); {
	case err == nil:
		page += "?done=" + url.QueryEscape(action)
	case !isConflict(err):
		return err
	} // a conflict (signed twice, rejected meanwhile): the page says where things stand
	http.Redirect(w, r, page, http.StatusSeeOther)
	return nil
}

// renderSigningPage writes the signing page of a token: with the reject
// confirmation, and with what the signer just did (done).
func (s *Pages) renderSigningPage(w http.ResponseWriter, r *http.Request, token string, confirm bool, done string) error {
	cf, sg, err := s.signerOfLink(token)
	if err != nil {
		return s.linkError(w, r, err)
	}
	base := SigningPageURL(wire.BaseURL(r), token)
	s.cases.mu.RLock()
	lang, t := pages.Language(cmp.Or(sg.Language, cf.Language))
	data := signingPageData{Lang: lang, T: t, Title: fmt.Sprintf(t.SignTitleF, cf.Title), Name: sg.Name, Action: base, MaxReason: MaxReasonChars,
		CanSign: cf.Status == cfPending && (sg.Status == sgPending || sg.Status == sgUndeliverable)}
	data.Confirm = confirm && data.CanSign
	data.Message = pageMessage(t, cf, sg)
	switch {
	case done == ActionSign && sg.Status == sgSigned:
		data.Flash = t.JustSigned
	case done == ActionReject && sg.Status == sgRejected:
		data.Flash = t.JustRejected
	}
	for _, o := range cf.Signers {
		key, progress := signerProgressOf(t, o)
		data.Signers = append(data.Signers, signerProgress{Name: cmp.Or(o.Name, o.Email), Key: key, Progress: progress})
	}
	for _, d := range cf.Documents {
		data.Documents = append(data.Documents, signingPageDoc{Title: d.Title,
			URL: base + "/documents/" + d.DocumentID, Signed: d.signedPath != ""})
	}
	s.cases.mu.RUnlock()
	b, err := pages.Render(signingPage, data)
	if err != nil {
		return err
	}
	pages.Write(w, http.StatusOK, b)
	return nil
}

// signerProgressOf answers a signer's status as a key (the data-status of
// the list) and as the page says it; call with the store lock held.
func signerProgressOf(t *pages.Text, sg *Signer) (string, string) {
	switch sg.Status {
	case sgSigned:
		return "signed", t.StatusSigned
	case sgPending:
		return "pending", t.StatusPending
	case sgNew:
		return "waiting", t.StatusWaiting
	case sgRejected:
		return "rejected", t.StatusRejected
	case sgDeleted:
		return "removed", t.StatusRemoved
	case sgUndeliverable:
		return "undeliverable", t.StatusUndeliverable
	}
	return "unknown", signerStatusName(sg.Status)
}

// caseFileStatusText names a case file status as the page says it.
func caseFileStatusText(t *pages.Text, st int) string {
	switch st {
	case cfRejected:
		return t.StatusRejected
	case cfDeleted:
		return t.StatusDeleted
	case cfExpired:
		return t.StatusExpired
	case cfFailed:
		return t.StatusFailed
	case cfAnonymized:
		return t.StatusAnonymized
	}
	return caseFileStatusName(st)
}

// pageMessage is the status line of the signing page; call with the store
// lock held.
func pageMessage(t *pages.Text, cf *CaseFile, sg *Signer) string {
	switch {
	case cf.Status == cfCompleted:
		return t.Completed
	case cf.Status != cfPending:
		return fmt.Sprintf(t.CaseFileEndedF, caseFileStatusText(t, cf.Status))
	case sg.Status == sgSigned:
		return t.YouSigned
	case sg.Status == sgNew:
		return t.RoundNotStarted
	case sg.Status == sgPending || sg.Status == sgUndeliverable:
		return t.PleaseRead
	}
	_, progress := signerProgressOf(t, sg)
	return fmt.Sprintf(t.CannotSignF, progress)
}

// HandleSigningDocument is GET /public/sign/{token}/documents/{documentId}:
// a document of the signer's case file as PDF, signed once completed.
func (s *Pages) HandleSigningDocument(w http.ResponseWriter, r *http.Request) error {
	cf, _, err := s.signerOfLink(r.PathValue("token"))
	if err != nil {
		return s.linkError(w, r, err)
	}
	docID := r.PathValue("documentId")
	s.cases.mu.RLock()
	d := s.cases.docs[docID]
	s.cases.mu.RUnlock()
	if d == nil || d.CaseFileID != cf.ID {
		return wire.NotFound("no document %q in this case file", docID)
	}
	c, err := s.documentFor(docID, nil, nil)
	if err != nil {
		return err
	}
	return writeDocument(w, c, false)
}

// pageReason reads the optional reason of the signing page's reject; a
// reason is refused with any other action, and when too long.
func pageReason(r *http.Request, action string) (string, error) {
	reason := r.PostForm.Get("reason")
	if action != ActionReject && strings.TrimSpace(reason) != "" {
		var p wire.Problems
		p.Add("reason", "only a reject takes a reason")
		return "", p.Err()
	}
	return checkReason("reason", reason)
}

// isConflict tells whether err is a 409 wire.Error.
func isConflict(err error) bool {
	var ae *wire.Error
	return errors.As(err, &ae) && ae.Status == http.StatusConflict
}
