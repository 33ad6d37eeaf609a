package faults

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Fault
		ok   bool
	}{
		{"status", Fault{Path: "/api/v1/casefiles", Status: 503}, true},
		{"prefix and drop", Fault{Path: "/webhook/*", Drop: true}, true},
		{"no path", Fault{Status: 500}, false},
		{"relative path", Fault{Path: "api", Status: 500}, false},
		{"star inside", Fault{Path: "/a*/b", Status: 500}, false},
		{"control API", Fault{Path: "/mock/*", Status: 500}, false},
		{"lower-case method", Fault{Method: "get", Path: "/a", Status: 500}, false},
		{"status out of range", Fault{Path: "/a", Status: 600}, false},
		{"drop with status", Fault{Path: "/a", Drop: true, Status: 500}, false},
		{"retry-after without status", Fault{Path: "/a", DelayMs: 1, RetryAfter: 3}, false},
		{"delay too long", Fault{Path: "/a", DelayMs: 11 * 60 * 1000}, false},
		{"unknown phase", Fault{Path: "/a", Status: 500, Phase: "during"}, false},
		{"negative times", Fault{Path: "/a", Status: 500, Times: -1}, false},
		{"does nothing", Fault{Path: "/a"}, false},
	} {
		if err := tc.f.Check(); (err == nil) != tc.ok {
			t.Errorf("%s: Check() = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestMiddlewareCountsDownAndSparesTheControlAPI(t *testing.T) {
	fs := NewStore(1 << 20)
	if err := fs.Add(Fault{Method: "*", Path: "/api/*", Status: 502, Times: 2}); err != nil {
		t.Fatal(err)
	}
	h := fs.Middleware(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) }))
	var got []int
	for _, p := range []string{"/api/x", "/mock/health", "/other", "/api/y", "/api/z"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		got = append(got, rec.Code)
	}
	want := []int{502, 418, 418, 502, 418}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses %v, want %v", got, want)
		}
	}
	if n := len(fs.List()); n != 0 {
		t.Fatalf("%d faults left after their times ran out", n)
	}
}
