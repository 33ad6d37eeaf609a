package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"sort"
)

// FormSubmission is what a person enters on a form's public page, as
// SubmitForm posts it.
type FormSubmission struct {
	// RequestID, when set, submits the page of a prefilled request
	// (forms.PrefillLink.RequestID) instead of the form's public page.
	RequestID string
	// Values are the page's inputs by name: a field's name; in a multi-entry
	// section "<field>[i]" for instance i (from 0); for a multi-entry field
	// "<field>[]", with one value per entry
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
	Values url.Values
	// Files are the files of FILE fields.
	Files []FormFile
}

// FormFile is a file chosen for a FILE field.
type FormFile struct {
	// Field is the FILE field's name: the file part is named after it, as
	// a browser names it.
	Field string
	// Filename is the file's name; ContentType its type (empty:
	// application/octet-stream).
	Filename, ContentType string
	// Content is the file.
	Content []byte
}

// Submitted identifies an accepted submission and the case file it
// created.
type Submitted struct {
	SubmissionID int64
	CaseFileID   int64
}

// SubmitForm submits a form's public page as a person's browser does: a
// multipart/form-data POST of sub's values and files to the page's own URL,
// here in process. The form must be published. It answers the submission
// and its case file, which is created and activated before it returns. A
// submission the page refuses is a *signkit.Error matching
// signkit.ErrValidation whose Details are the page's field errors; an
// unknown form or request matches signkit.ErrNotFound.
func (s *Server) SubmitForm(ctx context.Context, externalID string, sub *FormSubmission) (*Submitted, error) {
	if sub == nil {
		sub = &FormSubmission{}
	}
	path := "/public/forms/" + url.PathEscape(externalID)
	if sub.RequestID != "" {
		path += "/requests/" + url.PathEscape(sub.RequestID)
	}
	body, contentType, err := sub.encode()
	if err != nil {
		return nil, fmt.Errorf("mockserver: submit form %s: %w", externalID, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+path, body)
	if err != nil {
		return nil, fmt.Errorf("mockserver: submit form %s: %w", externalID, err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json") // the page's answer as JSON: the ids, or the field errors
	resp, err := s.Transport().RoundTrip(req)
	if err != nil {
		return nil, fmt.Errorf("mockserver: submit form %s: %w", externalID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("mockserver: submit form %s: %w", externalID, answerError(req, resp))
	}
	var out struct {
		SubmissionID int64 `json:"submissionId"`
		CaseFileID   int64 `json:"casefileId"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("mockserver: submit form %s: decoding the answer: %w", externalID, err)
	}
	return &Submitted{SubmissionID: out.SubmissionID, CaseFileID: out.CaseFileID}, nil
}

// encode writes the submission as a browser's multipart/form-data body:
// the values in name order, then the files.
func (sub *FormSubmission) encode() (*bytes.Buffer, string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	names := make([]string, 0, len(sub.Values))
	for name := range sub.Values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range sub.Values[name] {
			if err := mw.WriteField(name, v); err != nil {
				return nil, "", err
			}
		}
	}
	for _, f := range sub.Files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", multipart.FileContentDisposition(f.Field, f.Filename))
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		w, err := mw.CreatePart(h)
		if err != nil {
			return nil, "", err
		}
		if _, err := w.Write(f.Content); err != nil {
			return nil, "", err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return &buf, mw.FormDataContentType(), nil
}
