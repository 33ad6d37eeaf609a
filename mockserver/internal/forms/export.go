package forms

import "time"

// The names below let the mock server, its tests and benchmarks build
// submissions and read what was stored without reaching into the store.

// SubmissionInput is what a public page posted: the first text value of each
// posted name, and the files.
type SubmissionInput = submissionInput

// Upload is a file posted through a FILE field.
type Upload = upload

// Submission is a stored submission.
type Submission = submission

// AnswersJSON is the wire shape of a submission's answers.
type AnswersJSON = answersJSON

// FileJSON is a submission's file as GET .../files lists it.
type FileJSON = fileJSON

// FormJSON is the wire shape of a form definition.
type FormJSON = formJSON

// SubmissionJSON is a submission as GET .../submissions lists it.
type SubmissionJSON = submissionJSON

// MaxEntries bounds multipleEntries.max: the instances of a section or
// values of a field.
const MaxEntries = maxEntries

// NewSubmissionInput answers the input of a submission with these text
// answers (by field name) and files (by field name; nil for none).
func NewSubmissionInput(values map[string]string, files map[string]*Upload) *SubmissionInput {
	return &submissionInput{values: values, files: files}
}

// NewUpload answers a file as a page posts it.
func NewUpload(filename, contentType string, data []byte) *Upload {
	return &upload{filename: filename, contentType: contentType, data: data, size: int64(len(data))}
}

// Submit validates and stores a submission of a form's live version, as a
// public page's post does (requestID: through that prefilled request, or
// ""), and creates its case file.
func (s *Service) Submit(externalID, requestID string, in *SubmissionInput) (*Submission, error) {
	return s.submit(externalID, requestID, in)
}

// Submissions answers the submissions of a form, oldest first (nil for an
// unknown form).
func (s *Service) Submissions(externalID string) []*Submission {
	s.forms.mu.Lock()
	defer s.forms.mu.Unlock()
	if fm := s.forms.forms[externalID]; fm != nil {
		return append([]*Submission(nil), fm.subs...)
	}
	return nil
}

// AddBareSubmissions appends n submissions of the form's live version with
// no answers and no case file, dated at, for benchmarks of listing.
func (s *Service) AddBareSubmissions(externalID string, n int, at time.Time) {
	s.forms.mu.Lock()
	defer s.forms.mu.Unlock()
	fm := s.forms.forms[externalID]
	for range n {
		fm.subs = append(fm.subs, &submission{id: s.forms.nextSub, caseFileID: s.forms.nextSub, version: fm.live, completedAt: at})
		s.forms.nextSub++
	}
}

// ID is the submission's id.
func (sub *submission) ID() int64 { return sub.id }

// CaseFileID is the id of the submission's case file.
func (sub *submission) CaseFileID() int64 { return sub.caseFileID }

// VersionNumber is the number of the form version it was made on.
func (sub *submission) VersionNumber() int { return sub.version.number }

// Answers answers the submission's answers in their wire shape.
func (sub *submission) Answers(externalID string) AnswersJSON { return sub.answers(externalID) }

// Answer answers the (first) answer of the named field, "" when none.
func (sub *submission) Answer(name string) string { return sub.version.value(sub.values, name) }

// Stored answers what the submission stores by input field, as answerSet
// describes: the one answer of each, every answer of multi-entry ones, and
// the instances of each section.
func (sub *submission) Stored() (values []string, lists [][]string, counts []int) {
	return sub.values, sub.lists, sub.counts
}
