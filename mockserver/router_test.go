package mockserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestRouterNotFoundAndMethodNotAllowed(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	tests := []struct {
		name, method, path string
		status             int
		allow              string
	}{
		{"unknown path", "GET", "/nowhere", 404, ""},
		{"unknown control path", "GET", "/mock/nothing", 404, ""},
		{"wrong method on token endpoint", "GET", "/auth/oauth/token", 405, "POST"},
		{"wrong method on control", "DELETE", "/mock/health", 405, "GET"},
		{"protected service, no token", "GET", "/collect/api/v1/nothing", 401, ""},
	}
	for _, tc := range tests {
		var e apiErr
		req := newReq(t, s, tc.method, tc.path)
		resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		st, b := do(t, s, newReq(t, s, tc.method, tc.path), &e)
		if st != tc.status || e.StatusCode != tc.status || e.Error == "" || e.Message == "" || e.Details == nil {
			t.Errorf("%s: %d %s, want %d with a JSON error", tc.name, st, b, tc.status)
		}
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("%s: content type %q", tc.name, ct)
		}
		if got := resp.Header.Get("Allow"); got != tc.allow {
			t.Errorf("%s: Allow %q, want %q", tc.name, got, tc.allow)
		}
	}
}

func TestControlOff(t *testing.T) {
	t.Parallel()
	s := newManual(t, WithControlAPI(false))
	if st, _ := call(t, s, "GET", "/mock/health", "", nil, nil); st != 404 {
		t.Fatalf("control API off: health answered %d", st)
	}
}

// The queue status check needs no token although the Send service does;
// its neighbours still answer 401 without one.
func TestOpenRouteInProtectedService(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	if st, b := call(t, s, "POST", "/send/api/v1/queue/public/status", "", map[string]string{"uuid": "x", "payloadHash": "y"}, nil); st == 401 {
		t.Fatalf("open route: %d %s", st, b)
	}
	if st, _ := call(t, s, "POST", "/send/api/v1/other", "", nil, nil); st != 401 {
		t.Fatalf("protected neighbour: %d, want 401", st)
	}
}

// Every route pattern is registered once, in routes.go; the mux refuses a
// pattern registered twice, so building a server is the check. A HEAD is
// answered like a GET, and a path that is not clean gets a JSON 404 rather
// than a redirect to another resource.
func TestRoutesTable(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	req := newReq(t, s, "HEAD", "/mock/health")
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("HEAD /mock/health: %d", resp.StatusCode)
	}
	for _, path := range []string{"/collect/api/v1/forms/", "/mock//health"} {
		if st, _ := call(t, s, "GET", path, "", nil, nil); st != 404 && st != 401 {
			t.Errorf("GET %s: %d, want a JSON 404 (or 401 on a protected service)", path, st)
		}
	}
}

// A path under /public/ that matches no page answers a person with an HTML
// 404 page and a JSON client with the JSON error.
func TestUnknownPublicPathIsAnHTMLPage(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	for _, tc := range []struct{ accept, wantType string }{
		{"text/html", "text/html; charset=utf-8"},
		{"application/json", "application/json"},
	} {
		req := newReq(t, s, "GET", "/public/nope/at/all")
		req.Header.Set("Accept", tc.accept)
		resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 404 || !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.wantType) {
			t.Errorf("Accept %s: %d %s", tc.accept, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if tc.accept == "text/html" && !strings.Contains(string(b), "<h1>Page not found</h1>") {
			t.Errorf("HTML 404 page: %s", b)
		}
	}
}
