package signing

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// sortedIDs sorts files by the query string's sort and order and answers
// their ids.
func sortedIDs(t *testing.T, query string, files []*CaseFile) []int64 {
	t.Helper()
	cq, err := parseCaseFileQuery(httptest.NewRequest("GET", "/api/v1/casefiles?"+query, nil))
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	files = slices.Clone(files)
	slices.SortFunc(files, cq.compare)
	ids := make([]int64, len(files))
	for i, cf := range files {
		ids[i] = cf.ID
	}
	return ids
}

// TestSortByOptionalTimes sorts by completed, activated, expireAt and sendAt in
// both directions
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "List"): a case file without the time comes last either way, equal seconds
// are ordered by id in the direction of the key, and sub-second differences do
// not count (the wire shows seconds).
func TestSortByOptionalTimes(t *testing.T) {
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	at := func(sec int, nanos int) time.Time {
		return t0.Add(time.Duration(sec)*time.Second + time.Duration(nanos))
	}
	// 1 at +2s, 2 at +1s, 3 without, 4 at +1s (later within the second),
	// 5 without, 6 at +3s.
	times := map[int64]time.Time{1: at(2, 0), 2: at(1, 0), 4: at(1, 900), 6: at(3, 0)}
	for _, field := range []string{"completed", "activated", "expireAt", "sendAt"} {
		var files []*CaseFile
		for id := int64(1); id <= 6; id++ {
			cf := &CaseFile{ID: id, Created: t0}
			tm := times[id]
			switch field {
			case "completed":
				cf.Completed = tm
			case "activated":
				cf.Activated = tm
			case "expireAt":
				cf.ExpireAt = tm
			case "sendAt":
				cf.SendAt = tm
			}
			files = append(files, cf)
		}
		for _, tc := range []struct {
			query string
			want  []int64
		}{
			{"sort=" + field, []int64{2, 4, 1, 6, 3, 5}},
			{"sort=-" + field, []int64{6, 1, 4, 2, 5, 3}},
			{"sort=" + field + "&order=desc", []int64{6, 1, 4, 2, 5, 3}},
			{"sort=" + field + "&order=asc", []int64{2, 4, 1, 6, 3, 5}},
			{"sort=" + field + ",-id", []int64{4, 2, 1, 6, 5, 3}},
		} {
			if got := sortedIDs(t, tc.query, files); !slices.Equal(got, tc.want) {
				t.Errorf("%s: %v, want %v", tc.query, got, tc.want)
			}
		}
	}
}

// TestSortFieldsRefused names every sort field in the 422 of an unknown
// one, the new ones among them.
func TestSortFieldsRefused(t *testing.T) {
	for _, q := range []string{"sort=completedAt", "sort=-expires", "sort=completed,colour"} {
		_, err := parseCaseFileQuery(httptest.NewRequest("GET", "/api/v1/casefiles?"+q, nil))
		if err == nil {
			t.Errorf("%s: accepted", q)
			continue
		}
		for _, f := range []string{"completed", "activated", "expireAt", "sendAt", "created"} {
			if !strings.Contains(err.Error(), f) {
				t.Errorf("%s: %v does not name %s", q, err, f)
			}
		}
	}
}
