package casefiles_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// pdfText returns the text of a PDF as pdftotext (poppler) reads it. It
// skips the test only when pdftotext is absent and CI is unset; on CI a
// missing pdftotext fails the test.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("pdftotext (poppler-utils) is not installed and CI is unset, so the PDFs' text cannot be read: %v", err)
		}
		t.Fatalf("pdftotext is required when CI is set: %v", err)
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	require.NoError(t, os.WriteFile(path, pdf, 0o600))
	out, err := exec.CommandContext(t.Context(), bin, "-layout", path, "-").Output()
	require.NoError(t, err, "pdftotext")
	return string(out)
}

// originalText is the text of each document's original page, by title.
var originalText = map[string]string{"Lease": "Original page of the lease", "House rules": "Original page of the rules"}

// leaseCaseFile has two documents and two roles in two rounds: the
// landlord signs the lease first, then the tenant signs the lease and the
// house rules.
func leaseCaseFile(t *testing.T) (*casefiles.CaseFile, []casefiles.Upload) {
	cf := &casefiles.CaseFile{
		Title:     "Lease: Elm Street 12",
		Reference: "ELM-12",
		Signers: []casefiles.Signer{
			{Name: "Lena Landlord", Email: "lena@example.com", Role: "landlord", SignOrder: 0},
			{Name: "Tom Tenant", Email: "tom@example.com", Role: "tenant", SignOrder: 1},
		},
		Documents: []casefiles.Document{
			{Name: "lease.pdf", Title: "Lease", Roles: []string{"landlord", "tenant"}},
			{Name: "rules.pdf", Title: "House rules", Roles: []string{"tenant"}},
		},
	}
	return cf, []casefiles.Upload{
		casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF(originalText["Lease"])),
		casefiles.BytesUpload("rules.pdf", mockserver.SamplePDF(originalText["House rules"])),
	}
}

// The acceptance: two documents with signature lines for two roles, signed
// through the mock; Details take roles and rounds from the lines; each
// signed PDF, downloaded by its integer id, has the signers' page, and the
// original has not.
func TestIntegrationAcceptanceTwoRoles(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithJobDelay(10*time.Millisecond))
	cf, uploads := leaseCaseFile(t)
	// The uploads in the other order: Create sends them in the documents'.
	job, err := client.CaseFiles.Create(ctx(t), cf, uploads[1], uploads[0])
	require.NoError(t, err)
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)

	d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	require.Len(t, d.Signers, 2)
	byName := map[string]casefiles.SignerDetails{}
	for _, s := range d.Signers {
		byName[s.Name] = s
	}
	assert.Equal(t, "landlord", byName["Lena Landlord"].Role)
	assert.Equal(t, 0, byName["Lena Landlord"].SignOrder)
	assert.Equal(t, "tenant", byName["Tom Tenant"].Role)
	assert.Equal(t, 1, byName["Tom Tenant"].SignOrder)
	require.Len(t, d.Documents, 2)
	assert.Equal(t, []string{"Lease", "House rules"}, []string{d.Documents[0].Title, d.Documents[1].Title})
	signersOf := map[int64][]string{} // document id → names of its signers
	for _, doc := range d.Documents {
		assert.Positive(t, doc.ID)
		var roles []string
		for _, l := range doc.SignatureLines {
			roles = append(roles, l.Role)
			for _, s := range d.Signers {
				if s.ID == l.SignerID {
					signersOf[doc.ID] = append(signersOf[doc.ID], s.Name)
				}
			}
		}
		slices.Sort(roles)
		want := map[string][]string{"Lease": {"landlord", "tenant"}, "House rules": {"tenant"}}[doc.Title]
		assert.Equal(t, want, roles, "lines of %s", doc.Title)
	}

	for _, round := range []int{0, 1} {
		for _, s := range d.Signers {
			if s.SignOrder == round {
				control(t, srv, fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", d.ID, s.ID), nil)
			}
		}
	}
	d, err = client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	require.Equal(t, casefiles.CaseFileCompleted, d.Status, d.Status.String())

	checkSignedPDFs(t, client, d, signersOf)
}

// checkSignedPDFs downloads each document of d by its integer id, signed
// and original, and reads their text: the signed PDF has the original
// pages and the signers' page naming signersOf[doc.ID]; the original has
// not.
func checkSignedPDFs(t *testing.T, client *signkit.Client, d *casefiles.Details, signersOf map[int64][]string) {
	t.Helper()
	for _, doc := range d.Documents {
		var signed, orig bytes.Buffer
		_, err := client.CaseFiles.DownloadDocument(ctx(t), doc.ID, &signed)
		require.NoError(t, err)
		_, err = client.CaseFiles.DownloadDocument(ctx(t), doc.ID, &orig, casefiles.Original())
		require.NoError(t, err)
		signedText, origText := pdfText(t, signed.Bytes()), pdfText(t, orig.Bytes())
		assert.Contains(t, signedText, "Signatures", "the signers' page of %s", doc.Title)
		require.Contains(t, originalText, doc.Title)
		assert.Contains(t, signedText, originalText[doc.Title], "the original pages of %s", doc.Title)
		assert.Contains(t, origText, originalText[doc.Title])
		assert.NotContains(t, origText, "Signatures", "the original of %s has no signers' page", doc.Title)
		require.NotEmpty(t, signersOf[doc.ID])
		for _, name := range signersOf[doc.ID] {
			assert.Contains(t, signedText, name, "%s signed %s", name, doc.Title)
			assert.NotContains(t, origText, name)
		}
	}
}

// mockEmails lists the emails the mock has sent.
func mockEmails(t *testing.T, srv *mockserver.Server) []struct{ To, Subject string } {
	t.Helper()
	resp, err := http.Get(srv.URL() + "/mock/emails")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var out struct {
		Items []struct{ To, Subject string } `json:"items"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return out.Items
}

// The same case file sent twice to one mock: the second job ends
// aborted_duplicated, Wait returns the typed error naming the first job,
// and there is one case file and one set of emails.
func TestIntegrationDuplicate(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithJobDelay(10*time.Millisecond))
	cf, uploads := leaseCaseFile(t)
	first, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	res, err := client.CaseFiles.Wait(ctx(t), first)
	require.NoError(t, err)
	emails := mockEmails(t, srv)
	require.NotEmpty(t, emails, "the first round was asked to sign")

	second, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err, "the platform accepts the request; the job is what it aborts")
	assert.Equal(t, first.PayloadHash, second.PayloadHash, "the same payload")
	assert.NotEqual(t, first.UUID, second.UUID)
	_, err = client.CaseFiles.Wait(ctx(t), second)
	require.ErrorIs(t, err, casefiles.ErrDuplicate)
	var dupErr *casefiles.DuplicateError
	require.True(t, errors.As(err, &dupErr), "%v", err)
	assert.Equal(t, *second, dupErr.Job)
	assert.Equal(t, first.UUID, dupErr.FirstUUID, "the message names the first job: %q", dupErr.Message)

	st, err := client.CaseFiles.Status(ctx(t), second)
	require.NoError(t, err)
	assert.Equal(t, casefiles.JobAbortedDuplicated, st.State)
	assert.Nil(t, st.Result)

	list, err := client.CaseFiles.List(ctx(t), nil)
	require.NoError(t, err)
	require.Len(t, list, 1, "one case file")
	assert.Equal(t, res.CaseFileID, list[0].ID)
	assert.Equal(t, emails, mockEmails(t, srv), "no second set of emails")
}

// List filters and pages on the mock; All reads every page and ends;
// Delete removes a case file that was never completed.
func TestIntegrationListAllDelete(t *testing.T) {
	t.Parallel()
	_, client := newMockClient(t, mockserver.WithJobDelay(10*time.Millisecond))
	var ids []int64
	for i := range 3 {
		cf, uploads := leaseCaseFile(t)
		cf.Title = fmt.Sprintf("Lease %d", i)
		cf.Reference = fmt.Sprintf("REF-%d", i)
		job, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
		require.NoError(t, err)
		res, err := client.CaseFiles.Wait(ctx(t), job)
		require.NoError(t, err)
		ids = append(ids, res.CaseFileID)
	}

	page, err := client.CaseFiles.List(ctx(t), &casefiles.ListOptions{PerPage: 2})
	require.NoError(t, err)
	require.Len(t, page, 2, "one page of two")
	assert.Equal(t, []int64{ids[2], ids[1]}, []int64{page[0].ID, page[1].ID}, "newest first")

	var all []int64
	for d, err := range client.CaseFiles.All(ctx(t), &casefiles.ListOptions{PerPage: 2}) {
		require.NoError(t, err)
		all = append(all, d.ID)
	}
	assert.Equal(t, []int64{ids[2], ids[1], ids[0]}, all, "every page, then the end")

	byRef, err := client.CaseFiles.List(ctx(t), &casefiles.ListOptions{Reference: "REF-1"})
	require.NoError(t, err)
	require.Len(t, byRef, 1)
	assert.Equal(t, ids[1], byRef[0].ID)

	for status, want := range map[casefiles.CaseFileStatus]int{casefiles.CaseFilePending: 3, casefiles.CaseFileCompleted: 0} {
		got, err := client.CaseFiles.List(ctx(t), &casefiles.ListOptions{Status: &status, IDs: ids})
		require.NoError(t, err)
		assert.Len(t, got, want, "status %s", status)
	}

	require.NoError(t, client.CaseFiles.Delete(ctx(t), ids[0]))
	_, err = client.CaseFiles.Get(ctx(t), ids[0])
	require.ErrorIs(t, err, signkit.ErrNotFound)
}

// sendLease creates a lease case file titled title in folder (0: none) on
// a mock with a manual clock and answers its id.
func sendLease(t *testing.T, srv *mockserver.Server, client *signkit.Client, title string, folder int64) int64 {
	t.Helper()
	cf, uploads := leaseCaseFile(t)
	cf.Title, cf.FolderID = title, folder
	job, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	srv.Advance(mockserver.DefaultJobDelay) // the job runs on the mock's clock
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	return res.CaseFileID
}

// signLease has every signer of a case file sign, round after round, and
// checks that it completed.
func signLease(t *testing.T, srv *mockserver.Server, client *signkit.Client, id int64) {
	t.Helper()
	d, err := client.CaseFiles.Get(ctx(t), id)
	require.NoError(t, err)
	for _, round := range []int{0, 1} {
		for _, s := range d.Signers {
			if s.SignOrder == round {
				require.NoError(t, srv.SignerAction(id, s.ID, mockserver.ActionSign))
			}
		}
	}
	d, err = client.CaseFiles.Get(ctx(t), id)
	require.NoError(t, err)
	require.Equal(t, casefiles.CaseFileCompleted, d.Status, d.Status.String())
}

// listIDs answers the ids List returns for opts.
func listIDs(t *testing.T, client *signkit.Client, opts *casefiles.ListOptions) []int64 {
	t.Helper()
	got, err := client.CaseFiles.List(ctx(t), opts)
	require.NoError(t, err)
	ids := []int64{}
	for _, d := range got {
		ids = append(ids, d.ID)
	}
	return ids
}

// The acceptance of the completed and updated windows
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// List): one case file completed before T, one after; a third sent after T but
// never completed. CompletedAfter T lists only the second, CompletedBefore T
// only the first, UpdatedBefore T only the first.
func TestIntegrationListCompletedWindow(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithManualClock(time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)))
	early := sendLease(t, srv, client, "Completed early", 0)
	srv.Advance(time.Minute)
	signLease(t, srv, client, early)
	srv.Advance(time.Hour)
	T := srv.Now()
	srv.Advance(time.Hour)
	late := sendLease(t, srv, client, "Completed late", 0)
	srv.Advance(time.Minute)
	signLease(t, srv, client, late)
	pending := sendLease(t, srv, client, "Never completed", 0)

	assert.Equal(t, []int64{pending, late, early}, listIDs(t, client, nil), "three case files")
	assert.Equal(t, []int64{late}, listIDs(t, client, &casefiles.ListOptions{CompletedAfter: T}))
	assert.Equal(t, []int64{early}, listIDs(t, client, &casefiles.ListOptions{CompletedBefore: T}))
	assert.Equal(t, []int64{early}, listIDs(t, client, &casefiles.ListOptions{UpdatedBefore: T}))
	assert.Equal(t, []int64{pending, late}, listIDs(t, client, &casefiles.ListOptions{UpdatedAfter: T}))
	assert.Equal(t, []int64{pending, late}, listIDs(t, client, &casefiles.ListOptions{ActivatedAfter: T}))
	assert.Equal(t, []int64{late}, listIDs(t, client, &casefiles.ListOptions{
		CompletedAfter: T, CompletedBefore: srv.Now().Add(time.Second)}), "a window with both bounds")

	// All sends the window with every page.
	var all []int64
	for d, err := range client.CaseFiles.All(ctx(t), &casefiles.ListOptions{CompletedAfter: T.Add(-3 * time.Hour), PerPage: 1}) {
		require.NoError(t, err)
		all = append(all, d.ID)
	}
	assert.Equal(t, []int64{late, early}, all)
}

// The acceptance of FolderIDs
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// List): case files in folders 7 and 8 and one in none; the filter lists those
// in the folders named, alone and with a window.
func TestIntegrationListFolderIDs(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithManualClock(time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)))
	seven := sendLease(t, srv, client, "In folder 7", 7)
	srv.Advance(time.Minute)
	signLease(t, srv, client, seven)
	srv.Advance(time.Minute)
	eight := sendLease(t, srv, client, "In folder 8", 8)
	srv.Advance(time.Minute)
	none := sendLease(t, srv, client, "In no folder", 0)

	assert.Equal(t, []int64{none, eight, seven}, listIDs(t, client, nil))
	assert.Equal(t, []int64{seven}, listIDs(t, client, &casefiles.ListOptions{FolderIDs: []int64{7}}))
	assert.Equal(t, []int64{eight, seven}, listIDs(t, client, &casefiles.ListOptions{FolderIDs: []int64{8, 7}}))
	assert.Equal(t, []int64{}, listIDs(t, client, &casefiles.ListOptions{FolderIDs: []int64{9}}))
	assert.Equal(t, []int64{seven}, listIDs(t, client, &casefiles.ListOptions{
		FolderIDs: []int64{7, 8}, CompletedAfter: time.Unix(1, 0)}), "folders and a window together")
}
