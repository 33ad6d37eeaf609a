package forms_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
)

func TestListSubmissionsEncodesOptions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, `/v1/forms/f1/submissions`, 200, submissionsJSON)
	after := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	got, err := e.Client.Forms.ListSubmissions(ctx(t), "f1", &forms.ListOptions{Limit: 50, Offset: 100, CompletedAfter: after})
	require.NoError(t, err)
	assert.Equal(t, []forms.Submission{{SubmissionID: 1, CaseFileID: 9, FormVersion: 1, CompletedAt: after}}, got)
	assert.Equal(t, formsURL+"/v1/forms/f1/submissions?completedAfter=2026-01-02T03%3A04%3A05Z&limit=50&offset=100", rec.last().URL)

	_, err = e.Client.Forms.ListSubmissions(ctx(t), "f1", nil)
	require.NoError(t, err)
	assert.Equal(t, formsURL+"/v1/forms/f1/submissions", rec.last().URL)
}

func TestListSubmissionsAcceptsABareArray(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, `/v1/forms/f1/submissions`, 200, `[{"submissionId":4,"caseFileId":5}]`)
	got, err := e.Client.Forms.ListSubmissions(ctx(t), "f1", nil)
	require.NoError(t, err)
	assert.Equal(t, []forms.Submission{{SubmissionID: 4, CaseFileID: 5}}, got)
}

func TestListOptionsAreCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		opts forms.ListOptions
		want []forms.Problem
	}{
		{forms.ListOptions{Limit: -1}, []forms.Problem{{Field: "Limit", Message: "must be 0 (the service's default) or 1 to 1000, not -1"}}},
		{forms.ListOptions{Limit: 1001}, []forms.Problem{{Field: "Limit", Message: "must be 0 (the service's default) or 1 to 1000, not 1001"}}},
		{forms.ListOptions{Offset: -5}, []forms.Problem{{Field: "Offset", Message: "must be at least 0, not -5"}}},
		{forms.ListOptions{CompletedAfter: t0.Add(time.Hour), CompletedBefore: t0}, []forms.Problem{{Field: "CompletedAfter", Message: "is after CompletedBefore"}}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.want), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t) // fails the test on any request
			_, err := e.Client.Forms.ListSubmissions(ctx(t), "f1", &tc.opts)
			var verr *forms.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Problems)
			assert.ErrorIs(t, err, signkit.ErrValidation)
			if tc.opts.Limit == 0 { // AllSubmissions ignores Limit, checks the rest
				err = drain(e.Client.Forms.AllSubmissions(ctx(t), "f1", &tc.opts))
				require.ErrorAs(t, err, &verr)
				assert.Equal(t, tc.want, verr.Problems)
			}
		})
	}
	for _, ok := range []int{0, 1, 1000} {
		require.NoError(t, (&forms.ListOptions{Limit: ok}).Validate())
	}
}

// fakeSubmissions serves total submissions with ids 1..total, paging by
// limit and offset, and records the requests.
func fakeSubmissions(t *testing.T, e *env, total int, withTotal bool) *recorder {
	return e.handle(http.MethodGet, `/v1/forms/f1/submissions`, func(r *http.Request, _ int) (*http.Response, error) {
		q := r.URL.Query()
		limit, _ := strconv.Atoi(q.Get("limit"))
		offset, _ := strconv.Atoi(q.Get("offset"))
		if limit == 0 {
			limit = 10
		}
		var items []string
		for id := offset + 1; id <= min(offset+limit, total); id++ {
			items = append(items, fmt.Sprintf(`{"submissionId":%d,"casefileId":%d}`, id, 10_000+id))
		}
		body := `{"items":[` + strings.Join(items, ",") + `],"limit":` + strconv.Itoa(limit) + `,"offset":` + strconv.Itoa(offset)
		if withTotal {
			body += `,"total":` + strconv.Itoa(total)
		}
		return jsonResponse(200, body+"}"), nil
	})
}

func TestAllSubmissionsYieldsEachOnceInThreeRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := fakeSubmissions(t, e, 2345, true)
	opts := &forms.ListOptions{Limit: 5}
	var ids []int64
	for s, err := range e.Client.Forms.AllSubmissions(ctx(t), "f1", opts) {
		require.NoError(t, err)
		ids = append(ids, s.SubmissionID)
	}
	require.Len(t, ids, 2345)
	for i, id := range ids {
		require.Equal(t, int64(i+1), id)
	}
	assert.Equal(t, 3, rec.count())
	assert.Equal(t, &forms.ListOptions{Limit: 5}, opts, "the caller's options are not changed")
	assert.Contains(t, rec.nth(2).URL, "limit=1000&offset=2000")
}

func TestAllSubmissionsWithoutTotalStopsOnAShortPage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ total, requests int }{{0, 1}, {999, 1}, {1000, 2}, {2000, 3}, {2345, 3}} {
		e := newEnv(t)
		rec := fakeSubmissions(t, e, tc.total, false)
		n := 0
		for _, err := range e.Client.Forms.AllSubmissions(ctx(t), "f1", nil) {
			require.NoError(t, err)
			n++
		}
		assert.Equal(t, tc.total, n)
		assert.Equal(t, tc.requests, rec.count(), "requests for %d", tc.total)
	}
}

func TestAllSubmissionsStartsAtTheCallersOffset(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	fakeSubmissions(t, e, 1500, true)
	var first int64
	n := 0
	for s, err := range e.Client.Forms.AllSubmissions(ctx(t), "f1", &forms.ListOptions{Offset: 1200}) {
		require.NoError(t, err)
		if n == 0 {
			first = s.SubmissionID
		}
		n++
	}
	assert.Equal(t, int64(1201), first)
	assert.Equal(t, 300, n)
}

func TestAllSubmissionsStopsWhenTheConsumerBreaks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := fakeSubmissions(t, e, 2345, true)
	n := 0
	for _, err := range e.Client.Forms.AllSubmissions(ctx(t), "f1", nil) {
		require.NoError(t, err)
		if n++; n == 1001 {
			break
		}
	}
	assert.Equal(t, 2, rec.count())
}

func TestAllSubmissionsYieldsTheFirstErrorOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.handle(http.MethodGet, `/v1/forms/f1/submissions`, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 2 {
			return jsonResponse(404, `{"statusCode":404,"error":"not_found","message":"gone"}`), nil
		}
		var items []string
		for id := 1; id <= 1000; id++ {
			items = append(items, fmt.Sprintf(`{"submissionId":%d}`, id))
		}
		return jsonResponse(200, `{"items":[`+strings.Join(items, ",")+`]}`), nil
	})
	var got, errs int
	for s, err := range e.Client.Forms.AllSubmissions(ctx(t), "f1", nil) {
		if err != nil {
			errs++
			assert.ErrorIs(t, err, signkit.ErrNotFound)
			assert.Zero(t, s)
			continue
		}
		got++
	}
	assert.Equal(t, 1000, got)
	assert.Equal(t, 1, errs)
	assert.Equal(t, 2, rec.count())
}

func TestAllSubmissionsEndsWhenTheServiceIgnoresOffset(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var items []string
	for id := 1; id <= 1000; id++ {
		items = append(items, fmt.Sprintf(`{"submissionId":%d}`, id))
	}
	rec := e.reply(http.MethodGet, `/v1/forms/f1/submissions`, 200, `{"items":[`+strings.Join(items, ",")+`]}`)
	var got int
	var lastErr error
	for _, err := range e.Client.Forms.AllSubmissions(ctx(t), "f1", nil) {
		if err != nil {
			lastErr = err
			continue
		}
		got++
	}
	assert.Equal(t, 1000, got)
	require.ErrorContains(t, lastErr, "repeats earlier submissions")
	assert.Equal(t, 2, rec.count())
}
