package signing_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// listCaseFiles lists case files with a token; paginate sends x-paginate: true.
// It answers the status, the ids in order and the Link header.
func listCaseFiles(t *testing.T, s *mockserver.Server, tok, query string, paginate bool) (int, []int64, string) {
	t.Helper()
	req := testkit.NewReq(t, s, "GET", "/api/v1/casefiles"+query)
	req.Header.Set("Authorization", "Bearer "+tok)
	if paginate {
		req.Header.Set("x-paginate", "true")
	}
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		return resp.StatusCode, nil, string(b)
	}
	var items []signing.CaseFileJSON
	if err := json.Unmarshal(b, &items); err != nil {
		t.Fatalf("list %s: not a bare array: %s", query, b)
	}
	ids := []int64{}
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	return resp.StatusCode, ids, resp.Header.Get("Link")
}

func TestListCaseFiles(t *testing.T) {
	t.Parallel()
	s, owner, file := newMock(t)
	colleague := userToken(t, s, mockserver.UserSpec{Name: "Colleague"})
	super := userToken(t, s, mockserver.UserSpec{Name: "Super", SuperUser: true})
	stranger := userToken(t, s, mockserver.UserSpec{Name: "Stranger", NewCustomer: true})
	alpha, _ := testkit.RunCase(t, s, owner, testkit.TitledCase("Alpha lease", map[string]any{"reference": "R-1"}), file)
	s.Advance(time.Minute) // tokens live 10 minutes of mock time
	beta, _ := testkit.RunCase(t, s, owner, testkit.TitledCase("Beta contract", map[string]any{"reference": "R-2", "metaData": "VIP customer"}), file)
	s.Advance(time.Minute)
	gamma, _ := testkit.RunCase(t, s, colleague, testkit.TitledCase("Gamma lease", nil), file)
	delta, _ := testkit.RunCase(t, s, colleague, testkit.TitledCase("Delta", nil), file)
	other, _ := testkit.RunCase(t, s, stranger, testkit.TitledCase("Alpha elsewhere", nil), file)
	if err := s.SignerAction(alpha, testkit.SignerID(t, s, alpha, "Ann"), mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	if err := s.ShareCaseFile(delta, true); err != nil {
		t.Fatal(err)
	}
	created := func(id int64) int64 {
		var unix int64
		testkit.Inspect(s, id, func(cf *testkit.CaseFile) { unix = cf.Created.Unix() })
		return unix
	}
	tests := []struct {
		who, tok, query string
		want            []int64
	}{
		{"owner", owner, "", []int64{delta, beta, alpha}},
		{"owner", owner, "?sort=created", []int64{alpha, beta, delta}},
		{"owner", owner, "?sort=-created", []int64{delta, beta, alpha}},
		{"owner", owner, "?sort=title&order=desc", []int64{delta, beta, alpha}},
		{"owner", owner, "?sort=title", []int64{alpha, beta, delta}},
		{"owner", owner, "?status=5", []int64{alpha}},
		{"owner", owner, "?status=1,5", []int64{delta, beta, alpha}},
		{"owner", owner, "?title=LEASE", []int64{alpha}},
		{"owner", owner, "?reference=R-2", []int64{beta}},
		{"owner", owner, "?reference=R", []int64{}},
		{"owner", owner, "?metaData=vip", []int64{beta}},
		{"owner", owner, fmt.Sprintf("?ids=%d,%d,%d", alpha, gamma, other), []int64{alpha}},
		{"owner", owner, fmt.Sprintf("?createdAfter=%d", created(alpha)), []int64{delta, beta}},
		{"owner", owner, fmt.Sprintf("?createdBefore=%d", created(beta)), []int64{alpha}},
		{"owner", owner, "?limit=1&offset=1", []int64{beta}},
		{"colleague", colleague, "", []int64{delta, gamma}},
		{"super", super, "", []int64{delta, gamma, beta, alpha}},
		{"super", super, "?title=lease", []int64{gamma, alpha}},
		{"stranger", stranger, "", []int64{other}},
	}
	for _, tc := range tests {
		st, ids, _ := listCaseFiles(t, s, tc.tok, tc.query, false)
		if st != 200 || !slices.Equal(ids, tc.want) {
			t.Errorf("%s GET /api/v1/casefiles%s: %d %v, want %v", tc.who, tc.query, st, ids, tc.want)
		}
	}
	for _, bad := range []string{"?status=9", "?status=x", "?ids=0", "?createdAfter=soon", "?sort=color", "?sort=title&order=up",
		"?limit=-1", "?offset=x"} {
		if st, _, body := listCaseFiles(t, s, owner, bad, false); st != http.StatusUnprocessableEntity {
			t.Errorf("GET /api/v1/casefiles%s: %d %s, want 422", bad, st, body)
		}
	}
	if st, _, _ := listCaseFiles(t, s, "", "", false); st != http.StatusUnauthorized {
		t.Errorf("without a token: %d, want 401", st)
	}
}

func TestListCaseFilesPages(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	var all []int64
	for i := range 7 {
		id, _ := testkit.RunCase(t, s, tok, testkit.TitledCase(fmt.Sprintf("Case %d", i), nil), file)
		all = append([]int64{id}, all...) // newest first
	}
	linkRE := regexp.MustCompile(`^<(http://signkit\.mock/api/v1/casefiles\?[^>]+)>; rel="next"$`)
	for _, tc := range []struct {
		first string
		pages []int
	}{
		{"?perPage=3", []int{3, 3, 1}},
		{"?per_page=2&sort=-created", []int{2, 2, 2, 1}},
		{"?perPage=7", []int{7}},
		{"", []int{7}},
	} {
		var got []int64
		var sizes []int
		query := tc.first
		for range 10 {
			st, ids, link := listCaseFiles(t, s, tok, query, true)
			if st != 200 {
				t.Fatalf("%s: %d %s", query, st, link)
			}
			got, sizes = append(got, ids...), append(sizes, len(ids))
			if link == "" {
				break
			}
			m := linkRE.FindStringSubmatch(link)
			if m == nil {
				t.Fatalf("Link %q", link)
			}
			u, err := url.Parse(m[1])
			if err != nil {
				t.Fatal(err)
			}
			if u.Query().Get("per_page") == "" || u.Query().Get("perPage") == "" || u.Query().Get("page") == "" {
				t.Fatalf("Link %q lacks page, perPage or per_page", link)
			}
			query = "?" + u.RawQuery
		}
		if !slices.Equal(got, all) || !slices.Equal(sizes, tc.pages) {
			t.Errorf("pages from %q: %v in pages of %v, want %v in pages of %v", tc.first, got, sizes, all, tc.pages)
		}
	}
	if st, ids, link := listCaseFiles(t, s, tok, "?page=9&perPage=3", true); st != 200 || len(ids) != 0 || link != "" {
		t.Errorf("past the end: %d %v %q, want an empty page without Link", st, ids, link)
	}
	if st, ids, link := listCaseFiles(t, s, tok, "?perPage=2", false); st != 200 || len(ids) != 7 || link != "" {
		t.Errorf("without x-paginate: %d %d items, Link %q; want every case file and no Link", st, len(ids), link)
	}
	for _, bad := range []string{"?page=0", "?perPage=0", "?per_page=1001", "?page=x"} {
		if st, _, body := listCaseFiles(t, s, tok, bad, true); st != http.StatusUnprocessableEntity || !strings.Contains(body, "details") {
			t.Errorf("%s: %d %s, want 422", bad, st, body)
		}
	}
}

// TestListCaseFilesWindowsAndFolders filters by the windows the agent skill's
// scripts/node/list-casefiles.js sends
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List"): completed, activated, expires and updated, each bound exclusive like
// createdAfter/createdBefore, and folderIds. A case file without the time
// (never completed, never activated, no expiry) matches no bound on it.
func TestListCaseFilesWindowsAndFolders(t *testing.T) {
	t.Parallel()
	s, _, file := newMock(t)
	tok := func() string { return adminToken(t, s) } // tokens live 10 minutes of mock time
	sign := func(id int64) {
		t.Helper()
		if err := s.SignerAction(id, testkit.SignerID(t, s, id, "Ann"), mockserver.ActionSign); err != nil {
			t.Fatal(err)
		}
	}
	// A: folder 10, expires in 30 days, completed a minute after sending.
	a, _ := testkit.RunCase(t, s, tok(), testkit.TitledCase("A", map[string]any{"folderId": 10, "expireAt": testkit.Epoch.Add(30 * 24 * time.Hour).Unix()}), file)
	s.Advance(time.Minute)
	sign(a)
	s.Advance(time.Minute)
	// B: folder 20, expires in 60 days, completed a minute after sending.
	b, _ := testkit.RunCase(t, s, tok(), testkit.TitledCase("B", map[string]any{"folderId": 20, "expireAt": testkit.Epoch.Add(60 * 24 * time.Hour).Unix()}), file)
	s.Advance(time.Minute)
	sign(b)
	s.Advance(time.Minute)
	// C: folder 10, pending: activated, never completed, no expiry.
	c, _ := testkit.RunCase(t, s, tok(), testkit.TitledCase("C", map[string]any{"folderId": 10}), file)
	s.Advance(time.Minute)
	// D: no folder, new until its sendAt: never activated.
	d, _ := testkit.RunCase(t, s, tok(), testkit.TitledCase("D", map[string]any{"sendAt": s.Now().Add(time.Hour).Unix()}), file)

	type times struct{ created, activated, completed, expires, updated time.Time }
	at := map[int64]times{}
	for _, id := range []int64{a, b, c, d} {
		testkit.Inspect(s, id, func(cf *testkit.CaseFile) {
			at[id] = times{cf.Created, cf.Activated, cf.Completed, cf.ExpireAt, cf.Updated}
		})
	}
	if !at[c].completed.IsZero() || !at[d].activated.IsZero() || !at[c].expires.IsZero() ||
		!at[a].completed.After(at[a].activated) || !at[b].updated.Equal(at[b].completed) {
		t.Fatalf("the setup is not what the cases assume: %+v", at)
	}
	q := func(name string, tm time.Time, plus int64) string {
		return fmt.Sprintf("?%s=%d", name, tm.Unix()+plus)
	}
	tests := []struct {
		query string
		want  []int64
	}{
		// completed: C and D never completed.
		{q("completedAfter", at[a].completed, 0), []int64{b}},
		{q("completedAfter", at[a].completed, -1), []int64{b, a}},
		{q("completedAfter", at[b].completed, 0), []int64{}},
		{q("completedBefore", at[b].completed, 0), []int64{a}},
		{q("completedBefore", at[b].completed, 1), []int64{b, a}},
		{q("completedBefore", at[a].completed, 0), []int64{}},
		{"?completedAfter=1", []int64{b, a}},
		{"?completedAfter=" + at[a].completed.UTC().Format(time.RFC3339), []int64{b}},
		{fmt.Sprintf("?completedAfter=%d&completedBefore=%d", at[a].completed.Unix()-1, at[b].completed.Unix()), []int64{a}},
		// activated: D never activated.
		{q("activatedAfter", at[a].activated, 0), []int64{c, b}},
		{q("activatedAfter", at[a].activated, -1), []int64{c, b, a}},
		{q("activatedBefore", at[c].activated, 0), []int64{b, a}},
		{q("activatedBefore", at[c].activated, 1), []int64{c, b, a}},
		{"?activatedAfter=1", []int64{c, b, a}},
		// expires: only A and B have an expiry.
		{q("expiresAfter", at[a].expires, 0), []int64{b}},
		{q("expiresAfter", at[a].expires, -1), []int64{b, a}},
		{q("expiresBefore", at[b].expires, 0), []int64{a}},
		{q("expiresBefore", at[b].expires, 1), []int64{b, a}},
		{"?expiresAfter=1", []int64{b, a}},
		// updated: every case file has one (D's is its creation).
		{q("updatedAfter", at[c].updated, 0), []int64{d}},
		{q("updatedAfter", at[c].updated, -1), []int64{d, c}},
		{q("updatedBefore", at[b].updated, 0), []int64{a}},
		{q("updatedBefore", at[b].updated, 1), []int64{b, a}},
		{"?updatedAfter=1", []int64{d, c, b, a}},
		// folders: D has none.
		{"?folderIds=10", []int64{c, a}},
		{"?folderIds=20", []int64{b}},
		{"?folderIds=10,20", []int64{c, b, a}},
		{"?folderIds=20,%2010", []int64{c, b, a}},
		{"?folderIds=99", []int64{}},
		// combined with each other and the older filters.
		{"?folderIds=10&completedAfter=1", []int64{a}},
		{"?folderIds=10&status=1", []int64{c}},
		{fmt.Sprintf("?createdAfter=%d&activatedAfter=1", at[a].created.Unix()), []int64{c, b}},
	}
	for _, tc := range tests {
		st, ids, body := listCaseFiles(t, s, tok(), tc.query, false)
		if st != 200 || !slices.Equal(ids, tc.want) {
			t.Errorf("GET /api/v1/casefiles%s: %d %v %s, want %v (a=%d b=%d c=%d d=%d)", tc.query, st, ids, body, tc.want, a, b, c, d)
		}
	}
	for _, bad := range []struct{ query, param string }{
		{"?completedAfter=soon", "completedAfter"},
		{"?completedBefore=-1", "completedBefore"},
		{"?activatedAfter=1.5", "activatedAfter"},
		{"?activatedBefore=2026-13-01T00:00:00Z", "activatedBefore"},
		{"?expiresAfter=x", "expiresAfter"},
		{"?expiresBefore=99999999999999999999", "expiresBefore"},
		{"?updatedAfter=tomorrow", "updatedAfter"},
		{"?updatedBefore=%20", "updatedBefore"},
		{"?folderIds=0", "folderIds"},
		{"?folderIds=x", "folderIds"},
		{"?folderIds=10,-2", "folderIds"},
		{"?folderIds=1.5", "folderIds"},
	} {
		st, _, body := listCaseFiles(t, s, tok(), bad.query, false)
		if st != http.StatusUnprocessableEntity || !strings.Contains(body, `"details"`) || !strings.Contains(body, `"`+bad.param+`"`) {
			t.Errorf("GET /api/v1/casefiles%s: %d %s, want 422 naming %s", bad.query, st, body, bad.param)
		}
	}
	// Every malformed parameter is named in the one answer.
	st, _, body := listCaseFiles(t, s, tok(), "?completedAfter=x&folderIds=0&updatedBefore=y", false)
	for _, param := range []string{"completedAfter", "folderIds", "updatedBefore"} {
		if st != http.StatusUnprocessableEntity || !strings.Contains(body, `"`+param+`"`) {
			t.Errorf("three malformed parameters: %d %s, want 422 naming %s", st, body, param)
		}
	}
}
