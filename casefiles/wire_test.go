package casefiles_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/casefiles"

	signkit "github.com/signkit/signkit-go"
)

const ssn = "010203-4567"

// fullCaseFile sets every field of the Send wire.
func fullCaseFile() *casefiles.CaseFile {
	sendAt := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	expireAt := sendAt.Add(30 * 24 * time.Hour)
	activeAt := sendAt.Add(24 * time.Hour)
	return &casefiles.CaseFile{
		Title: "Lease", Language: "da", MetaData: `{"crm":"L-1"}`, Reference: "ELM-12", FolderID: 77,
		SendAt: &sendAt, ExpireAt: &expireAt,
		SensitiveData: true, SignOnMeeting: true, VisibilityMode: 1,
		DisableNotificationsOwner: true, DisableEmailAttachments: true,
		CCRecipients: []casefiles.CCRecipient{
			{Name: "Anna Agent", Email: "anna@agency.example"},
			{Name: "Ben Book", Email: "ben@agency.example", StoreAsContact: signkit.Ptr(false)},
		},
		Signers: []casefiles.Signer{{
			Name: "Lena Landlord", Email: "lena@example.com", Role: "landlord", SignOrder: 1,
			EmailSubject: "Please sign", EmailText: "Dear Lena", ReminderEmailSubject: "Reminder", ReminderEmailText: "Still waiting",
			CompletedEmailSubject: "All signed", CompletedEmailText: "Thank you", ReminderInterval: 3,
			OnBehalfOf: "Elm Estates", SSNType: "dk:cpr", SSN: ssn, VATIN: "DK12345678", AccessControl: true,
			Language: "en", SuccessURL: "https://example.com/ok", FailURL: "https://example.com/fail",
			ActiveAt: &activeAt, ExpireAt: &expireAt, StoreAsContact: signkit.Ptr(false),
		}, {Name: "Tom Tenant"}},
		Documents: []casefiles.Document{
			{Name: "lease.pdf", Title: "Lease", Roles: []string{"landlord"}, DocumentOrder: signkit.Ptr(0), MetaData: "main"},
			{Name: "rules.pdf", Title: "House rules", Signable: signkit.Ptr(false), DocumentOrder: signkit.Ptr(1)},
		},
	}
}

// Every optional field goes under its wire name and type (times as integer
// unix seconds); unset ones are left out (TestCreateSendsMultipart).
func TestCaseFileWireFields(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(fullCaseFile())
	require.NoError(t, err)
	assert.JSONEq(t, `{"title":"Lease","language":"da","metaData":"{\"crm\":\"L-1\"}","reference":"ELM-12","folderId":77,
		"sendAt":1769936400,"expireAt":1772528400,"sensitiveData":true,"signOnMeeting":true,"visibilityMode":1,
		"disableNotificationsOwner":true,"disableEmailAttachments":true,
		"ccRecipients":[{"name":"Anna Agent","email":"anna@agency.example"},{"name":"Ben Book","email":"ben@agency.example","storeAsContact":false}],
		"signers":[{"name":"Lena Landlord","email":"lena@example.com","role":"landlord","signOrder":1,
			"emailSubject":"Please sign","emailText":"Dear Lena","reminderEmailSubject":"Reminder","reminderEmailText":"Still waiting",
			"completedEmailSubject":"All signed","completedEmailText":"Thank you","reminderInterval":3,
			"onBehalfOf":"Elm Estates","ssnType":"dk:cpr","socialSecurityNumberPlain":"`+ssn+`","vatin":"DK12345678","accessControl":true,
			"language":"en","successUrl":"https://example.com/ok","failUrl":"https://example.com/fail",
			"activeAt":1770022800,"expireAt":1772528400,"storeAsContact":false},
			{"name":"Tom Tenant"}],
		"documents":[{"name":"lease.pdf","title":"Lease","roles":["landlord"],"documentOrder":0,"metaData":"main"},
			{"name":"rules.pdf","title":"House rules","signable":false,"documentOrder":1}]}`, string(b))

	var back casefiles.CaseFile
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, fullCaseFile(), &back, "decoding gives the case file back")
}

func TestCaseFileTimesDecodeRFC3339(t *testing.T) {
	t.Parallel()
	var cf casefiles.CaseFile
	require.NoError(t, json.Unmarshal([]byte(`{"title":"T","sendAt":"2026-02-01T09:00:00Z","expireAt":null}`), &cf))
	require.NotNil(t, cf.SendAt)
	assert.True(t, cf.SendAt.Equal(time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)))
	assert.Nil(t, cf.ExpireAt)
	require.Error(t, json.Unmarshal([]byte(`{"signers":[{"name":"A","activeAt":"soon"}]}`), &cf))
}

// The files follow the documents' order, whatever the order of the
// uploads passed: the payloadHash covers them in that order.
func TestCreateSendsFilesInDocumentOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPost, sendURL, createPath, 200, createJSON)
	cf, uploads := threeDocCaseFile()
	reversed := []casefiles.Upload{uploads[1], uploads[0]}
	_, err := e.Client.CaseFiles.Create(ctx(t), cf, reversed...)
	require.NoError(t, err)
	parts := parseMultipart(t, rec.last().ContentType, rec.last().Body)
	require.Len(t, parts, 3)
	assert.Equal(t, []string{"contract.pdf", "terms.pdf"}, []string{parts[1].FileName, parts[2].FileName})
	assert.True(t, bytes.HasPrefix(parts[1].Content, []byte("%PDF-1.7 contract")))

	// The same case file with the uploads in either order is the same body
	// but for the boundary: the same payload, the same payloadHash.
	_, err = e.Client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	again := parseMultipart(t, rec.last().ContentType, rec.last().Body)
	assert.Equal(t, parts, again)
}

// An SSN never shows in the fmt verbs or in log/slog output of a Signer or
// a CaseFile, nor in validation errors.
func TestSSNIsNeverPrinted(t *testing.T) {
	t.Parallel()
	cf := fullCaseFile()
	s := cf.Signers[0]
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%20v"} {
		for name, v := range map[string]any{"Signer": s, "*Signer": &s, "CaseFile": *cf, "*CaseFile": cf, "[]Signer": cf.Signers} {
			out := fmt.Sprintf(format, v)
			assert.NotContains(t, out, ssn, "%s of %s", format, name)
			assert.NotContains(t, out, fmt.Sprintf("%x", ssn), "%s of %s", format, name)
		}
	}
	assert.Contains(t, fmt.Sprintf("%+v", s), "SSN:[redacted]")
	assert.Contains(t, fmt.Sprintf("%+v", s), "Name:Lena Landlord", "the other fields print as usual")
	assert.True(t, strings.HasPrefix(fmt.Sprintf("%#v", s), "casefiles.Signer{"), fmt.Sprintf("%#v", s))
	assert.NotContains(t, fmt.Sprintf("%v", casefiles.Signer{Name: "A"}), "redacted", "no SSN, nothing to redact")

	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewJSONHandler(&buf, nil), slog.NewTextHandler(&buf, nil)} {
		slog.New(h).Info("sending", "signer", s, "caseFile", cf, "value", *cf)
	}
	assert.NotContains(t, buf.String(), ssn)
	assert.Contains(t, buf.String(), "Lena Landlord")

	cf.Signers[0].Role = "x"
	cf.Signers[0].SSNType = "passport"
	err := cf.Validate()
	require.Error(t, err)
	assert.NotContains(t, err.Error(), ssn)
	assert.NotContains(t, fmt.Sprintf("%+v", err), ssn)
}
