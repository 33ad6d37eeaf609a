package casefiles_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

// base returns a valid case file with two signers, a signable and a
// non-signable document, and its uploads; each case changes one thing.
func base() (*casefiles.CaseFile, []casefiles.Upload) {
	return &casefiles.CaseFile{
			Title: "Contract",
			Signers: []casefiles.Signer{
				{Name: "Ada", Role: "employee"},
				{Name: "Bob", Role: "employer", SignOrder: 1, ReminderInterval: 1},
			},
			Documents: []casefiles.Document{
				{Name: "a.pdf", Title: "A", Roles: []string{"employee"}},
				{Name: "b.pdf", Title: "B", Signable: signkit.Ptr(false)},
			},
		}, []casefiles.Upload{
			casefiles.BytesUpload("a.pdf", []byte("%PDF-a")),
			casefiles.BytesUpload("b.pdf", []byte("%PDF-b")),
		}
}

// validateCase changes a valid case file and names the problems expected.
type validateCase struct {
	name   string
	change func(cf *casefiles.CaseFile, up *[]casefiles.Upload)
	want   []casefiles.Problem
}

// validateCases has one case per rule of Validate, and one with every
// problem at once.
func validateCases() []validateCase {
	return []validateCase{
		{"valid", func(*casefiles.CaseFile, *[]casefiles.Upload) {}, nil},
		{"title missing", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Title = " " },
			[]casefiles.Problem{{Field: "title", Message: "is required"}}},
		{"no signer", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers = nil
			cf.Documents[0].Roles = nil
		}, []casefiles.Problem{{Field: "signers", Message: "at least one signer is required"}}},
		{"signer without name", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[1].Name = "" },
			[]casefiles.Problem{{Field: "signers[1].name", Message: "is required"}}},
		{"every signing method and format", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].SecureSigningMethods = []casefiles.SecureSigningMethod{casefiles.SecureMitID, casefiles.SecureBankIDSweden,
				casefiles.SecureBankIDNorway, casefiles.SecureItsme, casefiles.SecureFTN, casefiles.SecureBelgianEID,
				casefiles.SecurePassportReader, casefiles.SecureAusweisApp, casefiles.SecureQualifiedMitID}
			cf.Signers[0].EnableInsecureSigning = true
			cf.Signers[0].InsecureSigningMethods = []casefiles.InsecureSigningMethod{casefiles.InsecureText, casefiles.InsecureDraw, casefiles.InsecureImage}
			cf.Signers[0].EmailFormat = casefiles.EmailFormatHTML
			cf.Signers[1].EmailFormat = casefiles.EmailFormatText
		}, nil},
		{"sensitive data without access control", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.SensitiveData = true }, nil},
		{"empty secure method list", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[1].SecureSigningMethods = []casefiles.SecureSigningMethod{}
		}, []casefiles.Problem{{Field: "signers[1].secureSigningMethods", Message: "must list at least one method when set (nil leaves the platform's setting)"}}},
		// Lists the platform extends are the platform's to judge: an
		// unknown method or format passes (the service answers 400).
		{"unknown secure method passes", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].SecureSigningMethods = []casefiles.SecureSigningMethod{casefiles.SecureMitID, "MitID"}
		}, nil},
		{"unknown insecure method passes", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].InsecureSigningMethods = []casefiles.InsecureSigningMethod{"touch"}
		}, nil},
		{"unknown email format passes", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[1].EmailFormat = "HTML" }, nil},
		{"sender name and case access control", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.SenderName, cf.AccessControl = "Jo", true
		}, nil},
		{"sender name too short", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.SenderName = "J" },
			[]casefiles.Problem{{Field: "senderName", Message: "must be 2 to 255 characters when set, got 1"}}},
		{"sender name of 256 characters", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.SenderName = strings.Repeat("é", 256) },
			[]casefiles.Problem{{Field: "senderName", Message: "must be 2 to 255 characters when set, got 256"}}},
		{"negative signOrder", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[0].SignOrder = -1 },
			[]casefiles.Problem{{Field: "signers[0].signOrder", Message: "must be 0 or more, got -1"}}},
		{"negative reminderInterval", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[1].ReminderInterval = -2 },
			[]casefiles.Problem{{Field: "signers[1].reminderInterval", Message: "must be at least 1 day (or 0 for no reminders), got -2"}}},
		{"no signable document", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Documents[0].Signable = signkit.Ptr(false) },
			[]casefiles.Problem{{Field: "documents", Message: "at least one signable document is required"}}},
		{"no document at all", func(cf *casefiles.CaseFile, up *[]casefiles.Upload) { cf.Documents, *up = nil, nil },
			[]casefiles.Problem{{Field: "documents", Message: "at least one signable document is required"}}},
		{"document without name", func(cf *casefiles.CaseFile, up *[]casefiles.Upload) {
			cf.Documents[1].Name = ""
			*up = (*up)[:1]
		}, []casefiles.Problem{{Field: "documents[1].name", Message: "is required"}}},
		{"document names no upload", func(cf *casefiles.CaseFile, up *[]casefiles.Upload) { *up = (*up)[:1] },
			[]casefiles.Problem{{Field: "documents[1].name", Message: `"b.pdf" matches no upload`}}},
		{"two documents name one upload", func(cf *casefiles.CaseFile, up *[]casefiles.Upload) {
			cf.Documents[1].Name = "a.pdf"
			*up = (*up)[:1]
		}, []casefiles.Problem{{Field: "documents[1].name", Message: `"a.pdf" is also the name of documents[0]`}}},
		{"upload not used", func(_ *casefiles.CaseFile, up *[]casefiles.Upload) {
			*up = append(*up, casefiles.BytesUpload("c.pdf", nil))
		}, []casefiles.Problem{{Field: "uploads[2].name", Message: `"c.pdf" is not named by any document`}}},
		{"duplicate upload name", func(_ *casefiles.CaseFile, up *[]casefiles.Upload) {
			*up = append(*up, casefiles.BytesUpload("a.pdf", nil))
		}, []casefiles.Problem{{Field: "uploads[2].name", Message: `"a.pdf" is also the name of uploads[0]`}}},
		{"upload without name, size or opener", func(_ *casefiles.CaseFile, up *[]casefiles.Upload) {
			*up = append(*up, casefiles.Upload{Size: -1})
		}, []casefiles.Problem{
			{Field: "uploads[2].name", Message: "is required"},
			{Field: "uploads[2].size", Message: "must be 0 or more, got -1"},
			{Field: "uploads[2].open", Message: "is nil"},
		}},
		{"unknown role", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Documents[1].Roles = []string{"employer", "witness"}
		},
			[]casefiles.Problem{{Field: "documents[1].roles[1]", Message: `"witness" is not the role of any signer`}}},
		{"title too long", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Title = strings.Repeat("é", 1025) },
			[]casefiles.Problem{{Field: "title", Message: "must be at most 1024 characters, got 1025"}}},
		{"title of 1024 characters", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Title = strings.Repeat("é", 1024) }, nil},
		{"document without title", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Documents[0].Title = "" },
			[]casefiles.Problem{{Field: "documents[0].title", Message: "is required"}}},
		{"document title too long", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Documents[1].Title = strings.Repeat("x", 1025) },
			[]casefiles.Problem{{Field: "documents[1].title", Message: "must be at most 1024 characters, got 1025"}}},
		{"negative documentOrder", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Documents[1].DocumentOrder = signkit.Ptr(-1) },
			[]casefiles.Problem{{Field: "documents[1].documentOrder", Message: "must be 0 or more, got -1"}}},
		{"role too short", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].Role = "ab"
			cf.Documents[0].Roles = []string{"ab"}
		}, []casefiles.Problem{{Field: "signers[0].role", Message: `must be at least 3 characters, got "ab"`}}},
		{"role outside the pattern", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].Role = "employee "
			cf.Documents[0].Roles = []string{"employee "}
		}, []casefiles.Problem{{Field: "signers[0].role", Message: `may hold only letters, digits, spaces, commas, underscores and hyphens, start with a letter or digit and not end with a space, got "employee "`}}},
		{"roles the pattern allows", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].Role = "Board member, 2_b-"
			cf.Documents[0].Roles = []string{"Board member, 2_b-"}
		}, nil},
		{"email texts too short", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			s := &cf.Signers[1]
			s.EmailSubject, s.EmailText, s.ReminderEmailSubject = "Hi", "Sign", "Rem"
			s.ReminderEmailText, s.CompletedEmailSubject, s.CompletedEmailText = "R", "Done", "Fin"
		}, []casefiles.Problem{
			{Field: "signers[1].emailSubject", Message: "must be at least 5 characters when set, got 2"},
			{Field: "signers[1].emailText", Message: "must be at least 5 characters when set, got 4"},
			{Field: "signers[1].reminderEmailSubject", Message: "must be at least 5 characters when set, got 3"},
			{Field: "signers[1].reminderEmailText", Message: "must be at least 5 characters when set, got 1"},
			{Field: "signers[1].completedEmailSubject", Message: "must be at least 5 characters when set, got 4"},
			{Field: "signers[1].completedEmailText", Message: "must be at least 5 characters when set, got 3"},
		}},
		{"bad URLs", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Signers[0].SuccessURL, cf.Signers[0].FailURL = "/done", "a://"
		}, []casefiles.Problem{
			{Field: "signers[0].successUrl", Message: `must be an absolute URL of at least 5 characters, got "/done"`},
			{Field: "signers[0].failUrl", Message: `must be an absolute URL of at least 5 characters, got "a://"`},
		}},
		{"bad email", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[0].Email = "Ada <ada@example.com>" },
			[]casefiles.Problem{{Field: "signers[0].email", Message: `"Ada <ada@example.com>" is not an email address`}}},
		{"unknown languages and ssnType pass", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.Language, cf.Signers[1].Language, cf.Signers[1].SSNType = "EN", "xx", "passport"
		}, nil},
		{"case file settings out of range", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			cf.FolderID, cf.VisibilityMode = -1, 2
			cf.CCRecipients = []casefiles.CCRecipient{{Name: "Ok", Email: "ok@example.com"}, {Email: "nope"}, {Name: "No mail"}}
		}, []casefiles.Problem{
			{Field: "folderId", Message: "must be positive (or 0 for none), got -1"},
			{Field: "visibilityMode", Message: "must be 0 (all documents) or 1 (own documents), got 2"},
			{Field: "ccRecipients[1].name", Message: "is required"},
			{Field: "ccRecipients[1].email", Message: `"nope" is not an email address`},
			{Field: "ccRecipients[2].email", Message: "is required"},
		}},
		{"times before 1970 or out of order", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) {
			early, send, expire := time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC), time.Now(), time.Now().Add(-time.Hour)
			cf.SendAt, cf.ExpireAt = &send, &expire
			cf.Signers[0].ActiveAt = &early
		}, []casefiles.Problem{
			{Field: "expireAt", Message: "must be after sendAt"},
			{Field: "signers[0].activeAt", Message: "must not be before 1970-01-01 (unix seconds), got 1969-12-31T23:59:59Z"},
		}},
		{"the zero time", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.ExpireAt = &time.Time{} },
			[]casefiles.Problem{{Field: "expireAt", Message: "must not be before 1970-01-01 (unix seconds), got 0001-01-01T00:00:00Z"}}},
		{"every optional field valid", func(cf *casefiles.CaseFile, up *[]casefiles.Upload) {
			full := fullCaseFile()
			*cf = *full
			*up = []casefiles.Upload{casefiles.BytesUpload("lease.pdf", nil), casefiles.BytesUpload("rules.pdf", nil)}
		}, nil},
		{"every problem at once", func(cf *casefiles.CaseFile, up *[]casefiles.Upload) {
			cf.Title = ""
			cf.Signers[0].Name = ""
			cf.Signers[1].SignOrder = -1
			cf.Documents[0].Roles = []string{"boss"}
			*up = append((*up)[:1], casefiles.BytesUpload("x.pdf", nil))
		}, []casefiles.Problem{
			{Field: "title", Message: "is required"},
			{Field: "signers[0].name", Message: "is required"},
			{Field: "signers[1].signOrder", Message: "must be 0 or more, got -1"},
			{Field: "documents[0].roles[0]", Message: `"boss" is not the role of any signer`},
			{Field: "documents[1].name", Message: `"b.pdf" matches no upload`},
			{Field: "uploads[1].name", Message: `"x.pdf" is not named by any document`},
		}},
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range validateCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cf, up := base()
			tc.change(cf, &up)
			err := cf.Validate(up...)
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			var verr *casefiles.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, "case file", verr.Subject)
			assert.Equal(t, tc.want, verr.Problems)
			assert.ErrorIs(t, err, signkit.ErrValidation)
			assert.NotErrorIs(t, err, signkit.ErrNotFound)

			// Create refuses it without any request: newEnv fails the test
			// on any request, including the token request.
			e := newEnv(t)
			_, cerr := e.Client.CaseFiles.Create(ctx(t), cf, up...)
			assert.Equal(t, err, cerr)
			assert.Equal(t, int32(0), e.Tokens.Load())
		})
	}
}

func TestValidateNil(t *testing.T) {
	t.Parallel()
	var cf *casefiles.CaseFile
	err := cf.Validate()
	require.ErrorIs(t, err, signkit.ErrValidation)
	assert.EqualError(t, err, "casefiles: invalid case file: caseFile: is nil")
}

func TestValidationErrorText(t *testing.T) {
	t.Parallel()
	err := &casefiles.ValidationError{Package: "casefiles", Subject: "case file", Problems: []casefiles.Problem{{Field: "title", Message: "is required"}, {Field: "signers", Message: "x"}}}
	assert.EqualError(t, err, "casefiles: invalid case file: 2 problems: title: is required; signers: x")
	assert.True(t, errors.Is(err, signkit.ErrValidation))
}

// Requests with a bad argument are refused before anything is sent.
func TestBadArguments(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.Client.CaseFiles
	_, err := c.Status(ctx(t), &casefiles.Job{UUID: "u"})
	assert.ErrorIs(t, err, signkit.ErrValidation)
	_, err = c.Wait(ctx(t), nil)
	assert.ErrorIs(t, err, signkit.ErrValidation)
	_, err = c.Get(ctx(t), 0)
	assert.ErrorIs(t, err, signkit.ErrValidation)
	_, err = c.DownloadDocument(ctx(t), 0, io.Discard)
	assert.ErrorIs(t, err, signkit.ErrValidation)
	_, err = c.DocumentContent(ctx(t), -1)
	assert.ErrorIs(t, err, signkit.ErrValidation)
	assert.ErrorIs(t, c.Delete(ctx(t), 0), signkit.ErrValidation)
	_, err = c.List(ctx(t), &casefiles.ListOptions{Page: -1})
	assert.ErrorIs(t, err, signkit.ErrValidation)
	for _, err := range c.All(ctx(t), &casefiles.ListOptions{PerPage: -1}) {
		assert.ErrorIs(t, err, signkit.ErrValidation)
	}
}
