package forms

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// submissionInput is what one public-page submission carries.
type submissionInput struct {
	values map[string]string   // text answers by posted name: the first value of each
	all    map[string][]string // every text value by posted name, in order (may be nil)
	files  map[string]*upload  // FILE answers by posted name
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
func (s *Service) submit(externalID, requestID string, in *submissionInput) (*submission, error) {
	fm, v, pf, err := s.forms.publicForm(externalID, requestID)
	if err != nil {
		return nil, err
	}
	cs, p := validateSubmission(v, pf, in, s.cfg.MaxFileBytes)
	if len(p) > 0 {
		return nil, p.Err()
	}
	sub := &submission{version: v, requestID: requestID, answerSet: cs.answerSet}
	cf := buildCaseFile(fm, sub, cs.uploads)
	s.forms.mu.Lock()
	defer s.forms.mu.Unlock()
	if fm.status != stateActive {
		return nil, wire.NotFound("form %q is %s and accepts no submissions", externalID, fm.status)
	}
	if err := s.cfg.Limits.TakeSubmission(fm.customerID); err != nil {
		return nil, err
	}
	sub.completedAt = s.Now()
	if n := len(fm.subs); n > 0 && sub.completedAt.Before(fm.subs[n-1].completedAt) {
		// Keep subs ordered by completion too: listing searches it.
		sub.completedAt = fm.subs[n-1].completedAt
	}
	cf.Created, cf.Updated = sub.completedAt, sub.completedAt
	s.cfg.CaseFiles.Add(cf)
	sub.id, sub.caseFileID = s.forms.nextSub, cf.ID
	s.forms.nextSub++
	fm.subs = append(fm.subs, sub)
	if pf != nil {
		pf.sub = sub
	}
	return sub, nil
}

// primarySigner answers the answers of the fields mapped to the primary
// signer. A mapped field of a multi-entry section (or a multi-entry field)
// gives its first instance's (first) answer: the person filling the form is
// one signer, and the first entry is the one they start with.
func (sub *submission) primarySigner() (name, email string) {
	for i, f := range sub.version.inputs {
		switch f.def.MapTo {
		case mapSignerName:
			name = sub.values[i]
		case mapSignerEmail:
			email = sub.values[i]
		}
	}
	return name, email
}

// buildCaseFile makes the case file of a submission: title from the
// template, the primary signer from the mapTo fields, the answers PDF and
// the uploaded files of visible FILE fields (every instance) as attachments.
func buildCaseFile(fm *form, sub *submission, uploads [][]*upload) *signing.CaseFile {
	v := sub.version
	name, email := sub.primarySigner()
	title := v.titleTemplate
	if title == "" {
		title = "{{formName}}"
	}
	title = replaceMergeFields(title, func(m string) string {
		return map[string]string{"formName": v.name, mapSignerName: name, mapSignerEmail: email}[m]
	})
	cf := &signing.CaseFile{Title: title, UserID: fm.ownerID, CustomerID: fm.customerID, Language: v.language} // its pages speak the form's language
	if name != "" || email != "" {
		cf.Signers = []*signing.Signer{{Name: cmpOr(name, email), Email: email}}
	}
	cf.Documents = []*signing.Document{{Title: "Answers: " + cmpOr(v.name, "form"), Signable: true, Format: "pdf",
		Render: func() ([]byte, error) { return renderAnswersPDF(title, fm.externalID, sub) }}}
	for i, f := range v.inputs {
		if f.def.Type != typeFile || i >= len(uploads) {
			continue
		}
		for _, up := range uploads[i] {
			if up != nil {
				cf.Attachments = append(cf.Attachments, &signing.Attachment{Filename: up.filename,
					ContentType: cmpOr(up.contentType, "application/octet-stream"), Data: up.data})
			}
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

// answersJSON is the wire shape of GET .../answers
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1):
// the id under both names, the respondents (the primary signer from the mapped
// fields, when there is one), and the visible sections.
type answersJSON struct {
	SubmissionID int64               `json:"submissionId"`
	FormID       string              `json:"formId"`
	ExternalID   string              `json:"externalId"`
	Version      int                 `json:"version"`
	Respondents  []respondentJSON    `json:"respondents"`
	Sections     []answerSectionJSON `json:"sections"`
}

// respondentJSON is a person who answered the form.
type respondentJSON struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
}

// answerSectionJSON is one section of the answers: answers without
// multipleEntries, instances with it.
type answerSectionJSON struct {
	Slug            string         `json:"slug"`
	Title           string         `json:"title"`
	MultipleEntries bool           `json:"multipleEntries"`
	Answers         []answerJSON   `json:"answers,omitzero"`
	Instances       []instanceJSON `json:"instances,omitzero"`
}

// instanceJSON is one instance of a multi-entry section.
type instanceJSON struct {
	Answers []answerJSON `json:"answers"`
}

// answerJSON is one answer: value, or values for a multi-entry field.
type answerJSON struct {
	Name   string   `json:"name"`
	Label  string   `json:"label"`
	Type   string   `json:"type"`
	Value  string   `json:"value"`
	Values []string `json:"values"`
	multi  bool
}

// MarshalJSON writes value, or values for a multi-entry field.
func (a answerJSON) MarshalJSON() ([]byte, error) {
	type head struct {
		Name  string `json:"name"`
		Label string `json:"label"`
		Type  string `json:"type"`
	}
	h := head{Name: a.Name, Label: a.Label, Type: a.Type}
	if a.multi {
		vals := a.Values
		if vals == nil {
			vals = []string{}
		}
		return json.Marshal(struct {
			head
			Values []string `json:"values"`
		}{h, vals})
	}
	return json.Marshal(struct {
		head
		Value string `json:"value"`
	}{h, a.Value})
}

// fieldTypeRef refers to the component schema of fieldType (APIShapes).
var fieldTypeRef = map[string]any{"$ref": "#/components/schemas/FieldType"}

// OpenAPISchema says what MarshalJSON writes, for the mock's OpenAPI
// description: name, label and type, with value (a string) or, for a
// multi-entry field, values (strings), never both.
func (answerJSON) OpenAPISchema() map[string]any {
	str := map[string]any{"type": "string"}
	one := func(key string, schema map[string]any) map[string]any {
		return map[string]any{"type": "object", "additionalProperties": false,
			"required":   []string{"name", "label", "type", key},
			"properties": map[string]any{"name": str, "label": str, "type": fieldTypeRef, key: schema}}
	}
	return map[string]any{"oneOf": []any{one("value", str),
		one("values", map[string]any{"type": "array", "items": str})}}
}

// answers lays out the answers of the visible fields by visible section.
func (sub *submission) answers(externalID string) answersJSON {
	v := sub.version
	visible, secVisible := v.visibility(sub.values)
	out := answersJSON{SubmissionID: sub.id, FormID: externalID, ExternalID: externalID, Version: v.number,
		Respondents: []respondentJSON{}, Sections: []answerSectionJSON{}}
	if name, email := sub.primarySigner(); name != "" || email != "" {
		out.Respondents = append(out.Respondents, respondentJSON{Name: name, Email: email})
	}
	for si, sec := range v.sections {
		if !secVisible[si] {
			continue
		}
		as := answerSectionJSON{Slug: sec.Slug, Title: sec.Title, MultipleEntries: sec.MultipleEntries != nil}
		if !as.MultipleEntries {
			as.Answers = sub.sectionAnswers(si, visible, -1)
		} else {
			as.Instances = []instanceJSON{}
			for k := range sub.counts[si] {
				as.Instances = append(as.Instances, instanceJSON{Answers: sub.sectionAnswers(si, visible, k)})
			}
		}
		out.Sections = append(out.Sections, as)
	}
	return out
}

// sectionAnswers answers the visible answers of section si, of instance k
// (k < 0: a section without multipleEntries).
func (sub *submission) sectionAnswers(si int, visible []bool, k int) []answerJSON {
	out := []answerJSON{}
	for i, f := range sub.version.inputs {
		if f.section != si || !visible[i] {
			continue
		}
		a := answerJSON{Name: f.def.Name, Label: f.def.Label, Type: string(f.def.Type), Value: sub.values[i]}
		switch {
		case k >= 0 && k < len(sub.lists[i]):
			a.Value = sub.lists[i][k]
		case f.def.MultipleEntries != nil:
			a.multi, a.Values = true, sub.lists[i]
		}
		out = append(out, a)
	}
	return out
}

// HandleAnswers is GET {Forms}/v1/forms/{externalId}/submissions/{submissionId}/answers.
func (s *Service) HandleAnswers(w http.ResponseWriter, r *http.Request) error {
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
		return wire.NotFound("no submission %q of form %q", r.PathValue("submissionId"), id)
	}
	wire.WriteJSON(w, http.StatusOK, sub.answers(id))
	return nil
}

// caseFileFor answers the case file named by the path, if the caller may see it.
func (s *Service) caseFileFor(r *http.Request) (*signing.CaseFile, error) {
	id, err := strconv.ParseInt(r.PathValue("casefileId"), 10, 64)
	if err != nil {
		return nil, wire.NotFound("no case file %q", r.PathValue("casefileId"))
	}
	return s.cfg.CaseFiles.Access(id, userFrom(r))
}

type fileJSON struct {
	Filename    string `json:"filename"`
	Size        int64  `json:"size"`
	ContentType string `json:"contentType"`
	URL         string `json:"url"`
}

// HandleListFiles is GET {Forms}/v1/casefiles/{casefileId}/files: a submission's uploaded files.
func (s *Service) HandleListFiles(w http.ResponseWriter, r *http.Request) error {
	cf, err := s.caseFileFor(r)
	if err != nil {
		return err
	}
	out := []fileJSON{}
	for _, a := range cf.Attachments {
		out = append(out, fileJSON{Filename: a.Filename, Size: int64(len(a.Data)), ContentType: a.ContentType,
			URL: fmt.Sprintf("%s/collect/api/v1/casefiles/%d/files/%d", wire.BaseURL(r), cf.ID, a.ID)})
	}
	wire.WriteJSON(w, http.StatusOK, out)
	return nil
}

// HandleDownloadFile is GET {Forms}/v1/casefiles/{casefileId}/files/{fileId}: one file's bytes.
func (s *Service) HandleDownloadFile(w http.ResponseWriter, r *http.Request) error {
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
	return wire.NotFound("no file %q in case file %d", r.PathValue("fileId"), cf.ID)
}
