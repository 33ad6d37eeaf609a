package casefiles_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// The flows of package casefiles' examples ExampleClient_List_completed and
// ExampleClient_UpdateSigningRequest, which run against a small stand-in
// of the platform there, run here against the mock in process, with the
// outputs the examples printed when they ran on the mock.

// manualMock is a client of an in-process mock whose clock stands still at
// 2026-03-02 09:00 UTC until advanced, reached through its transport.
func manualMock(t *testing.T) (*mockserver.Server, *signkit.Client) {
	t.Helper()
	srv := mockserver.New(mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)))
	t.Cleanup(srv.Close)
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: srv.Transport()}
	client, err := signkit.NewClient(cfg)
	require.NoError(t, err)
	return srv, client
}

// createOne creates a case file with one signer and waits for its job.
func createOne(t *testing.T, client *signkit.Client, title, name, email, file string) *casefiles.Details {
	t.Helper()
	job, err := client.CaseFiles.Create(ctx(t), &casefiles.CaseFile{Title: title,
		Signers:   []casefiles.Signer{{Name: name, Email: email}},
		Documents: []casefiles.Document{{Name: file, Title: title}},
	}, casefiles.BytesUpload(file, mockserver.SamplePDF(title)))
	require.NoError(t, err)
	res, err := client.CaseFiles.Wait(ctx(t), job)
	require.NoError(t, err)
	d, err := client.CaseFiles.Get(ctx(t), res.CaseFileID)
	require.NoError(t, err)
	return d
}

func TestExampleListCompletedFlowAgainstTheMock(t *testing.T) {
	t.Parallel()
	srv, client := manualMock(t)
	since := srv.Now()
	for _, title := range []string{"Lease", "Loan"} {
		d := createOne(t, client, title, "Ann", "ann@example.com", "doc.pdf")
		srv.Advance(time.Hour)
		require.NoError(t, srv.SignerAction(d.ID, d.Signers[0].ID, mockserver.ActionSign))
	}

	completed := casefiles.CaseFileCompleted
	done, err := client.CaseFiles.List(ctx(t), &casefiles.ListOptions{
		Status: &completed, Sort: "-completed", CompletedAfter: since,
	})
	require.NoError(t, err)
	var got []string
	for _, d := range done {
		got = append(got, d.Title+" completed "+d.Completed.UTC().Format(time.DateTime))
	}
	assert.Equal(t, []string{"Loan completed 2026-03-02 11:00:00", "Lease completed 2026-03-02 10:00:00"}, got)
	require.Len(t, done, 2)
	assert.Greater(t, done[0].ID, done[1].ID, "the Loan was created second")
}

func TestExampleUpdateSigningRequestFlowAgainstTheMock(t *testing.T) {
	t.Parallel()
	srv, client := manualMock(t)
	d := createOne(t, client, "Lease", "Ada", "ada@exmaple.com", "lease.pdf") // mistyped
	require.NoError(t, srv.SignerAction(d.ID, d.Signers[0].ID, mockserver.ActionUndeliverable))
	d, err := client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	ada := d.Signers[0]
	assert.Equal(t, "ada@exmaple.com", ada.Email)
	assert.Equal(t, casefiles.SignerUndeliverable, ada.Status)

	require.NoError(t, client.CaseFiles.UpdateSigningRequest(ctx(t), ada.SigningRequestID, &casefiles.SigningRequestUpdate{
		Email: signkit.Ptr("ada@example.com"),
	}))
	require.NoError(t, client.CaseFiles.ResendSigningRequest(ctx(t), ada.SigningRequestID))
	d, err = client.CaseFiles.Get(ctx(t), d.ID)
	require.NoError(t, err)
	assert.Equal(t, "ada@example.com", d.Signers[0].Email)
	assert.Equal(t, casefiles.SignerPending, d.Signers[0].Status)

	link, err := client.CaseFiles.SigningRequestLink(ctx(t), ada.SigningRequestID)
	require.NoError(t, err)
	mails := srv.EmailsTo("ada@example.com")
	require.Len(t, mails, 1, "the request was sent again, once, to the corrected address")
	for _, m := range mails {
		assert.Equal(t, `Please sign "Lease"`, m.Subject)
		assert.Equal(t, link, m.SigningLink)
	}
}
