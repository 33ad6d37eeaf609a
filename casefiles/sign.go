package casefiles

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/signkit/signkit-go/internal/transport"
)

// wireCaseFile is the signing service's case file. The decoders are
// tolerant: a signer's email and status are read from its signing request,
// or from the signer itself when the request is absent.
type wireCaseFile struct {
	ID      int64          `json:"id"`
	Title   string         `json:"title"`
	Status  CaseFileStatus `json:"status"`
	Signers []struct {
		ID             int64        `json:"id"`
		Name           string       `json:"name"`
		Role           string       `json:"role"`
		SignOrder      int          `json:"signOrder"`
		Email          string       `json:"email"`
		Status         SignerStatus `json:"status"`
		SigningRequest *struct {
			Status SignerStatus `json:"status"`
			Email  string       `json:"email"`
		} `json:"signingRequest"`
	} `json:"signers"`
	Documents []struct {
		ID         int64     `json:"id"`
		DocumentID string    `json:"documentId"`
		Title      string    `json:"title"`
		Signable   *flexBool `json:"signable"`
		FileSize   int64     `json:"fileSize"`
	} `json:"documents"`
}

// flexBool decodes true, false, 1, 0, "true" and "false".
type flexBool bool

// UnmarshalJSON implements json.Unmarshaler.
func (b *flexBool) UnmarshalJSON(data []byte) error {
	v, err := strconv.ParseBool(string(bytes.Trim(data, `"`)))
	if err != nil {
		return fmt.Errorf("casefiles: %s is not a boolean", data)
	}
	*b = flexBool(v)
	return nil
}

// Get returns the details of a case file from the signing service: its
// status, its signers with the status of their signing requests, and its
// documents with the DocumentID that DownloadDocument takes.
func (c *Client) Get(ctx context.Context, caseFileID int64) (*Details, error) {
	if caseFileID <= 0 {
		return nil, invalid("request", Problem{Field: "caseFileID", Message: "must be positive"})
	}
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    transport.JoinURL(c.sign, "api", "v1", "casefiles", strconv.FormatInt(caseFileID, 10)),
		Auth:   transport.Bearer,
	}
	var w wireCaseFile
	if err := c.t.Do(ctx, req, &w); err != nil {
		return nil, fmt.Errorf("casefiles: get case file %d: %w", caseFileID, err)
	}
	return w.details(), nil
}

func (w *wireCaseFile) details() *Details {
	d := &Details{ID: w.ID, Title: w.Title, Status: w.Status}
	for _, s := range w.Signers {
		sd := SignerDetails{ID: s.ID, Name: s.Name, Role: s.Role, Email: s.Email, SignOrder: s.SignOrder, Status: s.Status}
		if r := s.SigningRequest; r != nil {
			sd.Status = r.Status
			if r.Email != "" {
				sd.Email = r.Email
			}
		}
		d.Signers = append(d.Signers, sd)
	}
	for _, doc := range w.Documents {
		d.Documents = append(d.Documents, DocumentDetails{
			ID: doc.ID, DocumentID: doc.DocumentID, Title: doc.Title,
			Signable: doc.Signable == nil || bool(*doc.Signable), FileSize: doc.FileSize,
		})
	}
	return d
}

// DocumentOption changes which content of a document is fetched.
type DocumentOption func(*documentOptions)

type documentOptions struct {
	original bool
}

// Original fetches the unsigned original document (signed=false) instead
// of the signed one.
func Original() DocumentOption {
	return func(o *documentOptions) { o.original = true }
}

// contentQuery is the query of the document content call.
type contentQuery struct {
	Signed *bool `url:"signed,omitempty"`
}

// contentRequest builds the document content request for accept.
func (c *Client) contentRequest(documentID, accept string, opts []DocumentOption) (*transport.Request, error) {
	if documentID == "" {
		return nil, invalid("request", Problem{Field: "documentID", Message: "is empty"})
	}
	var o documentOptions
	for _, opt := range opts {
		opt(&o)
	}
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    transport.JoinURL(c.sign, "api", "v3", "documents", documentID, "content"),
		Auth:   transport.Bearer,
		Accept: accept,
	}
	if o.original {
		req.Query = contentQuery{Signed: Bool(false)}
	}
	return req, nil
}

// DownloadDocument streams the PDF of a document into w and returns the
// number of bytes written: the signed PDF once the case file is completed
// (with a page listing who signed and when), or with Original the unsigned
// original. documentID is DocumentDetails.DocumentID.
func (c *Client) DownloadDocument(ctx context.Context, documentID string, w io.Writer, opts ...DocumentOption) (int64, error) {
	req, err := c.contentRequest(documentID, "application/pdf", opts)
	if err != nil {
		return 0, err
	}
	n, err := c.t.Download(ctx, req, w)
	if err != nil {
		return n, fmt.Errorf("casefiles: download document %s: %w", documentID, err)
	}
	return n, nil
}

// DocumentContent is the JSON representation of a document's content.
type DocumentContent struct {
	// Content is the PDF, decoded from the answer's base64.
	Content []byte `json:"content"`
	// Signed says whether Content is the signed PDF.
	Signed bool `json:"signed"`
}

// DocumentContent fetches a document's content as JSON (Accept:
// application/json), with the PDF decoded from base64. Use
// DownloadDocument for large documents: this call holds the whole PDF in
// memory, twice while decoding.
func (c *Client) DocumentContent(ctx context.Context, documentID string, opts ...DocumentOption) (*DocumentContent, error) {
	req, err := c.contentRequest(documentID, "application/json", opts)
	if err != nil {
		return nil, err
	}
	var out DocumentContent
	if err := c.t.Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("casefiles: document content %s: %w", documentID, err)
	}
	return &out, nil
}

// ensure json is used for the flexBool decoder's interface.
var _ json.Unmarshaler = (*flexBool)(nil)
