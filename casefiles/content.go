package casefiles

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/signkit/signkit-go/internal/transport"
)

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

// contentRequest builds the document content request for accept: GET
// {Sign}/api/v3/documents/{id}/content with the document's integer id
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// Document ids).
func (c *Client) contentRequest(documentID int64, accept string, opts []DocumentOption) (*transport.Request, error) {
	if documentID <= 0 {
		return nil, invalid("request", Problem{Field: "documentID", Message: "must be positive (DocumentDetails.ID)"})
	}
	var o documentOptions
	for _, opt := range opts {
		opt(&o)
	}
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    transport.JoinURL(c.sign(), "api", "v3", "documents", strconv.FormatInt(documentID, 10), "content"),
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
// original. documentID is the document's integer id, DocumentDetails.ID.
func (c *Client) DownloadDocument(ctx context.Context, documentID int64, w io.Writer, opts ...DocumentOption) (int64, error) {
	req, err := c.contentRequest(documentID, "application/pdf", opts)
	if err != nil {
		return 0, err
	}
	n, err := c.t().Download(ctx, req, w)
	if err != nil {
		return n, fmt.Errorf("casefiles: download document %d: %w", documentID, err)
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
// application/json), with the PDF decoded from base64. documentID is the
// document's integer id, DocumentDetails.ID. Use DownloadDocument for large
// documents: this call holds the whole PDF in memory, twice while decoding.
func (c *Client) DocumentContent(ctx context.Context, documentID int64, opts ...DocumentOption) (*DocumentContent, error) {
	req, err := c.contentRequest(documentID, "application/json", opts)
	if err != nil {
		return nil, err
	}
	var out DocumentContent
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("casefiles: document content %d: %w", documentID, err)
	}
	return &out, nil
}
