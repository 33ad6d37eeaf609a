package casefiles_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// Values from lists the platform extends (languages, SSN types, signing
// methods, email formats) pass Validate whatever they are; the platform
// (here the mock, which knows the connector's lists) refuses those it does
// not take with a 400 whose message names the accepted values.
func TestUnknownListValuesAreLeftToThePlatform(t *testing.T) {
	t.Parallel()
	_, client := newMockClient(t, mockserver.WithJobDelay(0))
	tests := []struct {
		name     string
		change   func(cf *casefiles.CaseFile)
		field    string
		accepted string
	}{
		{"case file language", func(cf *casefiles.CaseFile) { cf.Language = "xx" },
			"caseFile.language", "en, da, sv, nl, fr, fi, no, de"},
		{"signer language", func(cf *casefiles.CaseFile) { cf.Signers[0].Language = "tlh" },
			"caseFile.signers[0].language", "en, da, sv, nl, fr, fi, no, de"},
		{"ssnType", func(cf *casefiles.CaseFile) { cf.Signers[0].SSNType = "passport" },
			"caseFile.signers[0].ssnType", "legacy, dk:cpr, se:pin, no:nin, be:nrn, fi:pic, google:oidc, microsoft:oidc, sms"},
		{"secure method", func(cf *casefiles.CaseFile) {
			cf.Signers[0].SecureSigningMethods = []casefiles.SecureSigningMethod{"eid.example"}
		}, "caseFile.signers[0].secureSigningMethods[0]", "mitid.dk, bankid_se, bankid_no, itsme.be, ftn.fi"},
		{"insecure method", func(cf *casefiles.CaseFile) {
			cf.Signers[0].EnableInsecureSigning = true
			cf.Signers[0].InsecureSigningMethods = []casefiles.InsecureSigningMethod{"touch"}
		}, "caseFile.signers[0].insecureSigningMethods[0]", "text, draw, image"},
		{"email format", func(cf *casefiles.CaseFile) { cf.Signers[0].EmailFormat = "rtf" },
			"caseFile.signers[0].emailFormat", "text, html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cf := &casefiles.CaseFile{Title: "Lists", Signers: []casefiles.Signer{{Name: "Ada"}},
				Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}
			tt.change(cf)
			upload := casefiles.BytesUpload("a.pdf", mockserver.SamplePDF("A"))
			require.NoError(t, cf.Validate(upload), "Validate leaves the value to the platform")

			_, err := client.CaseFiles.Create(ctx(t), cf, upload)
			var apiErr *signkit.Error
			require.ErrorAs(t, err, &apiErr, "the platform's answer, not the SDK's")
			assert.ErrorIs(t, err, signkit.ErrValidation)
			assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
			assert.Contains(t, apiErr.Message, tt.field)
			assert.Contains(t, apiErr.Message, "must be one of "+tt.accepted)
		})
	}
}

// A case file's sender name and case-level access control reach the
// platform and read back; case-level access control shows on every
// signer, as sensitive data does. Without them, Details shows neither.
func TestSenderNameAndCaseAccessControlReadBack(t *testing.T) {
	t.Parallel()
	_, client := newMockClient(t, mockserver.WithJobDelay(0))
	upload := casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease"))
	cf := &casefiles.CaseFile{
		Title: "Lease", SenderName: "Elm Estates lettings", AccessControl: true,
		Signers: []casefiles.Signer{
			{Name: "Tia Tenant", Email: "tia@example.com", SSNType: "sms", SSN: "+4512345678"},
			{Name: "Lars Landlord", VATIN: "DK12345678"},
		},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}
	d := createAndGet(t, client, cf, upload)
	assert.Equal(t, "Elm Estates lettings", d.SenderName)
	assert.True(t, d.AccessControl)
	assert.False(t, d.SensitiveData, "access control alone is not sensitive data")
	require.Len(t, d.Signers, 2)
	for _, s := range d.Signers {
		assert.True(t, s.AccessControl, "%s: the case file's access control is every signer's", s.Name)
	}

	plain := *cf
	plain.SenderName, plain.AccessControl = "", false
	plain.Title = "Lease, plain"
	d = createAndGet(t, client, &plain, upload)
	assert.Empty(t, d.SenderName)
	assert.False(t, d.AccessControl)
	for _, s := range d.Signers {
		assert.False(t, s.AccessControl, s.Name)
	}

	// A sender name of one character is refused before sending.
	short := plain
	short.SenderName = "E"
	_, err := client.CaseFiles.Create(ctx(t), &short, upload)
	var ve *casefiles.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, err.Error(), "senderName")
}
