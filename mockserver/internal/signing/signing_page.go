package signing

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// signingPageHTML is the page behind a signing link: the documents to read
// and, while the signer is to sign, a form that signs or rejects.
const signingPageHTML = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign: {{.Title}}</title></head>
<body>
<h1>{{.Title}}</h1>
<p id="signer">Signer: {{.Name}}</p>
<p id="status">{{.Message}}</p>
<ul id="documents">
{{range .Documents}}<li><a href="{{.URL}}">{{.Title}}</a>{{if .Signed}} (signed){{end}}</li>
{{end}}</ul>
{{if .CanSign}}<form method="post" action="{{.Action}}">
<button type="submit" name="action" value="sign">Sign</button>
<button type="submit" name="action" value="reject">Reject</button>
</form>{{end}}
</body>
</html>
`

// signingPageData fills signingPageHTML.
type signingPageData struct {
	Title, Name, Message, Action string
	CanSign                      bool
	Documents                    []signingPageDoc
}

type signingPageDoc struct {
	Title, URL string
	Signed     bool
}

// signerOfLink answers the case file and signer of a signing link token.
func (s *Pages) signerOfLink(token string) (*CaseFile, *Signer, error) {
	s.sign.mu.Lock()
	ref, ok := s.sign.links[token]
	s.sign.mu.Unlock()
	if !ok {
		return nil, nil, wire.NotFound("no such signing link")
	}
	cf, sg := s.lookupSigner(ref.caseFileID, ref.signerID)
	if sg == nil {
		return nil, nil, wire.NotFound("no such signing link")
	}
	return cf, sg, nil
}

// HandleSigningPage is GET /public/sign/{token}: viewing it while the
// signer is to sign counts as opening the signing page (sign.signer.opened);
// a HEAD request does not.
func (s *Pages) HandleSigningPage(w http.ResponseWriter, r *http.Request) error {
	token := r.PathValue("token")
	cf, sg, err := s.signerOfLink(token)
	if err != nil {
		return err
	}
	if r.Method == http.MethodGet {
		if err := s.sim.signerAction(cf.ID, sg.ID, ActionOpen); err != nil && !isConflict(err) {
			return err
		}
	}
	return s.renderSigningPage(w, r, token, http.StatusOK, "")
}

// HandleSigningPost is POST /public/sign/{token} with action=sign or
// action=reject (form encoded). It answers the page again with the outcome,
// or with Accept: application/json the case file JSON.
func (s *Pages) HandleSigningPost(w http.ResponseWriter, r *http.Request) error {
	token := r.PathValue("token")
	cf, sg, err := s.signerOfLink(token)
	if err != nil {
		return err
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
	err = s.sim.signerAction(cf.ID, sg.ID, action)
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		if err != nil {
			return err
		}
		return s.writeCaseFile(w, cf.ID)
	}
	status, msg := http.StatusOK, ""
	if err != nil {
		var ae *wire.Error
		if !errors.As(err, &ae) {
			return err
		}
		status, msg = ae.Status, ae.Message
	}
	return s.renderSigningPage(w, r, token, status, msg)
}

// renderSigningPage writes the signing page of a token with a status line.
func (s *Pages) renderSigningPage(w http.ResponseWriter, r *http.Request, token string, status int, problem string) error {
	cf, sg, err := s.signerOfLink(token)
	if err != nil {
		return err
	}
	base := SigningPageURL(wire.BaseURL(r), token)
	s.cases.mu.RLock()
	data := signingPageData{Title: cf.Title, Name: sg.Name, Action: base,
		CanSign: cf.Status == cfPending && (sg.Status == sgPending || sg.Status == sgUndeliverable)}
	data.Message = pageMessage(cf, sg, problem)
	for _, d := range cf.Documents {
		data.Documents = append(data.Documents, signingPageDoc{Title: d.Title,
			URL: base + "/documents/" + d.DocumentID, Signed: d.signedPath != ""})
	}
	s.cases.mu.RUnlock()
	var buf bytes.Buffer
	if err := s.sign.page.Execute(&buf, data); err != nil {
		return fmt.Errorf("render signing page: %w", err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
	return nil
}

// pageMessage is the status line of the signing page; call with the store
// lock held.
func pageMessage(cf *CaseFile, sg *Signer, problem string) string {
	switch {
	case problem != "":
		return problem
	case cf.Status == cfCompleted:
		return "Every signer has signed. The signed documents are ready."
	case cf.Status != cfPending:
		return "This case file is " + caseFileStatusName(cf.Status) + "."
	case sg.Status == sgSigned:
		return "You have signed. Waiting for the other signers."
	case sg.Status == sgNew:
		return "Your signing round has not started yet."
	case sg.Status == sgPending || sg.Status == sgUndeliverable:
		return "Please read the documents, then sign or reject."
	}
	return "You can no longer sign: you are " + signerStatusName(sg.Status) + "."
}

// HandleSigningDocument is GET /public/sign/{token}/documents/{documentId}:
// a document of the signer's case file as PDF, signed once completed.
func (s *Pages) HandleSigningDocument(w http.ResponseWriter, r *http.Request) error {
	cf, _, err := s.signerOfLink(r.PathValue("token"))
	if err != nil {
		return err
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

// isConflict tells whether err is a 409 wire.Error.
func isConflict(err error) bool {
	var ae *wire.Error
	return errors.As(err, &ae) && ae.Status == http.StatusConflict
}
