package mockserver

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// submissionInput is what one public-page submission carries.
type submissionInput struct {
	values map[string]string  // text answers by field name, as posted
	files  map[string]*upload // FILE answers by field name
}

// upload is a file posted through a FILE field. tooLarge is set (and data
// dropped) when it exceeded the file size limit.
type upload struct {
	filename    string
	contentType string
	data        []byte
	size        int64
	tooLarge    bool
}

// submit validates a submission of a form's live version (with a prefilled
// request when requestID is set), stores it and creates its case file. Ids
// are taken only once nothing can fail any more, so they stay gapless.
func (s *Server) submit(externalID, requestID string, in *submissionInput) (*submission, error) {
	fm, v, pf, err := s.forms.publicForm(externalID, requestID)
	if err != nil {
		return nil, err
	}
	values, p := validateSubmission(v, pf, in, s.cfg.maxFileBytes)
	if len(p) > 0 {
		return nil, p.err()
	}
	sub := &submission{version: v, values: values}
	cf := buildCaseFile(fm, sub, in.files)
	s.forms.mu.Lock()
	defer s.forms.mu.Unlock()
	if fm.status != stateActive {
		return nil, errNotFound("form %q is %s and accepts no submissions", externalID, fm.status)
	}
	sub.completedAt = s.Now()
	cf.Created, cf.Updated = sub.completedAt, sub.completedAt
	s.cases.add(cf)
	sub.id, sub.caseFileID = s.forms.nextSub, cf.ID
	s.forms.nextSub++
	fm.subs = append(fm.subs, sub)
	return sub, nil
}

// validateSubmission answers the values by input field (hidden fields
// cleared) or one problem per field.
func validateSubmission(v *formVersion, pf *prefill, in *submissionInput, maxFile int64) ([]string, problems) {
	var p problems
	values := make([]string, len(v.inputs))
	for i, f := range v.inputs {
		name := f.def.Name
		if f.def.Type == typeFile {
			if up := in.files[name]; up != nil && up.filename != "" {
				values[i] = up.filename
			}
			continue
		}
		posted, sent := in.values[name]
		values[i] = strings.TrimSpace(posted)
		if pa, ok := prefilledLocked(pf, name); ok {
			if sent && values[i] != pa {
				p.add(name, "is locked to its prefilled value and cannot be changed")
			}
			values[i] = pa
		}
	}
	visible, _ := v.visibility(values)
	for i, f := range v.inputs {
		if !visible[i] {
			values[i] = ""
			continue
		}
		if up := in.files[f.def.Name]; f.def.Type == typeFile && up != nil && up.tooLarge {
			p.add(f.def.Name, "file exceeds the limit of %d bytes", maxFile)
			continue
		}
		if values[i] == "" {
			if f.def.Required {
				p.add(f.def.Name, "is required")
			}
			continue
		}
		if msg := checkValue(f.def, values[i]); msg != "" {
			p.add(f.def.Name, "%s", msg)
		}
	}
	return values, p
}

// prefilledLocked answers the prefilled value of a locked field.
func prefilledLocked(pf *prefill, name string) (string, bool) {
	if pf == nil {
		return "", false
	}
	pa, ok := pf.values[name]
	if !ok || pa.Editable {
		return "", false
	}
	return pa.Value, true
}

// buildCaseFile makes the case file of a submission: title from the
// template, the primary signer from the mapTo fields, the answers PDF and
// the uploaded files of visible FILE fields as attachments.
func buildCaseFile(fm *form, sub *submission, files map[string]*upload) *caseFile {
	v := sub.version
	var name, email string
	for i, f := range v.inputs {
		switch f.def.MapTo {
		case mapSignerName:
			name = sub.values[i]
		case mapSignerEmail:
			email = sub.values[i]
		}
	}
	title := v.titleTemplate
	if title == "" {
		title = "{{formName}}"
	}
	title = replaceMergeFields(title, func(m string) string {
		return map[string]string{"formName": v.name, mapSignerName: name, mapSignerEmail: email}[m]
	})
	cf := &caseFile{Title: title, UserID: fm.ownerID, CustomerID: fm.customerID}
	if name != "" || email != "" {
		cf.Signers = []*signer{{Name: cmpOr(name, email), Email: email}}
	}
	cf.Documents = []*document{{Title: "Answers: " + cmpOr(v.name, "form"), Signable: true, Format: "pdf",
		render: func() ([]byte, error) { return renderAnswersPDF(title, fm.externalID, sub) }}}
	for i, f := range v.inputs {
		if up := files[f.def.Name]; f.def.Type == typeFile && up != nil && sub.values[i] != "" {
			cf.Attachments = append(cf.Attachments, &attachment{Filename: up.filename,
				ContentType: cmpOr(up.contentType, "application/octet-stream"), Data: up.data})
		}
	}
	return cf
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// answersJSON is the wire shape of GET .../answers.
type answersJSON struct {
	SubmissionID int64               `json:"submissionId"`
	ExternalID   string              `json:"externalId"`
	Version      int                 `json:"version"`
	Sections     []answerSectionJSON `json:"sections"`
}

type answerSectionJSON struct {
	Slug    string       `json:"slug"`
	Title   string       `json:"title"`
	Answers []answerJSON `json:"answers"`
}

type answerJSON struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// answers lays out the answers of the visible fields by visible section.
func (sub *submission) answers(externalID string) answersJSON {
	v := sub.version
	visible, secVisible := v.visibility(sub.values)
	out := answersJSON{SubmissionID: sub.id, ExternalID: externalID, Version: v.number, Sections: []answerSectionJSON{}}
	for si, sec := range v.sections {
		if !secVisible[si] {
			continue
		}
		as := answerSectionJSON{Slug: sec.Slug, Title: sec.Title, Answers: []answerJSON{}}
		for i, f := range v.inputs {
			if f.section == si && visible[i] {
				as.Answers = append(as.Answers, answerJSON{Name: f.def.Name, Label: f.def.Label, Type: f.def.Type, Value: sub.values[i]})
			}
		}
		out.Sections = append(out.Sections, as)
	}
	return out
}

func (s *Server) handleAnswers(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("externalId")
	subID, perr := strconv.ParseInt(r.PathValue("submissionId"), 10, 64)
	s.forms.mu.Lock()
	fm, err := s.forms.get(id, userFrom(r))
	var sub *submission
	if err == nil && perr == nil {
		sub = findSubmission(fm.subs, subID)
	}
	s.forms.mu.Unlock()
	if err != nil {
		return err
	}
	if sub == nil {
		return errNotFound("no submission %q of form %q", r.PathValue("submissionId"), id)
	}
	writeJSON(w, http.StatusOK, sub.answers(id))
	return nil
}

// caseFileFor answers the case file named by the path, if the caller may see it.
func (s *Server) caseFileFor(r *http.Request) (*caseFile, error) {
	id, err := strconv.ParseInt(r.PathValue("casefileId"), 10, 64)
	if err != nil {
		return nil, errNotFound("no case file %q", r.PathValue("casefileId"))
	}
	return s.cases.access(id, userFrom(r))
}

type fileJSON struct {
	Filename    string `json:"filename"`
	Size        int64  `json:"size"`
	ContentType string `json:"contentType"`
	URL         string `json:"url"`
}

func (s *Server) handleListFiles(w http.ResponseWriter, r *http.Request) error {
	cf, err := s.caseFileFor(r)
	if err != nil {
		return err
	}
	out := []fileJSON{}
	for _, a := range cf.Attachments {
		out = append(out, fileJSON{Filename: a.Filename, Size: int64(len(a.Data)), ContentType: a.ContentType,
			URL: fmt.Sprintf("%s%s/v1/casefiles/%d/files/%d", baseURLOf(r), svcForms.prefix(), cf.ID, a.ID)})
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleDownloadFile(w http.ResponseWriter, r *http.Request) error {
	cf, err := s.caseFileFor(r)
	if err != nil {
		return err
	}
	for _, a := range cf.Attachments {
		if strconv.FormatInt(a.ID, 10) == r.PathValue("fileId") {
			w.Header().Set("Content-Type", a.ContentType)
			w.Header().Set("Content-Length", strconv.Itoa(len(a.Data)))
			w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", a.Filename))
			_, _ = w.Write(a.Data)
			return nil
		}
	}
	return errNotFound("no file %q in case file %d", r.PathValue("fileId"), cf.ID)
}
