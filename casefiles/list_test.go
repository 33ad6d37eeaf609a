package casefiles_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

const listPath = `/api/v1/casefiles`

func TestListDecodesFixture(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, listPath, 200, fixture(t, "casefiles_list.json"))
	got, err := e.Client.CaseFiles.List(ctx(t), nil)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, casefiles.Details{
		ID: 4712, Title: "Lease: Oak Road 3", Status: casefiles.CaseFileNew, UserID: 12, CustomerID: 3,
		Created: unix(1767312000), Updated: unix(1767312000), Language: "da", Reference: "OAK-3",
	}, got[0])
	assert.Equal(t, int64(4711), got[1].ID)
	assert.Equal(t, casefiles.CaseFileCompleted, got[1].Status)
	assert.Equal(t, "landlord", got[1].Signers[0].Role, "the role comes from the signature line")
	assert.Equal(t, int64(9001), got[1].Documents[0].ID)

	r := rec.last()
	assert.Equal(t, signURL+listPath, r.URL, "no options, no query")
	assert.Equal(t, "Bearer tok-1", r.Auth)
	assert.Equal(t, "true", rec.Last().Header.Get("X-Paginate"), "List asks for one page")
}

func TestListSendsFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, listPath, 200, `{"items":[{"id":1,"title":"T"}]}`)
	completed := casefiles.CaseFileCompleted
	after := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	got, err := e.Client.CaseFiles.List(ctx(t), &casefiles.ListOptions{
		Status: &completed, Title: "Lease & co", MetaData: "crm:7", Reference: "ELM-12", IDs: []int64{3, 1, 2},
		CreatedAfter: after, CreatedBefore: after.Add(24 * time.Hour), Sort: "-created", Page: 2, PerPage: 50,
	})
	require.NoError(t, err)
	assert.Equal(t, []casefiles.Details{{ID: 1, Title: "T"}}, got, `an {"items":[...]} answer is read too`)
	u, err := url.Parse(rec.last().URL)
	require.NoError(t, err)
	assert.Equal(t, url.Values{
		"status": {"5"}, "title": {"Lease & co"}, "metaData": {"crm:7"}, "reference": {"ELM-12"}, "ids": {"3,1,2"},
		"createdAfter": {"1767225600"}, "createdBefore": {"1767312000"}, "sort": {"-created"},
		"page": {"2"}, "perPage": {"50"}, "per_page": {"50"},
	}, u.Query())

	// Status 0 ("new") is a filter too.
	st := casefiles.CaseFileNew
	_, err = e.Client.CaseFiles.List(ctx(t), &casefiles.ListOptions{Status: &st})
	require.NoError(t, err)
	assert.Equal(t, signURL+listPath+"?status=0", rec.last().URL)
}

func TestListOptionsValidate(t *testing.T) {
	t.Parallel()
	neg := casefiles.CaseFileStatus(-1)
	now := time.Now()
	err := (&casefiles.ListOptions{
		Status: &neg, IDs: []int64{1, 0}, CreatedAfter: now, CreatedBefore: now.Add(-time.Second),
		Sort: "created desc", Page: -1, PerPage: -5,
	}).Validate()
	var verr *casefiles.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, []casefiles.Problem{
		{Field: "Status", Message: "must be 0 or more, got -1"},
		{Field: "IDs[1]", Message: "must be positive, got 0"},
		{Field: "CreatedAfter", Message: "is after CreatedBefore"},
		{Field: "Sort", Message: `must be field names separated by commas, each optionally after - or +, got "created desc"`},
		{Field: "Page", Message: "must be 0 or more, got -1"},
		{Field: "PerPage", Message: "must be 0 (the platform's default) or more, got -5"},
	}, verr.Problems)
	assert.NoError(t, (&casefiles.ListOptions{Sort: "-created,title"}).Validate())
	var nilOpts *casefiles.ListOptions
	assert.NoError(t, nilOpts.Validate())
}

// Each window filter and the folder filter go under the names of the agent
// skill's scripts/node/list-casefiles.js
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// List): times as unix seconds, folder ids as one comma-separated parameter.
func TestListSendsWindowAndFolderFilters(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 1, 12, 30, 45, 999_000_000, time.FixedZone("CET", 3600)) // 1772364645
	for name, tc := range map[string]struct {
		opts casefiles.ListOptions
		want url.Values
	}{
		"CompletedAfter":  {casefiles.ListOptions{CompletedAfter: at}, url.Values{"completedAfter": {"1772364645"}}},
		"CompletedBefore": {casefiles.ListOptions{CompletedBefore: at}, url.Values{"completedBefore": {"1772364645"}}},
		"ActivatedAfter":  {casefiles.ListOptions{ActivatedAfter: at}, url.Values{"activatedAfter": {"1772364645"}}},
		"ActivatedBefore": {casefiles.ListOptions{ActivatedBefore: at}, url.Values{"activatedBefore": {"1772364645"}}},
		"ExpiresAfter":    {casefiles.ListOptions{ExpiresAfter: at}, url.Values{"expiresAfter": {"1772364645"}}},
		"ExpiresBefore":   {casefiles.ListOptions{ExpiresBefore: at}, url.Values{"expiresBefore": {"1772364645"}}},
		"UpdatedAfter":    {casefiles.ListOptions{UpdatedAfter: at}, url.Values{"updatedAfter": {"1772364645"}}},
		"UpdatedBefore":   {casefiles.ListOptions{UpdatedBefore: at}, url.Values{"updatedBefore": {"1772364645"}}},
		"FolderIDs":       {casefiles.ListOptions{FolderIDs: []int64{42, 7, 1001}}, url.Values{"folderIds": {"42,7,1001"}}},
		"one folder":      {casefiles.ListOptions{FolderIDs: []int64{9}}, url.Values{"folderIds": {"9"}}},
		"every window": {casefiles.ListOptions{
			CompletedAfter: at, CompletedBefore: at.Add(time.Hour), ActivatedAfter: at.Add(-time.Hour),
			ActivatedBefore: at, ExpiresAfter: at, ExpiresBefore: at.Add(48 * time.Hour),
			UpdatedAfter: at.Add(-time.Second), UpdatedBefore: at.Add(time.Second), FolderIDs: []int64{3},
		}, url.Values{
			"completedAfter": {"1772364645"}, "completedBefore": {"1772368245"},
			"activatedAfter": {"1772361045"}, "activatedBefore": {"1772364645"},
			"expiresAfter": {"1772364645"}, "expiresBefore": {"1772537445"},
			"updatedAfter": {"1772364644"}, "updatedBefore": {"1772364646"}, "folderIds": {"3"},
		}},
		"zero times and no folders are left out": {casefiles.ListOptions{FolderIDs: []int64{}}, url.Values{}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.reply(http.MethodGet, signURL, listPath, 200, `[]`)
			_, err := e.Client.CaseFiles.List(ctx(t), &tc.opts)
			require.NoError(t, err)
			u, err := url.Parse(rec.last().URL)
			require.NoError(t, err)
			assert.Equal(t, tc.want, u.Query())
		})
	}
}

// All sends the folder and window filters with every page and works on
// a copy of the folder ids: a caller who reuses its slice while iterating
// does not change the later pages' query.
func TestAllSendsFolderFiltersOnEveryPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.handle(http.MethodGet, signURL, listPath, pages(t, []int64{4, 3}, []int64{2}))
	at := time.Unix(1767225600, 0)
	opts := &casefiles.ListOptions{FolderIDs: []int64{5, 6}, CompletedAfter: at, PerPage: 2}
	var ids []int64
	for d, err := range e.Client.CaseFiles.All(ctx(t), opts) {
		require.NoError(t, err)
		ids = append(ids, d.ID)
		opts.FolderIDs[0] = 99
	}
	assert.Equal(t, []int64{4, 3, 2}, ids)
	require.Equal(t, 2, rec.count())
	for _, r := range rec.all() {
		u, err := url.Parse(r.URL)
		require.NoError(t, err)
		assert.Equal(t, "5,6", u.Query().Get("folderIds"))
		assert.Equal(t, "1767225600", u.Query().Get("completedAfter"))
	}
}

func TestListOptionsValidateWindowsAndFolders(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	later := t0.Add(time.Nanosecond)
	for name, tc := range map[string]struct {
		opts casefiles.ListOptions
		want []casefiles.Problem // nil: valid
	}{
		"CompletedAfter after CompletedBefore": {casefiles.ListOptions{CompletedAfter: later, CompletedBefore: t0},
			[]casefiles.Problem{{Field: "CompletedAfter", Message: "is after CompletedBefore"}}},
		"ActivatedAfter after ActivatedBefore": {casefiles.ListOptions{ActivatedAfter: later, ActivatedBefore: t0},
			[]casefiles.Problem{{Field: "ActivatedAfter", Message: "is after ActivatedBefore"}}},
		"ExpiresAfter after ExpiresBefore": {casefiles.ListOptions{ExpiresAfter: later, ExpiresBefore: t0},
			[]casefiles.Problem{{Field: "ExpiresAfter", Message: "is after ExpiresBefore"}}},
		"UpdatedAfter after UpdatedBefore": {casefiles.ListOptions{UpdatedAfter: later, UpdatedBefore: t0},
			[]casefiles.Problem{{Field: "UpdatedAfter", Message: "is after UpdatedBefore"}}},
		"every window reversed, in field order": {casefiles.ListOptions{
			CreatedAfter: later, CreatedBefore: t0, CompletedAfter: later, CompletedBefore: t0,
			ActivatedAfter: later, ActivatedBefore: t0, ExpiresAfter: later, ExpiresBefore: t0,
			UpdatedAfter: later, UpdatedBefore: t0,
		}, []casefiles.Problem{
			{Field: "CreatedAfter", Message: "is after CreatedBefore"},
			{Field: "CompletedAfter", Message: "is after CompletedBefore"},
			{Field: "ActivatedAfter", Message: "is after ActivatedBefore"},
			{Field: "ExpiresAfter", Message: "is after ExpiresBefore"},
			{Field: "UpdatedAfter", Message: "is after UpdatedBefore"},
		}},
		"windows do not mix": {casefiles.ListOptions{CompletedAfter: later, UpdatedBefore: t0}, nil},
		"equal bounds":       {casefiles.ListOptions{CompletedAfter: t0, CompletedBefore: t0, ExpiresAfter: t0, ExpiresBefore: t0}, nil},
		"only one bound":     {casefiles.ListOptions{ActivatedAfter: later, ExpiresBefore: t0}, nil},
		"folder ids not positive": {casefiles.ListOptions{FolderIDs: []int64{3, 0, -2}}, []casefiles.Problem{
			{Field: "FolderIDs[1]", Message: "must be positive, got 0"},
			{Field: "FolderIDs[2]", Message: "must be positive, got -2"},
		}},
		"folder ids positive": {casefiles.ListOptions{FolderIDs: []int64{1, 9_000_000_000}}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := tc.opts.Validate()
			if tc.want == nil {
				require.NoError(t, err)
				return
			}
			var verr *casefiles.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Problems)

			// List refuses the same options without sending.
			e := newEnv(t)
			rec := e.reply(http.MethodGet, signURL, listPath, 200, `[]`)
			_, err = e.Client.CaseFiles.List(ctx(t), &tc.opts)
			require.ErrorAs(t, err, &verr)
			assert.Zero(t, rec.count())
		})
	}
}

// pages answers page n (from the page query) with the ids of pages[n-1]
// and a Link rel="next" while more follow.
func pages(t *testing.T, pages ...[]int64) func(*http.Request, int) (*http.Response, error) {
	return func(r *http.Request, _ int) (*http.Response, error) {
		assert.Equal(t, "true", r.Header.Get("X-Paginate"))
		n := 1
		if p := r.URL.Query().Get("page"); p != "" {
			_, err := fmt.Sscan(p, &n)
			require.NoError(t, err)
		}
		body := "["
		for i, id := range pages[n-1] {
			if i > 0 {
				body += ","
			}
			body += fmt.Sprintf(`{"id":%d,"title":"cf %d"}`, id, id)
		}
		resp := jsonResponse(200, body+"]")
		if n < len(pages) {
			resp.Header.Add("Link", fmt.Sprintf(`<https://elsewhere.test/api/v1/casefiles?ids=1,2&page=%d&per_page=2>; rel="next", <https://elsewhere.test/api/v1/casefiles?page=1&per_page=2>; rel="first"`, n+1))
		}
		return resp, nil
	}
}

func collect(t *testing.T, c *casefiles.Client, opts *casefiles.ListOptions) ([]int64, error) {
	t.Helper()
	var ids []int64
	for d, err := range c.All(ctx(t), opts) {
		if err != nil {
			return ids, err
		}
		ids = append(ids, d.ID)
	}
	return ids, nil
}

// All follows Link rel="next" and ends after the page without one.
func TestAllFollowsLinksAndEnds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.handle(http.MethodGet, signURL, listPath, pages(t, []int64{9, 8}, []int64{7, 6}, []int64{5}))
	opts := &casefiles.ListOptions{PerPage: 2, Title: "cf"}
	ids, err := collect(t, e.Client.CaseFiles, opts)
	require.NoError(t, err)
	assert.Equal(t, []int64{9, 8, 7, 6, 5}, ids)
	assert.Equal(t, 3, rec.count(), "one request per page, none after the last")
	for i, r := range rec.all() {
		u, err := url.Parse(r.URL)
		require.NoError(t, err)
		assert.Equal(t, "platform.test", u.Host, "only the page number is taken from the link")
		assert.Equal(t, fmt.Sprint(i+1), u.Query().Get("page"))
		assert.Equal(t, "cf", u.Query().Get("title"), "the filters go with every page")
	}
	assert.Equal(t, &casefiles.ListOptions{PerPage: 2, Title: "cf"}, opts, "the caller's options are not changed")
}

func TestAllEnds(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		handler  func(*http.Request, int) (*http.Response, error)
		want     []int64
		requests int
		err      string
	}{
		"one page without link": {pages(t, []int64{1, 2}), []int64{1, 2}, 1, ""},
		"an empty page":         {pages(t, []int64{}), nil, 1, ""},
		"an empty page with a link": {func(*http.Request, int) (*http.Response, error) {
			r := jsonResponse(200, `[]`)
			r.Header.Set("Link", `<x?page=2>; rel="next"`)
			return r, nil
		}, nil, 1, ""},
		"a link that goes back": {func(*http.Request, int) (*http.Response, error) {
			r := jsonResponse(200, `[{"id":1}]`)
			r.Header.Set("Link", `<x?page=1>; rel="next"`)
			return r, nil
		}, []int64{1}, 1, ""},
		"a page that repeats": {func(*http.Request, int) (*http.Response, error) {
			r := jsonResponse(200, `[{"id":1}]`)
			r.Header.Set("Link", `<x>; rel="next"`) // no page: the next one
			return r, nil
		}, []int64{1}, 2, "repeats earlier case files"},
		"a shifted list": {pages(t, []int64{3, 2}, []int64{2, 1}), []int64{3, 2, 1}, 2, ""},
		"an error": {func(_ *http.Request, n int) (*http.Response, error) {
			if n == 2 {
				return jsonResponse(403, `{"statusCode":403,"error":"forbidden","message":"no"}`), nil
			}
			r := jsonResponse(200, `[{"id":1}]`)
			r.Header.Set("Link", `<x?page=2>; rel="next"`)
			return r, nil
		}, []int64{1}, 2, "forbidden"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.handle(http.MethodGet, signURL, listPath, tc.handler)
			ids, err := collect(t, e.Client.CaseFiles, nil)
			assert.Equal(t, tc.want, ids)
			assert.Equal(t, tc.requests, rec.count())
			if tc.err == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.err)
		})
	}
}

// The first error is yielded once, then the iteration ends; breaking out
// stops the requests.
func TestAllStopsOnErrorAndBreak(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, listPath, 500, `{"statusCode":500,"error":"internal","message":"boom"}`)
	n := 0
	for d, err := range e.Client.CaseFiles.All(ctx(t), nil) {
		n++
		assert.Zero(t, d)
		var apiErr *signkit.Error
		require.True(t, errors.As(err, &apiErr), "%v", err)
		assert.Equal(t, 500, apiErr.StatusCode)
	}
	assert.Equal(t, 1, n, "the error is yielded once")

	e2 := newEnv(t)
	rec := e2.handle(http.MethodGet, signURL, listPath, pages(t, []int64{1, 2}, []int64{3}))
	for d, err := range e2.Client.CaseFiles.All(ctx(t), nil) {
		require.NoError(t, err)
		if d.ID == 1 {
			break
		}
	}
	assert.Equal(t, 1, rec.count())
}

func TestLinkHeaders(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		links []string
		want  []int64
	}{
		"rel among others":    {[]string{`<u?page=1>; rel="first", <u?page=2>; rel="next last"`}, []int64{1, 2}},
		"unquoted rel":        {[]string{`<u?page=2>;rel=next`}, []int64{1, 2}},
		"separate headers":    {[]string{`<u?page=1>; rel="prev"`, `<u?page=2>; rel="next"`}, []int64{1, 2}},
		"commas in the url":   {[]string{`<u?ids=1,2,3&page=2>; rel="next"`}, []int64{1, 2}},
		"no next":             {[]string{`<u?page=1>; rel="prev"`}, []int64{1}},
		"malformed":           {[]string{`u?page=2; rel="next"`}, []int64{1}},
		"next without a page": {[]string{`<u>; rel="NEXT"`}, []int64{1, 2}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.handle(http.MethodGet, signURL, listPath, func(r *http.Request, n int) (*http.Response, error) {
				resp := jsonResponse(200, fmt.Sprintf(`[{"id":%d}]`, n))
				if n == 1 {
					resp.Header["Link"] = tc.links
				}
				return resp, nil
			})
			ids, err := collect(t, e.Client.CaseFiles, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, ids)
		})
	}
}

func TestDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodDelete, signURL, `/api/v1/casefiles/42`, 200, `{}`)
	require.NoError(t, e.Client.CaseFiles.Delete(ctx(t), 42))
	assert.Equal(t, "Bearer tok-1", rec.last().Auth)

	// A completed case file cannot be deleted: the platform's error is
	// returned as it is.
	e.reply(http.MethodDelete, signURL, `/api/v1/casefiles/43`, 409, `{"statusCode":409,"error":"conflict","message":"completed"}`)
	err := e.Client.CaseFiles.Delete(ctx(t), 43)
	require.ErrorIs(t, err, signkit.ErrConflict)
	assert.ErrorContains(t, err, "delete case file 43")
}
