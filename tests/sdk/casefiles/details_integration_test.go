package casefiles_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// Every setting of the details that Create sends comes back from Get as
// it was sent: the case file's signOnMeeting and folderId, the signer's
// onBehalfOf, vatin, storeAsContact, language, texts, reminder interval
// and URLs, the document's metaData.
func TestIntegrationDetailsRoundTrip(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithJobDelay(0))
	expire := srv.Now().Add(30 * 24 * time.Hour).Truncate(time.Second).UTC()
	cf := &casefiles.CaseFile{
		Title: "Lease", SignOnMeeting: true, FolderID: 31,
		Signers: []casefiles.Signer{{
			Name: "Ada", Email: "ada@example.com", OnBehalfOf: "Acme A/S", VATIN: "DK12345678",
			StoreAsContact: signkit.Ptr(false), Language: "da",
			EmailSubject: "Sign the lease", EmailText: "The lease is ready.",
			ReminderEmailSubject: "Reminder: the lease", ReminderEmailText: "The lease still waits.",
			CompletedEmailSubject: "The lease is signed", CompletedEmailText: "Everyone signed the lease.",
			ReminderInterval: 3, SuccessURL: "https://example.com/ok", FailURL: "https://example.com/no",
			ExpireAt: &expire,
		}, {Name: "Bob"}},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease", MetaData: `{"ref":"L-1"}`}},
	}
	d := createAndGet(t, client, cf, casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease")))
	assert.True(t, d.SignOnMeeting)
	assert.Equal(t, int64(31), d.FolderID)
	require.Len(t, d.Signers, 2)
	ada, bob := d.Signers[0], d.Signers[1]
	want := cf.Signers[0]
	assert.Equal(t, []any{want.OnBehalfOf, want.VATIN, false, want.Language, want.ReminderInterval, want.SuccessURL, want.FailURL},
		[]any{ada.OnBehalfOf, ada.VATIN, ada.StoreAsContact, ada.Language, ada.ReminderInterval, ada.SuccessURL, ada.FailURL})
	assert.Equal(t, []string{want.EmailSubject, want.EmailText, want.ReminderEmailSubject, want.ReminderEmailText,
		want.CompletedEmailSubject, want.CompletedEmailText},
		[]string{ada.EmailSubject, ada.EmailText, ada.ReminderEmailSubject, ada.ReminderEmailText,
			ada.CompletedEmailSubject, ada.CompletedEmailText})
	assert.True(t, bob.StoreAsContact, "the platform's default")
	assert.Zero(t, bob.ReminderInterval)
	assert.Empty(t, bob.EmailSubject)
	assert.Empty(t, ada.RejectReason)
	assert.Equal(t, `{"ref":"L-1"}`, d.Documents[0].MetaData)
	assert.True(t, expire.Equal(ada.ExpireAt), "signer expireAt %v, want %v", ada.ExpireAt, expire)
	assert.True(t, ada.ActiveAt.IsZero() && bob.ExpireAt.IsZero(), "not set: zero")
	assert.Nil(t, ada.Extra, "the mock sends no signer member the SDK does not read")
}

// rejectWith makes the signer reject through one way of the mock.
type rejectWith func(t *testing.T, srv *mockserver.Server, d *casefiles.Details, link, reason string)

// A signer rejects with a reason, through the control API, the Go test
// API and the signing page's form; Get shows the reason, and the case file
// and signer rejected.
func TestIntegrationRejectReason(t *testing.T) {
	t.Parallel()
	const reason = "The rent is wrong: 900, not 1900.\nCall me."
	for name, reject := range map[string]rejectWith{
		"control API": func(t *testing.T, srv *mockserver.Server, d *casefiles.Details, _, reason string) {
			control(t, srv, fmt.Sprintf("/mock/casefiles/%d/signers/%d/reject", d.ID, d.Signers[0].ID), map[string]string{"reason": reason})
		},
		"Server.RejectSigner": func(t *testing.T, srv *mockserver.Server, d *casefiles.Details, _, reason string) {
			require.NoError(t, srv.RejectSigner(d.ID, d.Signers[0].ID, reason))
		},
		"signing page": func(t *testing.T, _ *mockserver.Server, _ *casefiles.Details, link, reason string) {
			form := url.Values{"action": {"reject"}, "confirm": {"yes"}, "reason": {reason}}
			c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			resp, err := c.Post(link, "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusSeeOther, resp.StatusCode)
			assert.Equal(t, link+"?done=reject", resp.Header.Get("Location"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, client := newMockClient(t, mockserver.WithJobDelay(0))
			res := sendLeaseForTwo(t, client, "Lease")
			d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
			require.NoError(t, err)
			reject(t, srv, d, res.SigningLinks[0].URL, reason)
			d, err = client.CaseFiles.Get(ctx(t), res.CaseFileID)
			require.NoError(t, err)
			assert.Equal(t, casefiles.CaseFileRejected, d.Status)
			assert.Equal(t, casefiles.SignerRejected, d.Signers[0].Status)
			assert.Equal(t, reason, d.Signers[0].RejectReason)
			assert.Empty(t, d.Signers[1].RejectReason, "the other signer did not reject")
		})
	}
}

// A reject without a reason still works; a reason on another action, a
// reason too long, and a reject of a case file already rejected are
// refused with the SDK's sentinels, and change nothing.
func TestIntegrationRejectReasonRefusals(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithJobDelay(0))
	res := sendLeaseForTwo(t, client, "Lease")
	d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	ada := d.Signers[0].ID

	err = srv.RejectSigner(d.ID, ada, strings.Repeat("x", 4001))
	require.ErrorIs(t, err, signkit.ErrValidation)
	assert.Contains(t, err.Error(), "reason")
	status, body := controlStatus(t, srv, fmt.Sprintf("/mock/casefiles/%d/signers/%d/open", d.ID, ada), `{"reason":"why"}`)
	assert.Equal(t, http.StatusUnprocessableEntity, status, body)
	assert.Contains(t, body, "only the reject action takes a reason")
	require.ErrorIs(t, srv.RejectSigner(d.ID, 999, "x"), signkit.ErrNotFound)

	again, err := client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	assert.Equal(t, casefiles.CaseFilePending, again.Status, "nothing changed")

	control(t, srv, fmt.Sprintf("/mock/casefiles/%d/signers/%d/reject", d.ID, ada), nil)
	again, err = client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	assert.Equal(t, casefiles.CaseFileRejected, again.Status)
	assert.Empty(t, again.Signers[0].RejectReason)
	require.ErrorIs(t, srv.RejectSigner(d.ID, d.Signers[1].ID, "late"), signkit.ErrConflict)
}

// FailCaseFile fails a pending case file: Get shows it failed and Errors
// its reason; a healthy case file has no errors (an empty, non-nil slice);
// a final one cannot fail again; the control route fails one too; an
// unknown case file is ErrNotFound, another user's ErrForbidden.
func TestIntegrationFailCaseFileErrors(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithJobDelay(0))
	healthy := sendLeaseForTwo(t, client, "Healthy").CaseFileID
	failing := sendLeaseForTwo(t, client, "Failing").CaseFileID

	reasons, err := client.CaseFiles.Errors(ctx(t), healthy)
	require.NoError(t, err)
	assert.NotNil(t, reasons)
	assert.Empty(t, reasons)

	require.NoError(t, srv.FailCaseFile(failing, "The archive refused the documents."))
	d, err := client.CaseFiles.Get(ctx(t), failing)
	require.NoError(t, err)
	assert.Equal(t, casefiles.CaseFileFailed, d.Status)
	reasons, err = client.CaseFiles.Errors(ctx(t), failing)
	require.NoError(t, err)
	assert.Equal(t, []string{"The archive refused the documents."}, reasons)
	require.ErrorIs(t, srv.FailCaseFile(failing, "again"), signkit.ErrConflict)
	require.ErrorIs(t, srv.FailCaseFile(999, "x"), signkit.ErrNotFound)

	control(t, srv, fmt.Sprintf("/mock/casefiles/%d/fail", healthy), map[string]string{"reason": "Out of paper."})
	reasons, err = client.CaseFiles.Errors(ctx(t), healthy)
	require.NoError(t, err)
	assert.Equal(t, []string{"Out of paper."}, reasons)

	_, err = client.CaseFiles.Errors(ctx(t), 999)
	require.ErrorIs(t, err, signkit.ErrNotFound)
	colleague, err := srv.AddUser(mockserver.UserSpec{Name: "Colleague"})
	require.NoError(t, err)
	cfg := srv.Config()
	cfg.Credentials = colleague.Credentials()
	other, err := signkit.NewClient(cfg)
	require.NoError(t, err)
	_, err = other.CaseFiles.Errors(ctx(t), failing)
	require.ErrorIs(t, err, signkit.ErrForbidden)
}

// A case file whose original is not a readable PDF fails when the last
// signer signs, and Errors names the document.
func TestIntegrationUnreadablePDFHasAReason(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithJobDelay(0))
	cf := &casefiles.CaseFile{Title: "Broken", Signers: []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "broken.pdf", Title: "Broken lease"}}}
	d := createAndGet(t, client, cf, casefiles.BytesUpload("broken.pdf", []byte("%PDF-1.4 and nothing else")))
	require.NoError(t, srv.SignerAction(d.ID, d.Signers[0].ID, mockserver.ActionSign))
	d, err := client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	require.Equal(t, casefiles.CaseFileFailed, d.Status)
	reasons, err := client.CaseFiles.Errors(ctx(t), d.ID)
	require.NoError(t, err)
	require.Len(t, reasons, 1)
	assert.Contains(t, reasons[0], `"Broken lease"`)
	assert.Contains(t, reasons[0], "not a readable PDF")
}

func leaseForTwo() *casefiles.CaseFile {
	return &casefiles.CaseFile{Title: "Lease",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}, {Name: "Bob", Email: "bob@example.com"}},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}}}
}

func leaseUpload() casefiles.Upload {
	return casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease"))
}

// sendLeaseForTwo creates a pending case file with two signers.
func sendLeaseForTwo(t *testing.T, client *signkit.Client, title string) *casefiles.Result {
	t.Helper()
	cf := leaseForTwo()
	cf.Title = title
	job, err := client.CaseFiles.Create(ctx(t), cf, leaseUpload())
	require.NoError(t, err)
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	return res
}

// controlStatus POSTs body (JSON) to a control route and answers the
// status and body.
func controlStatus(t *testing.T, srv *mockserver.Server, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(srv.URL()+path, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}
