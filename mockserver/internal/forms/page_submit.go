package forms

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// maxValueBytes bounds one text answer of a public form.
const maxValueBytes = 64 << 10

// HandlePublicSubmit accepts a submission of the public page: multipart
// (or URL-encoded) inputs named by field name (<field>[i] in instance i of a
// multi-entry section, repeated <field>[] for a multi-entry field). JSON clients get 201
// {"submissionId","casefileId"} or 422 details; browsers get a thank-you page
// or the form again with the problems.
func (s *Service) HandlePublicSubmit(w http.ResponseWriter, r *http.Request) error {
	id, reqID := r.PathValue("externalId"), r.PathValue("requestId")
	in, err := s.readSubmission(w, r)
	if err != nil {
		return s.publicError(w, r, err)
	}
	sub, err := s.submit(id, reqID, in)
	var ae *wire.Error
	switch {
	case err == nil && wire.WantsJSON(r):
		wire.WriteJSON(w, http.StatusCreated, map[string]int64{"submissionId": sub.id, "casefileId": sub.caseFileID})
		return nil
	case err == nil:
		return s.renderThanks(w, r, sub)
	case wire.WantsJSON(r) || !errors.As(err, &ae) || ae.Status != http.StatusUnprocessableEntity:
		return s.publicError(w, r, err)
	}
	_, v, pf, ferr := s.forms.publicForm(id, reqID)
	if ferr != nil {
		return s.publicError(w, r, ferr)
	}
	return renderPage(w, http.StatusUnprocessableEntity, formPage, buildPage(v, pf, in, ae.Details, r.URL.Path))
}

// thanksData fills the thank-you page.
type thanksData struct {
	Lang, Title              string
	T                        *pages.Text
	SubmissionID, CaseFileID int64
	Links                    []signing.SignerLink // the signers' signing links, as their emails hold them
}

// renderThanks writes the thank-you page of a submission, in the language
// of the version that took it.
func (s *Service) renderThanks(w http.ResponseWriter, r *http.Request, sub *submission) error {
	code, t := pages.Language(sub.version.language)
	data := thanksData{Lang: code, Title: t.ThanksTitle, T: t, SubmissionID: sub.id, CaseFileID: sub.caseFileID}
	for _, l := range s.cfg.CaseFiles.SignerLinks(sub.caseFileID, wire.BaseURL(r)) {
		if l.URL != "" {
			data.Links = append(data.Links, l)
		}
	}
	return renderPage(w, http.StatusCreated, thanksPage, data)
}

// readSubmission reads the posted answers, bounded by the body limit; a
// file over the file limit is marked, not kept.
func (s *Service) readSubmission(w http.ResponseWriter, r *http.Request) (*submissionInput, error) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	in := &submissionInput{values: map[string]string{}, all: map[string][]string{}, files: map[string]*upload{}}
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch mt {
	case "multipart/form-data":
		mr, err := r.MultipartReader()
		if err != nil {
			return nil, wire.BadRequest("malformed multipart body: %v", err)
		}
		if err := s.readParts(mr, in); err != nil {
			return nil, bodyError(err, s.cfg.MaxBodyBytes)
		}
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return nil, bodyError(err, s.cfg.MaxBodyBytes)
		}
		for k, vs := range r.PostForm {
			in.values[k], in.all[k] = vs[0], vs
		}
	default:
		return nil, wire.BadRequest("the body must be multipart/form-data (or application/x-www-form-urlencoded)")
	}
	return in, nil
}

// readParts reads every part: file parts into uploads, the others into values.
func (s *Service) readParts(mr *multipart.Reader, in *submissionInput) error {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read part: %w", err)
		}
		name := part.FormName()
		if part.FileName() != "" {
			up, err := readUpload(part, s.cfg.MaxFileBytes)
			if err != nil {
				return err
			}
			if _, dup := in.files[name]; !dup {
				in.files[name] = up
			}
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, maxValueBytes+1))
		if err != nil {
			return fmt.Errorf("read value %q: %w", name, err)
		}
		if len(b) > maxValueBytes {
			return wire.Validation([]wire.FieldError{{Field: name, Message: fmt.Sprintf("exceeds %d bytes", maxValueBytes)}})
		}
		if name == "" {
			continue
		}
		if _, dup := in.values[name]; !dup {
			in.values[name] = string(b)
		}
		in.all[name] = append(in.all[name], string(b)) // repeated <field>[] of a multi-entry field
	}
}

// readUpload reads a file part up to limit bytes; a larger file is drained
// and marked tooLarge.
func readUpload(part *multipart.Part, limit int64) (*upload, error) {
	up := &upload{filename: part.FileName(), contentType: part.Header.Get("Content-Type")}
	data, err := io.ReadAll(io.LimitReader(part, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read file %q: %w", up.filename, err)
	}
	up.size = int64(len(data))
	if up.size > limit {
		n, err := io.Copy(io.Discard, part)
		if err != nil {
			return nil, fmt.Errorf("read file %q: %w", up.filename, err)
		}
		up.size += n
		up.tooLarge, data = true, nil
	}
	up.data = data
	if i := strings.LastIndexAny(up.filename, `/\`); i >= 0 {
		up.filename = up.filename[i+1:]
	}
	return up, nil
}

// bodyError maps a body read failure to 413 (too large), a passed-through
// wire.Error, or 400.
func bodyError(err error, limit int64) error {
	var tooLarge *http.MaxBytesError
	var ae *wire.Error
	switch {
	case errors.As(err, &tooLarge):
		return wire.TooLarge(limit)
	case errors.As(err, &ae):
		return ae
	}
	return wire.BadRequest("malformed body: %v", err)
}
