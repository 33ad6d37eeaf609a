package signing_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// TestListCaseFilesSortByTimes sorts GET /api/v1/casefiles by completed,
// activated, expireAt and sendAt, both directions, with the vendor's polling
// query among them
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List"): case files without the time come last either way, equal seconds go
// by id in the direction of the key, and x-paginate pages of two neither skip
// nor repeat a case file across ties.
func TestListCaseFilesSortByTimes(t *testing.T) {
	t.Parallel()
	s, _, file := newMock(t)
	tok := func() string { return adminToken(t, s) } // tokens live 10 minutes of mock time
	create := func(title string, extra map[string]any) int64 {
		id, _ := testkit.RunCase(t, s, tok(), testkit.TitledCase(title, extra), file)
		return id
	}
	sign := func(ids ...int64) {
		t.Helper()
		for _, id := range ids {
			if err := s.SignerAction(id, testkit.SignerID(t, s, id, "Ann"), mockserver.ActionSign); err != nil {
				t.Fatal(err)
			}
		}
	}
	day := 24 * time.Hour
	a := create("A", map[string]any{"expireAt": testkit.Epoch.Add(30 * day).Unix()})
	b := create("B", map[string]any{"expireAt": testkit.Epoch.Add(10 * day).Unix()})
	c := create("C", map[string]any{"expireAt": testkit.Epoch.Add(30 * day).Unix()})
	s.Advance(time.Minute)
	d := create("D", nil) // pending: activated, never completed, no expiry
	s.Advance(time.Minute)
	e := create("E", map[string]any{"sendAt": s.Now().Add(time.Hour).Unix()}) // new until sendAt
	f := create("F", map[string]any{"sendAt": s.Now().Add(2 * time.Hour).Unix()})
	s.Advance(time.Minute)
	sign(c, a) // completed in one second, C signing first
	s.Advance(time.Minute)
	sign(b)

	none := func(ids ...int64) []int64 { return ids }
	for _, tc := range []struct {
		query string
		want  []int64
	}{
		{"?sort=completed", none(a, c, b, d, e, f)},
		{"?sort=-completed", none(b, c, a, f, e, d)},
		{"?sort=completed&order=desc", none(b, c, a, f, e, d)},
		{"?sort=activated", none(a, b, c, d, e, f)},
		{"?sort=-activated", none(d, c, b, a, f, e)},
		{"?sort=expireAt", none(b, a, c, d, e, f)},
		{"?sort=-expireAt", none(c, a, b, f, e, d)},
		{"?sort=expireAt,-id", none(b, c, a, f, e, d)},
		{"?sort=sendAt", none(e, f, a, b, c, d)},
		{"?sort=-sendAt", none(f, e, d, c, b, a)},
		{"?sort=-completed&status=5", none(b, c, a)},
		{fmt.Sprintf("?sort=-completed&status=5&completedAfter=%d", s.Now().Add(-time.Minute).Unix()-1), none(b, c, a)},
		{fmt.Sprintf("?sort=completed&status=5&completedAfter=%d", s.Now().Add(-time.Minute).Unix()), none(b)},
	} {
		if st, ids, body := listCaseFiles(t, s, tok(), tc.query, false); st != 200 || !slices.Equal(ids, tc.want) {
			t.Errorf("GET /api/v1/casefiles%s: %d %v %s, want %v (a=%d b=%d c=%d d=%d e=%d f=%d)",
				tc.query, st, ids, body, tc.want, a, b, c, d, e, f)
		}
		for _, per := range []int{1, 2, 4} {
			if got := allPages(t, s, tok(), fmt.Sprintf("%s&perPage=%d", tc.query, per)); !slices.Equal(got, tc.want) {
				t.Errorf("pages of %d of %s: %v, want %v", per, tc.query, got, tc.want)
			}
		}
	}
	for _, bad := range []string{"?sort=completedAt", "?sort=-sendat", "?sort=expires"} {
		if st, _, body := listCaseFiles(t, s, tok(), bad, false); st != http.StatusUnprocessableEntity {
			t.Errorf("GET /api/v1/casefiles%s: %d %s, want 422", bad, st, body)
		}
	}
}

// TestCaseFileJSONCompletedAndSendAt reads the completion time and sendAt
// of a case file as unix seconds, null while it has none.
func TestCaseFileJSONCompletedAndSendAt(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	sendAt := s.Now().Add(time.Hour).Unix()
	later, _ := testkit.RunCase(t, s, tok, testkit.TitledCase("Later", map[string]any{"sendAt": sendAt}), file)
	now, _ := testkit.RunCase(t, s, tok, testkit.TitledCase("Now", nil), file)
	s.Advance(time.Minute)
	if err := s.SignerAction(now, testkit.SignerID(t, s, now, "Ann"), mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	completed := s.Now().Unix()
	for _, tc := range []struct {
		id                int64
		completed, sendAt any
	}{
		{later, nil, float64(sendAt)},
		{now, float64(completed), nil},
	} {
		var got map[string]any
		getJSON(t, s, tok, fmt.Sprintf("/api/v1/casefiles/%d", tc.id), &got)
		if got["completed"] != tc.completed || got["sendAt"] != tc.sendAt {
			t.Errorf("case file %d: completed %v, sendAt %v; want %v, %v", tc.id, got["completed"], got["sendAt"], tc.completed, tc.sendAt)
		}
	}
}

// allPages follows the Link rel="next" of x-paginate pages from query
// and answers every id in order.
func allPages(t *testing.T, s *mockserver.Server, tok, query string) []int64 {
	t.Helper()
	var got []int64
	for range 20 {
		st, ids, link := listCaseFiles(t, s, tok, query, true)
		if st != 200 {
			t.Fatalf("%s: %d %s", query, st, link)
		}
		got = append(got, ids...)
		if link == "" {
			return got
		}
		u, err := url.Parse(link[1 : len(link)-len(`>; rel="next"`)])
		if err != nil {
			t.Fatal(err)
		}
		query = "?" + u.RawQuery
	}
	t.Fatalf("%s: more than 20 pages", query)
	return nil
}

// getJSON GETs path with the token and decodes the 200 answer into v.
func getJSON(t *testing.T, s *mockserver.Server, tok, path string, v any) {
	t.Helper()
	req := testkit.NewReq(t, s, "GET", path)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v: %s", path, err, b)
	}
}
