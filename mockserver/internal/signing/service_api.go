package signing

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// CaseFileJSON is a case file as the signing service shows it
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
// Times are unix seconds; those not reached yet are null.
type CaseFileJSON struct {
	ID                        int64          `json:"id"`
	Title                     string         `json:"title"`
	Status                    int            `json:"status"`
	UserID                    int64          `json:"userId"`
	CustomerID                int64          `json:"customerId"`
	Created                   int64          `json:"created"`
	Activated                 *int64         `json:"activated"`
	Updated                   int64          `json:"updated"`
	ExpireAt                  *int64         `json:"expireAt"`
	SendAt                    *int64         `json:"sendAt"`
	Completed                 *int64         `json:"completed"`
	Language                  string         `json:"language"`
	Reference                 string         `json:"reference"`
	MetaData                  string         `json:"metaData"`
	FolderID                  int64          `json:"folderId,omitempty"`
	SensitiveData             bool           `json:"sensitiveData"`
	SignOnMeeting             bool           `json:"signOnMeeting"`
	VisibilityMode            int            `json:"visibilityMode"`
	DisableNotificationsOwner bool           `json:"disableNotificationsOwner"`
	DisableEmailAttachments   bool           `json:"disableEmailAttachments"`
	CCRecipients              []CCRecipient  `json:"ccRecipients"`
	SenderName                string         `json:"senderName,omitempty"`
	AccessControl             bool           `json:"accessControl"`
	SignIteration             int            `json:"signIteration"`
	Shared                    bool           `json:"sharedFolder"`
	Signers                   []signerJSON   `json:"signers"`
	Documents                 []documentJSON `json:"documents"`
}

// signerJSON is a signer; its role and sign order are on the signature
// lines of the documents it signs.
type signerJSON struct {
	ID             int64              `json:"id"`
	Name           string             `json:"name"`
	OnBehalfOf     string             `json:"onBehalfOf,omitempty"`
	SSNType        string             `json:"ssnType"`
	VATIN          string             `json:"vatin,omitempty"`
	StoreAsContact bool               `json:"storeAsContact"`
	SigningRequest signingRequestJSON `json:"signingRequest"`
}

// signingRequestJSON is a signer's signing request with the texts and
// settings of the Send definition.
type signingRequestJSON struct {
	ID                     int64    `json:"id"`
	Status                 int      `json:"status"`
	Email                  string   `json:"email"`
	EmailSubject           string   `json:"emailSubject,omitempty"`
	EmailText              string   `json:"emailText,omitempty"`
	ReminderEmailSubject   string   `json:"reminderEmailSubject,omitempty"`
	ReminderEmailText      string   `json:"reminderEmailText,omitempty"`
	CompletedEmailSubject  string   `json:"completedEmailSubject,omitempty"`
	CompletedEmailText     string   `json:"completedEmailText,omitempty"`
	EmailFormat            string   `json:"emailFormat"`
	ReminderInterval       int      `json:"reminderInterval"`
	AccessControl          bool     `json:"accessControl"`
	EnableInsecureSigning  bool     `json:"enableInsecureSigning"`
	InsecureSigningMethods []string `json:"insecureSigningMethods"`
	SecureSigningMethods   []string `json:"secureSigningMethods"`
	Language               string   `json:"language,omitempty"`
	SuccessURL             string   `json:"successUrl,omitempty"`
	FailURL                string   `json:"failUrl,omitempty"`
	ActiveAt               *int64   `json:"activeAt"`
	ExpireAt               *int64   `json:"expireAt"`
	RejectReason           string   `json:"rejectReason,omitempty"`
}

type documentJSON struct {
	ID             int64               `json:"id"`
	CaseFileID     int64               `json:"caseFileId"`
	DocumentID     string              `json:"documentId"`
	DocumentOrder  int                 `json:"documentOrder"`
	Title          string              `json:"title"`
	MetaData       string              `json:"metaData,omitempty"`
	Signable       bool                `json:"signable"`
	Status         int                 `json:"status"`
	FileSize       int64               `json:"fileSize"`
	Format         string              `json:"format"`
	Created        int64               `json:"created"`
	SignatureLines []signatureLineJSON `json:"signatureLines"`
}

// signatureLineJSON is a signature line; documentId is the document's
// integer id here, not its string key.
type signatureLineJSON struct {
	ID          int64  `json:"id"`
	SignerID    int64  `json:"signerId"`
	DocumentID  int64  `json:"documentId"`
	Role        string `json:"role"`
	SignOrder   int    `json:"signOrder"`
	ActivatedAt *int64 `json:"activatedAt"`
	SignedAt    *int64 `json:"signedAt"`
}

// unixOrNil is t in unix seconds, nil when t is zero.
func unixOrNil(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	u := t.Unix()
	return &u
}

// unixOrZero is t in unix seconds, 0 when t is zero.
func unixOrZero(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// orEmpty answers a non-nil slice, so JSON shows [] rather than null.
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// viewLocked answers the JSON of a case file; call with s.cases.mu held.
func viewLocked(cf *CaseFile) CaseFileJSON {
	out := CaseFileJSON{ID: cf.ID, Title: cf.Title, Status: cf.Status, UserID: cf.UserID, CustomerID: cf.CustomerID,
		Created: unixOrZero(cf.Created), Activated: unixOrNil(cf.Activated), Updated: unixOrZero(cf.Updated),
		ExpireAt: unixOrNil(cf.ExpireAt), SendAt: unixOrNil(cf.SendAt), Completed: unixOrNil(cf.Completed),
		Language: cmp.Or(cf.Language, "en"), Reference: cf.Reference, MetaData: cf.MetaData, FolderID: cf.FolderID,
		SensitiveData: cf.SensitiveData, SignOnMeeting: cf.SignOnMeeting, VisibilityMode: cf.VisibilityMode,
		DisableNotificationsOwner: cf.DisableNotificationsOwner, DisableEmailAttachments: cf.DisableEmailAttachments,
		CCRecipients: orEmpty(cf.CCRecipients), SenderName: cf.SenderName, AccessControl: cf.AccessControl, Shared: cf.Shared,
		Signers: make([]signerJSON, 0, len(cf.Signers)), Documents: make([]documentJSON, 0, len(cf.Documents))}
	byID := make(map[int64]*Signer, len(cf.Signers))
	for _, sg := range cf.Signers {
		byID[sg.ID] = sg
		if sg.Status != sgNew {
			out.SignIteration = max(out.SignIteration, sg.SignOrder)
		}
		out.Signers = append(out.Signers, signerView(sg))
	}
	for _, d := range cf.Documents {
		dj := documentJSON{ID: d.ID, CaseFileID: cf.ID, DocumentID: d.DocumentID, DocumentOrder: d.DocumentOrder,
			Title: d.Title, MetaData: d.MetaData, Signable: d.Signable, Status: d.Status, FileSize: d.FileSize,
			Format: cmp.Or(d.Format, "pdf"), Created: unixOrZero(d.Created),
			SignatureLines: make([]signatureLineJSON, 0, len(d.Lines))}
		for _, l := range d.Lines {
			lj := signatureLineJSON{ID: l.ID, SignerID: l.SignerID, DocumentID: d.ID, Role: l.Role, SignOrder: l.SignOrder}
			if sg := byID[l.SignerID]; sg != nil {
				lj.ActivatedAt, lj.SignedAt = unixOrNil(sg.ActivatedAt), unixOrNil(sg.SignedAt)
			}
			dj.SignatureLines = append(dj.SignatureLines, lj)
		}
		out.Documents = append(out.Documents, dj)
	}
	return out
}

// signerView is the JSON of one signer.
func signerView(sg *Signer) signerJSON {
	t := sg.Texts
	return signerJSON{ID: sg.ID, Name: sg.Name, OnBehalfOf: sg.OnBehalfOf, SSNType: cmp.Or(sg.SSNType, "legacy"),
		VATIN: sg.VATIN, StoreAsContact: sg.StoreAsContact,
		SigningRequest: signingRequestJSON{ID: sg.RequestID, Status: sg.Status, Email: sg.Email,
			EmailSubject: t.RequestSubject, EmailText: t.RequestText, ReminderEmailSubject: t.ReminderSubject,
			ReminderEmailText: t.ReminderText, CompletedEmailSubject: t.CompletedSubject, CompletedEmailText: t.CompletedText,
			EmailFormat: cmp.Or(sg.EmailFormat, "text"), ReminderInterval: sg.ReminderInterval, AccessControl: sg.AccessControl,
			EnableInsecureSigning: sg.EnableInsecureSigning, InsecureSigningMethods: orEmpty(sg.InsecureSigningMethods),
			SecureSigningMethods: orEmpty(sg.SecureSigningMethods), Language: sg.Language,
			SuccessURL: sg.SuccessURL, FailURL: sg.FailURL, ActiveAt: unixOrNil(sg.ActiveAt), ExpireAt: unixOrNil(sg.ExpireAt),
			RejectReason: sg.RejectReason}}
}

// writeCaseFile answers 200 with a case file's JSON.
func (s *state) writeCaseFile(w http.ResponseWriter, id int64) error {
	s.cases.mu.RLock()
	cf := s.cases.files[id]
	if cf == nil {
		s.cases.mu.RUnlock()
		return wire.NotFound("no case file %d", id)
	}
	v := viewLocked(cf)
	s.cases.mu.RUnlock()
	wire.WriteJSON(w, http.StatusOK, v)
	return nil
}

// HandleGetCaseFile is GET {Sign}/api/v1/casefiles/{casefileId}, and the same
// under /api/v3
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
func (s *Service) HandleGetCaseFile(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "casefileId")
	if err != nil {
		return err
	}
	if _, err := s.cases.access(id, userFrom(r)); err != nil {
		return err
	}
	return s.writeCaseFile(w, id)
}

// docContent is a document's content as one request sees it.
type docContent struct {
	path   string // on disk, or
	Render func() ([]byte, error)
	signed bool
}

// documentFor answers the content of a document the user may read, named
// by its integer id or its string documentId: the signed PDF when
// wantSigned is not false and one exists, else the original. wantSigned
// true without a signed PDF is a 409.
func (s *state) documentFor(documentID string, u *user, wantSigned *bool) (docContent, error) {
	d := s.cases.Document(documentID)
	if d == nil {
		return docContent{}, wire.NotFound("no document %q", documentID)
	}
	if u != nil {
		if _, err := s.cases.access(d.CaseFileID, u); err != nil {
			return docContent{}, fmt.Errorf("document %q: %w", documentID, err)
		}
	}
	s.cases.mu.RLock()
	signedPath := d.signedPath
	s.cases.mu.RUnlock()
	switch {
	case wantSigned != nil && *wantSigned && signedPath == "":
		return docContent{}, wire.Conflict("document %q has no signed version yet", documentID)
	case (wantSigned == nil || *wantSigned) && signedPath != "":
		return docContent{path: signedPath, signed: true}, nil
	}
	return docContent{path: d.OrigPath, Render: d.Render}, nil
}

// HandleDocumentContent is GET {Sign}/api/v3/documents/{documentId}/content
// (and /api/v1/..., the Connector's path). The path segment is the document's
// integer id; a segment that is not all digits is read as the string documentId
// key, which older callers sent. Accept application/pdf (or none) → the PDF;
// application/json → {"content":"<base64>","signed":bool}; ?signed=false → the
// original
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Document content").
func (s *Service) HandleDocumentContent(w http.ResponseWriter, r *http.Request) error {
	var want *bool
	switch r.URL.Query().Get("signed") {
	case "":
	case "false", "0":
		want = new(bool)
	case "true", "1":
		t := true
		want = &t
	default:
		var p wire.Problems
		p.Add("signed", "must be true or false")
		return p.Err()
	}
	asJSON, err := acceptsJSON(r.Header.Get("Accept"))
	if err != nil {
		return err
	}
	c, err := s.documentFor(r.PathValue("documentId"), userFrom(r), want)
	if err != nil {
		return err
	}
	return writeDocument(w, c, asJSON)
}

// acceptsJSON reads the Accept header: JSON, PDF (also any or none), or a
// 406 for anything else.
func acceptsJSON(accept string) (bool, error) {
	if strings.TrimSpace(accept) == "" {
		return false, nil
	}
	for _, part := range strings.Split(accept, ",") {
		mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mt {
		case "application/json":
			return true, nil
		case "application/pdf", "*/*", "application/*":
			return false, nil
		}
	}
	return false, &wire.Error{Status: http.StatusNotAcceptable, Code: "not_acceptable",
		Message: "Accept must be application/pdf or application/json"}
}

// writeDocument streams a document as PDF bytes or as the JSON form with
// Base64 content, without holding a file in memory.
func writeDocument(w http.ResponseWriter, c docContent, asJSON bool) error {
	var src io.Reader
	var size int64 = -1
	if c.path != "" {
		f, err := os.Open(c.path)
		if err != nil {
			return fmt.Errorf("open document: %w", err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil {
			size = st.Size()
		}
		src = f
	} else {
		if c.Render == nil {
			return wire.NotFound("the document has no content")
		}
		b, err := c.Render()
		if err != nil {
			return fmt.Errorf("render document: %w", err)
		}
		src, size = strings.NewReader(string(b)), int64(len(b))
	}
	if !asJSON {
		w.Header().Set("Content-Type", "application/pdf")
		if size >= 0 {
			w.Header().Set("Content-Length", fmt.Sprint(size))
		}
		w.WriteHeader(http.StatusOK)
		_, _ = io.Copy(w, src)
		return nil
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"content":"`)
	enc := base64.NewEncoder(base64.StdEncoding, w)
	_, _ = io.Copy(enc, src)
	_ = enc.Close()
	_, _ = fmt.Fprintf(w, `","signed":%t}`+"\n", c.signed)
	return nil
}
