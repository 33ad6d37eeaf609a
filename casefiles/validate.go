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

// Validate checks cf and the files to upload with it against the platform's
// rules
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// caseFile fields) and reports every problem in one *ValidationError (nil when
// there is none):
//
//   - the case file has a title of at most 1024 characters; SenderName,
//     when set, has 2 to 255 characters; FolderID is not negative;
//     VisibilityMode is 0 or 1; SendAt and ExpireAt, when set, are not
//     before 1970 and ExpireAt is after SendAt; every CC recipient has a
//     name and an email address;
//   - it has at least one signer, and every signer has a name; an Email,
//     when set, is an address; a Role, when set, has at least 3 characters
//     of letters, digits, spaces, commas, underscores and hyphens, starts
//     with a letter or digit and does not end with a space; SignOrder is 0
//     or more; ReminderInterval is 0 (no reminders) or at least 1; every
//     email text that is set has at least 5 characters; SuccessURL and
//     FailURL, when set, are absolute URLs of at least 5 characters;
//     ActiveAt and ExpireAt as the case file's times; SecureSigningMethods,
//     when not nil, names at least one method; AccessControl may be left
//     unset even with SensitiveData, which turns it on;
//   - it has at least one signable document; every document has a title of
//     at most 1024 characters and a DocumentOrder, when set, of 0 or more;
//   - every document names exactly one upload, and no two documents name
//     the same one;
//   - every upload has a name, a size of 0 or more and an opener; no two
//     uploads share a name; every upload is named by a document;
//   - every role in a document's Roles is the Role of some signer.
//
// Validate refuses only what the platform's own rules rule out. Values from a
// list the platform may extend are passed as they are: languages, SSN types,
// signing methods and email formats this package does not know (IsKnown is
// advisory), since the platform adds to these lists (the vendor's PHP SDK
// passes languages through for that reason;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// caseFile fields). The service refuses a value it does not take with a 400
// that names the values it accepts.
//
// No problem quotes a signer's SSN. Create calls Validate and sends
// nothing when it fails. The service checks more (for example that every
// file is a PDF) and answers what Validate cannot see with a 400
// *signkit.Error that matches signkit.ErrValidation.
func (cf *CaseFile) Validate(uploads ...Upload) error {
	if cf == nil {
		return invalid("case file", Problem{Field: "caseFile", Message: "is nil"})
	}
	var p problems
	cf.validateCaseFile(&p)
	roles := cf.validateSigners(&p)
	byName := validateUploads(&p, uploads)
	cf.validateDocuments(&p, roles, byName, uploads)
	return invalid("case file", p...)
}

// validateCaseFile checks the case file's own fields.
func (cf *CaseFile) validateCaseFile(p *problems) {
	p.title("title", cf.Title)
	p.lenBetween("senderName", cf.SenderName, minSenderName, maxSenderName)
	if cf.FolderID < 0 {
		p.add("folderId", "must be positive (or 0 for none), got %d", cf.FolderID)
	}
	if cf.VisibilityMode != 0 && cf.VisibilityMode != 1 {
		p.add("visibilityMode", "must be 0 (all documents) or 1 (own documents), got %d", cf.VisibilityMode)
	}
	p.span("sendAt", cf.SendAt, "expireAt", cf.ExpireAt)
	for i, r := range cf.CCRecipients {
		field := "ccRecipients[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(r.Name) == "" {
			p.add(field+".name", "is required")
		}
		if r.Email == "" {
			p.add(field+".email", "is required")
		} else {
			p.email(field+".email", r.Email)
		}
	}
}

// validateSigners checks the signers and returns the set of their roles.
func (cf *CaseFile) validateSigners(p *problems) map[string]bool {
	if len(cf.Signers) == 0 {
		p.add("signers", "at least one signer is required")
	}
	roles := map[string]bool{}
	for i := range cf.Signers {
		s := &cf.Signers[i]
		field := "signers[" + strconv.Itoa(i) + "]"
		if strings.TrimSpace(s.Name) == "" {
			p.add(field+".name", "is required")
		}
		if s.Email != "" {
			p.email(field+".email", s.Email)
		}
		if s.Role != "" {
			p.role(field+".role", s.Role)
			roles[s.Role] = true
		}
		if s.SignOrder < 0 {
			p.add(field+".signOrder", "must be 0 or more, got %d", s.SignOrder)
		}
		if s.ReminderInterval < 0 {
			p.add(field+".reminderInterval", "must be at least 1 day (or 0 for no reminders), got %d", s.ReminderInterval)
		}
		s.validateOptional(p, field)
	}
	return roles
}

// validateOptional checks a signer's optional texts, URLs, codes and times.
func (s *Signer) validateOptional(p *problems, field string) {
	for _, t := range []struct{ name, value string }{
		{"emailSubject", s.EmailSubject}, {"emailText", s.EmailText},
		{"reminderEmailSubject", s.ReminderEmailSubject}, {"reminderEmailText", s.ReminderEmailText},
		{"completedEmailSubject", s.CompletedEmailSubject}, {"completedEmailText", s.CompletedEmailText},
	} {
		p.minLen(field+"."+t.name, t.value, minEmailText)
	}
	p.url(field+".successUrl", s.SuccessURL)
	p.url(field+".failUrl", s.FailURL)
	p.span(field+".activeAt", s.ActiveAt, field+".expireAt", s.ExpireAt)
	s.validateSigningMethods(p, field)
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
		p.title(field+".title", d.Title)
		if d.DocumentOrder != nil && *d.DocumentOrder < 0 {
			p.add(field+".documentOrder", "must be 0 or more, got %d", *d.DocumentOrder)
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
