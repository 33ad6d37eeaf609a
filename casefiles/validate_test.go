package casefiles_test

import (
	"errors"
	"io"
	"testing"

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
				{Name: "a.pdf", Roles: []string{"employee"}},
				{Name: "b.pdf", Signable: casefiles.Bool(false)},
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
		{"negative signOrder", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[0].SignOrder = -1 },
			[]casefiles.Problem{{Field: "signers[0].signOrder", Message: "must be 0 or more, got -1"}}},
		{"negative reminderInterval", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Signers[1].ReminderInterval = -2 },
			[]casefiles.Problem{{Field: "signers[1].reminderInterval", Message: "must be at least 1 day (or 0 for no reminders), got -2"}}},
		{"no signable document", func(cf *casefiles.CaseFile, _ *[]casefiles.Upload) { cf.Documents[0].Signable = casefiles.Bool(false) },
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
	_, err = c.DownloadDocument(ctx(t), "", io.Discard)
	assert.ErrorIs(t, err, signkit.ErrValidation)
	_, err = c.DocumentContent(ctx(t), "")
	assert.ErrorIs(t, err, signkit.ErrValidation)
}
