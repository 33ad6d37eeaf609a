package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/forms"
)

// FuzzListQueries sends an arbitrary query string to every list endpoint:
// the answer is 200 with JSON, or 400/422 with the JSON error; never a 5xx,
// a panic or a dropped connection, whatever the integers (offset
// 9223372036854775807, -1, 1e99).
func FuzzListQueries(f *testing.F) {
	s := newManual(f)
	tok := login(f, s, s.DefaultCredentials())
	form := activeForm(f, s, tok, sampleForm())
	for range 3 {
		if _, err := s.core.Forms.Submit(form.ExternalID, "", forms.NewSubmissionInput(validAnswers(), nil)); err != nil {
			f.Fatal(err)
		}
	}
	paths := []string{
		"/collect/api/v1/forms/" + form.ExternalID + "/submissions",
		"/api/v1/casefiles",
		"/webhook/api/v1/subscriptions",
		"/mock/events",
		"/mock/deliveries",
		"/mock/emails",
		"/mock/requests",
	}
	for _, q := range []string{
		"offset=9223372036854775807", "offset=-1", "limit=9223372036854775807&offset=9223372036854775807",
		"page=9223372036854775807&perPage=100", "page=0", "per_page=-5", "limit=0", "offset=1e99",
		"after=-1&customerId=99999999999999999999", "completedAfter=2026-01-01T00:00:00Z&completedBefore=x",
		"limit=2&offset=1", "ids=1,2,x&status=9", "sort=-nope&order=sideways", "",
		"folderIds=1,0,x&activatedAfter=-1", "folderIds=9223372036854775808&expiresBefore=9223372036854775807",
		"updatedAfter=1e99&updatedBefore=0001-01-01T00:00:00Z", "expiresAfter=9999-12-31T23:59:59Z&folderIds=,,",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, query string) {
		for _, path := range paths {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.URL.Path, r.URL.RawQuery = path, query
			r.Header.Set("Authorization", "Bearer "+tok)
			if strings.HasPrefix(path, "/api/") {
				r.Header.Set("x-paginate", "true")
			}
			w := httptest.NewRecorder()
			s.Handler().ServeHTTP(w, r)
			switch w.Code {
			case http.StatusOK, http.StatusBadRequest, http.StatusUnprocessableEntity:
			default:
				t.Fatalf("GET %s?%s: %d %s", path, query, w.Code, w.Body.Bytes())
			}
			if !json.Valid(w.Body.Bytes()) {
				t.Fatalf("GET %s?%s: %d with a body that is not JSON: %q", path, query, w.Code, w.Body.Bytes())
			}
		}
	})
}

// BenchmarkListSubmissionsOffset lists a page of 10 at offset 0 and at
// offset 99,990 of a form's 100,000 submissions, in interleaved rounds:
// a page costs the same wherever it starts (goal: deep ≤ 2× first).
func BenchmarkListSubmissionsOffset(b *testing.B) {
	const n = 100_000
	s := newManual(b)
	tok := login(b, s, s.DefaultCredentials())
	form := activeForm(b, s, tok, sampleForm())
	s.core.Forms.AddBareSubmissions(form.ExternalID, n, epoch)
	get := func(offset int) time.Duration {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.URL.Path = "/collect/api/v1/forms/" + form.ExternalID + "/submissions"
		r.URL.RawQuery = "limit=10&offset=" + strconv.Itoa(offset)
		r.Header.Set("Authorization", "Bearer "+tok)
		w := httptest.NewRecorder()
		start := time.Now()
		s.Handler().ServeHTTP(w, r)
		d := time.Since(start)
		if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"total":100000`) {
			b.Fatalf("offset %d: %d %s", offset, w.Code, w.Body.Bytes())
		}
		return d
	}
	var first, deep time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			first += get(0)
			deep += get(n - 10)
		} else {
			deep += get(n - 10)
			first += get(0)
		}
	}
	b.ReportMetric(float64(first.Nanoseconds())/float64(b.N), "first-ns/page")
	b.ReportMetric(float64(deep.Nanoseconds())/float64(b.N), "deep-ns/page")
	b.ReportMetric(float64(deep)/float64(first), "deep/first")
}
