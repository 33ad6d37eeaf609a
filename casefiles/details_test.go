package casefiles_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

// getDetails answers Get of case file 42 from a fake platform that
// answers body.
func getDetails(t *testing.T, body string) *casefiles.Details {
	t.Helper()
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, `/api/v1/casefiles/42`, 200, body)
	d, err := e.Client.CaseFiles.Get(ctx(t), 42)
	require.NoError(t, err)
	return d
}

// The settings the platform sends back, in the vendor's shapes: a signer's
// onBehalfOf, vatin and storeAsContact (PHP SDK Signer, .NET SDK Signer),
// the signing request's texts, reminderInterval, successUrl, failUrl and
// rejectReason (PHP and .NET SDK SigningRequest), the case file's
// signOnMeeting and folderId, a document's metaData; numbers and booleans
// also as strings, as casefiles reads them elsewhere.
func TestDetailsReadsTheSettings(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		caseFile, signer, request, document string
	}{
		"native": {
			caseFile: `"signOnMeeting":true,"folderId":17`,
			signer:   `"onBehalfOf":"Acme A/S","vatin":"DK12345678","storeAsContact":true`,
			request:  `"reminderInterval":3,"activeAt":1767225600,"expireAt":1769904000`,
			document: `"metaData":"{\"ref\":\"L-1\"}"`,
		},
		"strings and numbers": {
			caseFile: `"signOnMeeting":1,"folderId":"17"`,
			signer:   `"onBehalfOf":"Acme A/S","vatin":"DK12345678","storeAsContact":"true"`,
			request:  `"reminderInterval":"3","activeAt":"1767225600","expireAt":"2026-02-01T00:00:00Z"`,
			document: `"metaData":"{\"ref\":\"L-1\"}"`,
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := getDetails(t, `{"id":42,`+c.caseFile+`,
				"signers":[{"id":7,"name":"Ada",`+c.signer+`,"signingRequest":{"id":70,"status":2,"email":"ada@example.com",
					"language":"da","emailSubject":"Sign, please","emailText":"The lease is ready.",
					"reminderEmailSubject":"Reminder","reminderEmailText":"Still waiting.",
					"completedEmailSubject":"Done","completedEmailText":"Everyone signed.",
					"successUrl":"https://example.com/ok","failUrl":"https://example.com/no",
					"rejectReason":"The rent is wrong.",`+c.request+`}}],
				"documents":[{"id":9,"title":"Lease",`+c.document+`}]}`)
			assert.True(t, d.SignOnMeeting)
			assert.Equal(t, int64(17), d.FolderID)
			require.Len(t, d.Signers, 1)
			s := d.Signers[0]
			assert.Equal(t, casefiles.SignerRejected, s.Status)
			assert.Equal(t, "The rent is wrong.", s.RejectReason)
			assert.Equal(t, "Acme A/S", s.OnBehalfOf)
			assert.Equal(t, "DK12345678", s.VATIN)
			assert.True(t, s.StoreAsContact)
			assert.Equal(t, "da", s.Language)
			assert.Equal(t, [6]string{"Sign, please", "The lease is ready.", "Reminder", "Still waiting.", "Done", "Everyone signed."},
				[6]string{s.EmailSubject, s.EmailText, s.ReminderEmailSubject, s.ReminderEmailText, s.CompletedEmailSubject, s.CompletedEmailText})
			assert.Equal(t, 3, s.ReminderInterval)
			assert.Equal(t, "https://example.com/ok", s.SuccessURL)
			assert.Equal(t, "https://example.com/no", s.FailURL)
			assert.Equal(t, unix(1767225600), s.ActiveAt)
			assert.Equal(t, unix(1769904000), s.ExpireAt.UTC())
			assert.Nil(t, s.Extra, "every member was read")
			assert.Equal(t, `{"ref":"L-1"}`, d.Documents[0].MetaData)
			assert.Nil(t, d.Extra)
			assert.Nil(t, d.Documents[0].Extra)
		})
	}
}

// A signer's language: the signing request's (the Connector's
// SigningRequestDetails), else the signer's own (.NET SDK Signer.Language);
// a rejectReason of null or absent is no reason.
func TestDetailsSignerLanguageAndNoReason(t *testing.T) {
	t.Parallel()
	d := getDetails(t, `{"id":42,"signers":[
		{"id":1,"name":"A","language":"sv","signingRequest":{"id":10,"language":"fi","rejectReason":null}},
		{"id":2,"name":"B","language":"sv","signingRequest":{"id":20}},
		{"id":3,"name":"C","language":"de"}]}`)
	require.Len(t, d.Signers, 3)
	assert.Equal(t, []string{"fi", "sv", "de"}, []string{d.Signers[0].Language, d.Signers[1].Language, d.Signers[2].Language})
	for _, s := range d.Signers {
		assert.Empty(t, s.RejectReason)
	}
}

// Members this package does not read are kept, as the platform sent them,
// at each level; those it reads are not repeated, whatever their case.
func TestDetailsExtraKeepsUnreadMembers(t *testing.T) {
	t.Parallel()
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	for name, c := range map[string]struct {
		body                  string
		caseFile, signer, doc map[string]json.RawMessage
	}{
		"none": {body: `{"id":42,"title":"T","signers":[{"id":1,"name":"A","signingRequest":{"id":2,"status":1}}],
			"documents":[{"id":3,"title":"D"}]}`},
		"case file": {body: `{"id":42,"caseFileTypeId":7,"documentDisplayMode":1,"Title":"read, not extra"}`,
			caseFile: map[string]json.RawMessage{"caseFileTypeId": raw(`7`), "documentDisplayMode": raw(`1`)}},
		"signer and its signing request": {
			body: `{"id":42,"signers":[{"id":1,"name":"A","validatedName":"A. B.","signingRequest":
				{"id":2,"communicationChannel":"email","sentAt":[1,2]}}]}`,
			signer: map[string]json.RawMessage{"validatedName": raw(`"A. B."`),
				"signingRequest": raw(`{"communicationChannel":"email","sentAt":[1,2]}`)}},
		"document": {body: `{"id":42,"documents":[{"id":3,"title":"D","pageCount":4,"opts":{"a":null}}]}`,
			doc: map[string]json.RawMessage{"pageCount": raw(`4`), "opts": raw(`{"a":null}`)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d := getDetails(t, c.body)
			assert.Equal(t, c.caseFile, d.Extra)
			if len(d.Signers) > 0 {
				assert.Equal(t, c.signer, d.Signers[0].Extra)
			}
			if len(d.Documents) > 0 {
				assert.Equal(t, c.doc, d.Documents[0].Extra)
			}
		})
	}
}

// List keeps the unread members too: it decodes the same case file.
func TestListKeepsExtra(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, `/api/v1/casefiles.*`, 200, `[{"id":42,"archived":false}]`)
	page, err := e.Client.CaseFiles.List(ctx(t), nil)
	require.NoError(t, err)
	require.Len(t, page, 1)
	assert.Equal(t, map[string]json.RawMessage{"archived": json.RawMessage(`false`)}, page[0].Extra)
}

// Errors reads the platform's array of strings, and liberally objects with
// a message; null and an empty array are no reason (an empty, non-nil
// slice); anything but an array is an error.
func TestErrorsDecoding(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		body    string
		want    []string
		wantErr bool
	}{
		"strings":   {body: `["Document \"Lease\" could not be signed.","The signer list is empty."]`, want: []string{"Document \"Lease\" could not be signed.", "The signer list is empty."}},
		"empty":     {body: `[]`, want: []string{}},
		"null":      {body: `null`, want: []string{}},
		"objects":   {body: `[{"message":"m"},{"error":"e"},{"reason":"r"},{"description":"d"},{"code":7}]`, want: []string{"m", "e", "r", "d", `{"code":7}`}},
		"blanks":    {body: `["",null,"x"]`, want: []string{"x"}},
		"other":     {body: `[12,true]`, want: []string{"12", "true"}},
		"an object": {body: `{"errors":["x"]}`, wantErr: true},
		"a string":  {body: `"x"`, wantErr: true},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.reply(http.MethodGet, signURL, `/api/v1/casefiles/42/errors`, 200, c.body)
			got, err := e.Client.CaseFiles.Errors(ctx(t), 42)
			if c.wantErr {
				require.ErrorContains(t, err, "not a JSON array")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
			assert.NotNil(t, got)
			assert.Equal(t, "Bearer tok-1", rec.last().Auth)
		})
	}
}

// A case file id that is not positive is refused before anything is sent.
func TestErrorsRefusesBadID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := e.Client.CaseFiles.Errors(ctx(t), 0)
	require.ErrorIs(t, err, signkit.ErrValidation)
	var ve *casefiles.ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Contains(t, err.Error(), "caseFileID")
}
