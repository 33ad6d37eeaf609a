package casefiles_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// Details.Completed and SendAt decode like the other times: unix seconds,
// a number in a string, RFC 3339; null, 0, "" and an absent member are the
// zero time; anything else fails the decoding.
func TestDetailsCompletedAndSendAt(t *testing.T) {
	t.Parallel()
	at := unix(1767312000)
	for _, tc := range []struct {
		name, members     string
		completed, sendAt time.Time
	}{
		{"unix seconds", `"completed":1767312000,"sendAt":1767312000`, at, at},
		{"numbers in strings", `"completed":"1767312000","sendAt":"1767312000"`, at, at},
		{"RFC 3339", `"completed":"2026-01-02T00:00:00Z","sendAt":"2026-01-02T00:00:00Z"`, at, at},
		{"null", `"completed":null,"sendAt":null`, time.Time{}, time.Time{}},
		{"zero and empty", `"completed":0,"sendAt":""`, time.Time{}, time.Time{}},
		{"absent", `"title":"T"`, time.Time{}, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.reply(http.MethodGet, signURL, `/api/v1/casefiles/7`, 200, `{"id":7,`+tc.members+`}`)
			got, err := e.Client.CaseFiles.Get(ctx(t), 7)
			require.NoError(t, err)
			assert.True(t, tc.completed.Equal(got.Completed), "Completed %v, want %v", got.Completed, tc.completed)
			assert.True(t, tc.sendAt.Equal(got.SendAt), "SendAt %v, want %v", got.SendAt, tc.sendAt)
			assert.Equal(t, tc.completed.IsZero(), got.Completed.IsZero())
		})
	}
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, listPath, 200, `[{"id":1,"completed":"soon"}]`)
	_, err := e.Client.CaseFiles.List(ctx(t), nil)
	require.Error(t, err, "a completion time that is no time fails the decoding")
}

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

	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, listPath, 200, `[]`)
	_, err = e.Client.CaseFiles.List(ctx(t), &casefiles.ListOptions{Status: &done, Sort: "-completed", CompletedAfter: unix(1490000000)})
	require.NoError(t, err)
	u, err := url.Parse(rec.last().URL)
	require.NoError(t, err)
	assert.Equal(t, url.Values{"status": {"5"}, "sort": {"-completed"}, "completedAfter": {"1490000000"}}, u.Query())
}
