package casefiles_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// The vendor's polling query
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files)
// goes out as the guide writes it, and the mock answers it with the completion
// times: status=5, sort=-completed, completedAfter.
func TestListPollingQueryAgainstTheMock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	srv := mockserver.Start(t, mockserver.WithManualClock(start))
	client, err := signkit.NewClient(srv.Config())
	require.NoError(t, err)
	create := func(title string, sendAt *time.Time) *casefiles.Details {
		return createAndGet(t, client, &casefiles.CaseFile{Title: title, SendAt: sendAt,
			Signers:   []casefiles.Signer{{Name: "Ann", Email: "ann@example.com"}},
			Documents: []casefiles.Document{{Name: "a.pdf", Title: title}}},
			casefiles.BytesUpload("a.pdf", mockserver.SamplePDF(title)))
	}
	first, second := create("First", nil), create("Second", nil)
	later := start.Add(48 * time.Hour)
	pending := create("Later", &later)
	assert.True(t, first.Completed.IsZero(), "not completed yet")
	assert.True(t, pending.SendAt.Equal(later), "SendAt %v, want %v", pending.SendAt, later)
	assert.True(t, first.SendAt.IsZero())

	srv.Advance(time.Minute)
	require.NoError(t, srv.SignerAction(first.ID, first.Signers[0].ID, mockserver.ActionSign))
	firstDone := srv.Now()
	srv.Advance(time.Minute)
	require.NoError(t, srv.SignerAction(second.ID, second.Signers[0].ID, mockserver.ActionSign))
	secondDone := srv.Now()

	done := casefiles.CaseFileCompleted
	opts := &casefiles.ListOptions{Status: &done, Sort: "-completed", CompletedAfter: firstDone.Add(-time.Second)}
	got, err := client.CaseFiles.List(ctx(t), opts)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, []int64{second.ID, first.ID}, []int64{got[0].ID, got[1].ID}, "newest completion first")
	assert.True(t, got[0].Completed.Equal(secondDone.Truncate(time.Second)), "Completed %v, want %v", got[0].Completed, secondDone)
	assert.True(t, got[1].Completed.Equal(firstDone.Truncate(time.Second)), "Completed %v, want %v", got[1].Completed, firstDone)

	opts.Sort, opts.CompletedAfter = "completed", firstDone // exclusive: the first is left out
	got, err = client.CaseFiles.List(ctx(t), opts)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, second.ID, got[0].ID)
}
