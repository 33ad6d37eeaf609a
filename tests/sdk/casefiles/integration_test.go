package casefiles_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// threeDocuments is the acceptance case file: three documents (the terms
// are not signable) and three signers in two rounds with roles.
func threeDocuments(t *testing.T) (*casefiles.CaseFile, []casefiles.Upload) {
	cf := &casefiles.CaseFile{
		Title: "Shareholder agreement",
		Signers: []casefiles.Signer{
			{Name: "Ada Owner", Email: "ada@example.com", Role: "owner", SignOrder: 0, ReminderInterval: 1},
			{Name: "Ben Owner", Email: "ben@example.com", Role: "owner", SignOrder: 0},
			{Name: "Cleo Chair", Role: "chair", SignOrder: 1, EmailSubject: "Your turn to sign"},
		},
		Documents: []casefiles.Document{
			{Name: "agreement.pdf", Title: "Agreement", Roles: []string{"owner", "chair"}},
			{Name: "minutes.pdf", Title: "Minutes", Roles: []string{"chair"}},
			{Name: "terms.pdf", Title: "Terms", Signable: signkit.Ptr(false)},
		},
	}
	var uploads []casefiles.Upload
	for _, d := range cf.Documents {
		uploads = append(uploads, casefiles.BytesUpload(d.Name, mockserver.SamplePDF(d.Title)))
	}
	return cf, uploads
}

func newMockClient(t *testing.T, opts ...mockserver.Option) (*mockserver.Server, *signkit.Client) {
	t.Helper()
	srv := mockserver.Start(t, opts...)
	client, err := signkit.NewClient(srv.Config())
	require.NoError(t, err)
	return srv, client
}

// control POSTs a control API call of the mock.
func control(t *testing.T, srv *mockserver.Server, path string, body any) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		require.NoError(t, err)
		r = bytes.NewReader(b)
	}
	resp, err := http.Post(srv.URL()+path, "application/json", r)
	require.NoError(t, err)
	defer resp.Body.Close()
	msg, _ := io.ReadAll(resp.Body)
	require.Less(t, resp.StatusCode, 300, "POST %s: %s", path, msg)
}

func TestIntegrationCreateSignDownload(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t)
	cf, uploads := threeDocuments(t)
	job, err := client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	require.Len(t, res.SigningLinks, 3)
	for _, l := range res.SigningLinks {
		assert.NotEmpty(t, l.URL, l.Name)
	}

	d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	assert.Equal(t, "Shareholder agreement", d.Title)
	assert.Equal(t, casefiles.CaseFilePending, d.Status)
	require.Len(t, d.Signers, 3)
	require.Len(t, d.Documents, 3)
	signable := map[string]bool{}
	for _, doc := range d.Documents {
		signable[doc.Title] = doc.Signable
	}
	assert.Equal(t, map[string]bool{"Agreement": true, "Minutes": true, "Terms": false}, signable)
	for _, s := range d.Signers {
		want := casefiles.SignerPending
		if s.SignOrder == 1 {
			want = casefiles.SignerNew // the second round waits for the first
		}
		assert.Equal(t, want, s.Status, s.Name)
	}

	// Round 0 first, then round 1.
	for _, round := range []int{0, 1} {
		for _, s := range d.Signers {
			if s.SignOrder == round {
				control(t, srv, fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", d.ID, s.ID), nil)
			}
		}
	}
	d, err = client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	assert.Equal(t, casefiles.CaseFileCompleted, d.Status, d.Status.String())
	for _, s := range d.Signers {
		assert.Equal(t, casefiles.SignerSigned, s.Status, s.Name)
	}
	for _, doc := range d.Documents {
		if !doc.Signable {
			continue
		}
		var pdf bytes.Buffer
		n, err := client.CaseFiles.DownloadDocument(ctx(t), doc.ID, &pdf)
		require.NoError(t, err)
		assert.Equal(t, int64(pdf.Len()), n)
		assert.True(t, bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")), "signed %s starts with %%PDF-", doc.Title)

		content, err := client.CaseFiles.DocumentContent(ctx(t), doc.ID)
		require.NoError(t, err)
		assert.True(t, content.Signed)
		assert.True(t, bytes.HasPrefix(content.Content, []byte("%PDF-")))

		orig, err := client.CaseFiles.DocumentContent(ctx(t), doc.ID, casefiles.Original())
		require.NoError(t, err)
		assert.False(t, orig.Signed)
		pdf.Reset()
		_, err = client.CaseFiles.DownloadDocument(ctx(t), doc.ID, &pdf, casefiles.Original())
		require.NoError(t, err)
		assert.Equal(t, orig.Content, pdf.Bytes())
	}
}

// The mock's own validation agrees with Validate: what Validate cannot see
// (a file that is not a PDF) comes back as a 422 with details.
func TestIntegrationServerValidation(t *testing.T) {
	t.Parallel()
	_, client := newMockClient(t)
	cf := &casefiles.CaseFile{Title: "T", Signers: []casefiles.Signer{{Name: "A"}}, Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}
	_, err := client.CaseFiles.Create(ctx(t), cf, casefiles.BytesUpload("a.pdf", []byte("not a pdf")))
	require.ErrorIs(t, err, signkit.ErrValidation)
	var apiErr *signkit.Error
	require.ErrorAs(t, err, &apiErr)
	require.NotEmpty(t, apiErr.Details)
	assert.Contains(t, apiErr.Details[0].Message, "not a PDF")
}

func TestIntegrationUnknownJob(t *testing.T) {
	t.Parallel()
	_, client := newMockClient(t)
	_, err := client.CaseFiles.Status(ctx(t), &casefiles.Job{UUID: "00000000-0000-0000-0000-000000000000", PayloadHash: "00"})
	require.ErrorIs(t, err, signkit.ErrNotFound)
}

// A token that expired on the mock's clock is answered 401; the SDK renews
// it and re-sends the whole upload, which creates one case file.
func TestIntegrationRenewalResendsUpload(t *testing.T) {
	t.Parallel()
	srv, client := newMockClient(t, mockserver.WithManualClock(time.Now()))
	_, err := client.CaseFiles.Status(ctx(t), &casefiles.Job{UUID: "x", PayloadHash: "y"}) // no token needed
	require.ErrorIs(t, err, signkit.ErrNotFound)
	_, err = client.CaseFiles.Get(ctx(t), 1) // fetches a token
	require.ErrorIs(t, err, signkit.ErrNotFound)
	srv.Advance(11 * time.Minute) // the token has expired for the mock only

	cf, uploads := threeDocuments(t)
	var opens atomic.Int32
	for i := range uploads {
		uploads[i] = countingUpload(uploads[i], &opens)
	}
	_, err = client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	assert.Equal(t, int32(6), opens.Load(), "3 files, each sent twice")
	assert.Equal(t, 2, createRequests(t, srv))
	assert.Equal(t, 1, caseFilesExist(t, srv, client))
}

// createRequests counts the create requests in the mock's journal.
func createRequests(t *testing.T, srv *mockserver.Server) int {
	t.Helper()
	resp, err := http.Get(srv.URL() + "/mock/requests")
	require.NoError(t, err)
	defer resp.Body.Close()
	var out struct {
		Items []struct{ Method, Path string } `json:"items"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	n := 0
	for _, r := range out.Items {
		if r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/casefiles/20251022/create") {
			n++
		}
	}
	return n
}

// caseFilesExist runs every due job (on the mock's manual clock) and
// reports how many case files exist (ids are assigned from 1 up).
func caseFilesExist(t *testing.T, srv *mockserver.Server, client *signkit.Client) int {
	t.Helper()
	srv.Advance(time.Minute)
	n := 0
	for ; ; n++ {
		if _, err := client.CaseFiles.Get(ctx(t), int64(n+1)); err != nil {
			require.ErrorIs(t, err, signkit.ErrNotFound)
			return n
		}
	}
}
