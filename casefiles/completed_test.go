package casefiles_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/casefiles"
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
// goes out as the guide writes it: status=5, sort=-completed, completedAfter
// in unix seconds. (tests/sdk/casefiles checks the mock's answer to it.)
func TestListPollingQuery(t *testing.T) {
	t.Parallel()
	done := casefiles.CaseFileCompleted
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, listPath, 200, `[]`)
	_, err := e.Client.CaseFiles.List(ctx(t), &casefiles.ListOptions{Status: &done, Sort: "-completed", CompletedAfter: unix(1490000000)})
	require.NoError(t, err)
	u, err := url.Parse(rec.last().URL)
	require.NoError(t, err)
	assert.Equal(t, url.Values{"status": {"5"}, "sort": {"-completed"}, "completedAfter": {"1490000000"}}, u.Query())
}
