package casefiles

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signkit/signkit-go/internal/apierror"
)

// Problem is one thing wrong with a case file or its uploads, found before
// anything is sent. Its Field is the path of the offending value, in the
// style of the service's error details: "documents[1].roles[0]".
type Problem = apierror.Problem

// ValidationError is returned when the package refuses a case file or a
// request before sending it. It lists every problem found, not only the
// first, and errors.Is(err, signkit.ErrValidation) holds for it. It is
// signkit.ValidationError, shared by every service package.
type ValidationError = apierror.ValidationError

// invalid returns a *ValidationError for problems, or nil when there are none.
func invalid(subject string, problems ...Problem) error {
	return apierror.Invalid("casefiles", subject, problems...)
}

// problems collects the problems of one validation.
type problems []Problem

func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Validate checks cf and the files to upload with it against the service's
// rules and reports every problem in one *ValidationError (nil when there
// is none):
//
//   - the case file has a title;
//   - it has at least one signer, and every signer has a name;
//   - every signer's SignOrder is 0 or more, and ReminderInterval is 0
//     (no reminders) or at least 1;
//   - it has at least one signable document;
//   - every document names exactly one upload, and no two documents name
//     the same one;
//   - every upload has a name, a size of 0 or more and an opener; no two
//     uploads share a name; every upload is named by a document;
//   - every role in a document's Roles is the Role of some signer.
//
// Create calls Validate and sends nothing when it fails. The service
// checks more (for example that every file is a PDF) and answers a 422
// *signkit.Error for what Validate cannot see.
func (cf *CaseFile) Validate(uploads ...Upload) error {
	if cf == nil {
		return invalid("case file", Problem{Field: "caseFile", Message: "is nil"})
	}
	var p problems
	if strings.TrimSpace(cf.Title) == "" {
		p.add("title", "is required")
	}
	roles := cf.validateSigners(&p)
	byName := validateUploads(&p, uploads)
	cf.validateDocuments(&p, roles, byName, uploads)
	return invalid("case file", p...)
}

// validateSigners checks the signers and returns the set of their roles.
func (cf *CaseFile) validateSigners(p *problems) map[string]bool {
	if len(cf.Signers) == 0 {
		p.add("signers", "at least one signer is required")
	}
	roles := map[string]bool{}
	for i, s := range cf.Signers {
		field := "signers[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(s.Name) == "" {
			p.add(field+".name", "is required")
		}
		if s.SignOrder < 0 {
			p.add(field+".signOrder", "must be 0 or more, got %d", s.SignOrder)
		}
		if s.ReminderInterval < 0 {
			p.add(field+".reminderInterval", "must be at least 1 day (or 0 for no reminders), got %d", s.ReminderInterval)
		}
		if s.Role != "" {
			roles[s.Role] = true
		}
	}
	return roles
}

// validateUploads checks the uploads and returns the index of each name.
func validateUploads(p *problems, uploads []Upload) map[string]int {
	byName := map[string]int{}
	for i, u := range uploads {
		field := "uploads[" + strconv.Itoa(i) + "]"
		if u.Name == "" {
			p.add(field+".name", "is required")
		} else if j, dup := byName[u.Name]; dup {
			p.add(field+".name", "%q is also the name of uploads[%d]", u.Name, j)
		} else {
			byName[u.Name] = i
		}
		if u.Size < 0 {
			p.add(field+".size", "must be 0 or more, got %d", u.Size)
		}
		if u.Open == nil {
			p.add(field+".open", "is nil")
		}
	}
	return byName
}

// validateDocuments checks the documents against the signers' roles and
// the uploads, and that every upload is used.
func (cf *CaseFile) validateDocuments(p *problems, roles map[string]bool, byName map[string]int, uploads []Upload) {
	signable := 0
	used := map[string]int{} // upload name → first document naming it
	for i, d := range cf.Documents {
		field := "documents[" + strconv.Itoa(i) + "]"
		if d.signable() {
			signable++
		}
		switch _, ok := byName[d.Name]; {
		case d.Name == "":
			p.add(field+".name", "is required")
		case !ok:
			p.add(field+".name", "%q matches no upload", d.Name)
		}
		if j, dup := used[d.Name]; dup && d.Name != "" {
			p.add(field+".name", "%q is also the name of documents[%d]", d.Name, j)
		} else if d.Name != "" {
			used[d.Name] = i
		}
		for k, r := range d.Roles {
			if !roles[r] {
				p.add(field+".roles["+strconv.Itoa(k)+"]", "%q is not the role of any signer", r)
			}
		}
	}
	if signable == 0 {
		p.add("documents", "at least one signable document is required")
	}
	for i, u := range uploads {
		if _, ok := used[u.Name]; !ok && u.Name != "" && byName[u.Name] == i {
			p.add("uploads["+strconv.Itoa(i)+"].name", "%q is not named by any document", u.Name)
		}
	}
}
