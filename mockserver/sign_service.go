package mockserver

import (
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
)

// caseFileJSON is a case file as the signing service shows it (DESIGN
// section 3). Times are UNIX seconds, 0 when not reached.
type caseFileJSON struct {
	ID         int64          `json:"id"`
	Title      string         `json:"title"`
	Status     int            `json:"status"`
	UserID     int64          `json:"userId"`
	CustomerID int64          `json:"customerId"`
	Created    int64          `json:"created"`
	Activated  int64          `json:"activated"`
	Updated    int64          `json:"updated"`
	Shared     bool           `json:"sharedFolder"`
	Signers    []signerJSON   `json:"signers"`
	Documents  []documentJSON `json:"documents"`
}

type signerJSON struct {
	ID             int64              `json:"id"`
	Name           string             `json:"name"`
	Role           string             `json:"role"`
	SignOrder      int                `json:"signOrder"`
	SigningRequest signingRequestJSON `json:"signingRequest"`
}

type signingRequestJSON struct {
	ID     int64  `json:"id"`
	Status int    `json:"status"`
	Email  string `json:"email"`
}

type documentJSON struct {
	ID         int64  `json:"id"`
	DocumentID string `json:"documentId"`
	Title      string `json:"title"`
	Signable   bool   `json:"signable"`
	Status     int    `json:"status"`
	FileSize   int64  `json:"fileSize"`
	Format     string `json:"format"`
}

func unixOrZero(cf *caseFile, which byte) int64 {
	t := cf.Created
	switch which {
	case 'a':
		t = cf.Activated
	case 'u':
		t = cf.Updated
	}
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// viewLocked answers the JSON of a case file; call with s.cases.mu held.
func viewLocked(cf *caseFile) caseFileJSON {
	out := caseFileJSON{ID: cf.ID, Title: cf.Title, Status: cf.Status, UserID: cf.UserID, CustomerID: cf.CustomerID,
		Created: unixOrZero(cf, 'c'), Activated: unixOrZero(cf, 'a'), Updated: unixOrZero(cf, 'u'), Shared: cf.Shared,
		Signers: []signerJSON{}, Documents: []documentJSON{}}
	for _, sg := range cf.Signers {
		out.Signers = append(out.Signers, signerJSON{ID: sg.ID, Name: sg.Name, Role: sg.Role, SignOrder: sg.SignOrder,
			SigningRequest: signingRequestJSON{ID: sg.RequestID, Status: sg.Status, Email: sg.Email}})
	}
	for _, d := range cf.Documents {
		out.Documents = append(out.Documents, documentJSON{ID: d.ID, DocumentID: d.DocumentID, Title: d.Title,
			Signable: d.Signable, Status: d.Status, FileSize: d.FileSize, Format: cmpOr(d.Format, "pdf")})
	}
	return out
}

// writeCaseFile answers 200 with a case file's JSON.
func (s *Server) writeCaseFile(w http.ResponseWriter, id int64) error {
	s.cases.mu.RLock()
	cf := s.cases.files[id]
	if cf == nil {
		s.cases.mu.RUnlock()
		return errNotFound("no case file %d", id)
	}
	v := viewLocked(cf)
	s.cases.mu.RUnlock()
	writeJSON(w, http.StatusOK, v)
	return nil
}

// handleGetCaseFile is GET {Sign}/api/v1/casefiles/{casefileId}.
func (s *Server) handleGetCaseFile(w http.ResponseWriter, r *http.Request) error {
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
	render func() ([]byte, error)
	signed bool
}

// documentFor answers the content of a document the user may read: the
// signed PDF when wantSigned is not false and one exists, else the original.
// wantSigned true without a signed PDF is a 409.
func (s *Server) documentFor(documentID string, u *user, wantSigned *bool) (docContent, error) {
	s.cases.mu.RLock()
	d := s.cases.docs[documentID]
	s.cases.mu.RUnlock()
	if d == nil {
		return docContent{}, errNotFound("no document %q", documentID)
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
		return docContent{}, errConflict("document %q has no signed version yet", documentID)
	case (wantSigned == nil || *wantSigned) && signedPath != "":
		return docContent{path: signedPath, signed: true}, nil
	}
	return docContent{path: d.origPath, render: d.render}, nil
}

// handleDocumentContent is GET {Sign}/api/v3/documents/{documentId}/content:
// Accept application/pdf (or none) → the PDF; application/json →
// {"content":"<base64>","signed":bool}; ?signed=false → the original.
func (s *Server) handleDocumentContent(w http.ResponseWriter, r *http.Request) error {
	var want *bool
	switch r.URL.Query().Get("signed") {
	case "":
	case "false", "0":
		want = new(bool)
	case "true", "1":
		t := true
		want = &t
	default:
		var p problems
		p.add("signed", "must be true or false")
		return p.err()
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
	return false, &apiError{Status: http.StatusNotAcceptable, Code: "not_acceptable",
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
		if c.render == nil {
			return errNotFound("the document has no content")
		}
		b, err := c.render()
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
