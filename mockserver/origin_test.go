package mockserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// netSend sends req over the network to s (its Host as set) and answers the
// status, the Content-Type and the body.
func netSend(t *testing.T, req *http.Request) (int, string, string) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(b)
}

// hideSecrets answers body with the values of its secret fields hidden.
var hideSecrets = testkit.HideSecrets

// netReq builds a request to s over the network with the Host host ("":
// the URL's) and the headers given as name, value pairs.
func netReq(t *testing.T, s *Server, method, path, host, body string, headers ...string) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return req
}

// A page whose name was rebound to the mock's address (DNS rebinding) sends
// its own name as the Host: every route answers it 421, and nothing of
// the credentials or the services' data leaks.
func TestHostRuleRefusesOtherNames(t *testing.T) {
	t.Parallel()
	s := Start(t, WithManualClock(epoch))
	tok := login(t, s, s.DefaultCredentials())
	port := s.URL()[strings.LastIndex(s.URL(), ":")+1:]
	for _, host := range []string{"evil.example", "EVIL.example:" + port, "localhost.evil.example", "127.0.0.1.nip.io:" + port, "[::2]:" + port} {
		for _, path := range []string{"/mock/credentials", "/mock/clock", "/api/v1/casefiles", "/webhook/api/v1/subscriptions", "/mock/openapi.json", "/no/such/route"} {
			st, ct, body := netSend(t, netReq(t, s, "GET", path, host, "", "Authorization", "Bearer "+tok))
			if st != http.StatusMisdirectedRequest || !strings.HasPrefix(ct, "application/json") ||
				!strings.Contains(body, `"error":"misdirected_request"`) || !strings.Contains(body, "-allow-host") {
				t.Errorf("GET %s with Host %s: %d %s %.200s", path, host, st, ct, hideSecrets(body))
			}
			if c := s.DefaultCredentials(); strings.Contains(body, c.ClientSecret) || strings.Contains(body, c.APISecret) {
				t.Errorf("GET %s with Host %s leaks a secret", path, host)
			}
		}
		st, _, _ := netSend(t, netReq(t, s, "POST", "/mock/clock/advance", host, `{"seconds":864000}`, "Content-Type", "application/json"))
		if st != http.StatusMisdirectedRequest || !s.Now().Equal(epoch) {
			t.Errorf("POST /mock/clock/advance with Host %s: %d, the clock moved %v", host, st, s.Now().Sub(epoch))
		}
	}
	// A browser on the dashboard or a public page gets a page.
	for _, path := range []string{"/mock/ui/clock", "/public/forms/x"} {
		st, ct, body := netSend(t, netReq(t, s, "GET", path, "evil.example", "", "Accept", "text/html"))
		if st != http.StatusMisdirectedRequest || !strings.HasPrefix(ct, "text/html") || !strings.Contains(body, "-allow-host evil.example") {
			t.Errorf("GET %s with Host evil.example in a browser: %d %s\n%s", path, st, ct, body)
		}
	}
	// The loopback names and the base URL's host are served.
	for _, host := range []string{"", "localhost", "LocalHost:" + port, "mock.localhost:" + port, "127.0.0.1", "127.1.2.3:" + port, "[::1]:" + port, "localhost."} {
		if st, _, body := netSend(t, netReq(t, s, "GET", "/mock/credentials", host, "")); st != http.StatusOK {
			t.Errorf("GET /mock/credentials with Host %q: %d %s", host, st, hideSecrets(body))
		}
	}
}

// WithAllowedHosts admits more names, without regard to case or port;
// the base URL's host is admitted even when the server listens elsewhere.
func TestHostRuleAllowedHosts(t *testing.T) {
	t.Parallel()
	s := New(WithBaseURL("http://signkit-mock:8765"), WithAllowedHosts("Mock.Internal:9999", " compose-mock "))
	t.Cleanup(s.Close)
	ts := httptest.NewServer(s.Handler()) // a caller's own listener on Handler()
	t.Cleanup(ts.Close)
	get := func(host string) int {
		req, err := http.NewRequest("GET", ts.URL+"/mock/health", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		st, _, _ := netSend(t, req)
		return st
	}
	for host, want := range map[string]int{
		"mock.internal": 200, "MOCK.INTERNAL:8765": 200, "compose-mock:80": 200, "signkit-mock": 200, "signkit-mock:1": 200,
		"127.0.0.1": 200, "other": 421, "mock.internal.evil.example": 421, "internal": 421,
	} {
		if got := get(host); got != want {
			t.Errorf("Host %s: %d, want %d", host, got, want)
		}
	}
}

// Requests served in process have no connection and are not checked: the
// Transport answers any host, even when the request was built from a
// listener's context (a test's handler calling the mock), and so does
// Handler called directly.
func TestHostRuleSparesInProcessRequests(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	ctx := context.WithValue(context.Background(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 80})
	for _, u := range []string{"http://evil.example/mock/credentials", "http://signkit.mock/mock/credentials"} {
		req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st, _ := do(t, s, req, nil); st != http.StatusOK {
			t.Errorf("in process, GET %s: %d", u, st)
		}
	}
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, httptest.NewRequest("GET", "/mock/credentials", nil)) // Host: example.com
	if w.Code != http.StatusOK {
		t.Errorf("Handler called directly: %d", w.Code)
	}
}

// A state-changing request under /mock/ from another origin is refused
// 403, with the platform's error or the dashboard's page; one from the
// mock's own origin, or without Origin and Referer (curl, SDKs), passes.
func TestOriginRule(t *testing.T) {
	t.Parallel()
	s := Start(t, WithManualClock(epoch))
	tok := login(t, s, s.DefaultCredentials())
	id, _ := sndRun(t, s, tok, sndCase("Ann:ann@example.com"), sndFile("doc.pdf", SamplePDF("Contract text")))
	var signerID int64
	s.core.Signing.Inspect(id, func(cf *caseFile) { signerID = cf.Signers[0].ID })
	sign := fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", id, signerID)
	port := s.URL()[strings.LastIndex(s.URL(), ":")+1:]
	other := "http://127.0.0.1:1" + port // another port of the same machine
	advance := `{"seconds":864000}`
	before := s.Now()
	refused := []struct {
		name    string
		headers []string
	}{
		{"another port", []string{"Origin", other}},
		{"another host", []string{"Origin", "http://localhost:" + port}},
		{"another scheme", []string{"Origin", "https://127.0.0.1:" + port}},
		{"null", []string{"Origin", "null"}},
		{"garbage", []string{"Origin", "not a url"}},
		{"a Referer of another origin", []string{"Referer", other + "/attack.html"}},
		{"a foreign Origin with the mock's Referer", []string{"Origin", other, "Referer", s.URL() + "/mock/ui"}},
	}
	for _, tc := range refused {
		for _, r := range []struct{ method, path, body string }{
			{"POST", "/mock/clock/advance", advance}, {"POST", "/mock/reset", ""}, {"POST", sign, ""},
			{"DELETE", "/mock/faults", ""}, {"POST", "/mock/users", `{"name":"Eve"}`},
		} {
			hs := append([]string{"Content-Type", "application/json"}, tc.headers...)
			st, ct, body := netSend(t, netReq(t, s, r.method, r.path, "", r.body, hs...))
			if st != http.StatusForbidden || !strings.HasPrefix(ct, "application/json") || !strings.Contains(body, `"error":"forbidden"`) {
				t.Errorf("%s %s from %s: %d %s %.200s", r.method, r.path, tc.name, st, ct, hideSecrets(body))
			}
		}
		st, ct, body := netSend(t, netReq(t, s, "POST", "/mock/ui/clock", "", "amount=10&unit=days",
			append([]string{"Content-Type", "application/x-www-form-urlencoded"}, tc.headers...)...))
		if st != http.StatusForbidden || !strings.HasPrefix(ct, "text/html") || !strings.Contains(body, `id="message"`) {
			t.Errorf("dashboard form from %s: %d %s\n%s", tc.name, st, ct, body)
		}
	}
	if !s.Now().Equal(before) || caseStatus(s, id) != 1 || s.Stats().CaseFiles != 1 {
		t.Fatalf("after refused requests: clock moved %v, case file status %d, %d case files",
			s.Now().Sub(before), caseStatus(s, id), s.Stats().CaseFiles)
	}
	// Reading is not changing: a GET from anywhere is served (CORS keeps
	// another page from reading the answer).
	if st, _, _ := netSend(t, netReq(t, s, "GET", "/mock/clock", "", "", "Origin", other)); st != http.StatusOK {
		t.Errorf("GET /mock/clock with a foreign Origin: %d", st)
	}
	// The mock's own pages and tools without a browser pass.
	for _, hs := range [][]string{nil, {"Origin", s.URL()}, {"Origin", strings.ToUpper(s.URL())}, {"Referer", s.URL() + "/mock/ui/clock"}} {
		st, _, body := netSend(t, netReq(t, s, "POST", "/mock/clock/advance", "", `{"seconds":1}`, append([]string{"Content-Type", "application/json"}, hs...)...))
		if st != http.StatusOK {
			t.Errorf("POST /mock/clock/advance with %v: %d %s", hs, st, body)
		}
	}
	if st, _, _ := netSend(t, netReq(t, s, "POST", "/mock/ui/clock", "", "amount=1&unit=seconds",
		"Content-Type", "application/x-www-form-urlencoded", "Origin", s.URL())); st != http.StatusSeeOther {
		t.Errorf("the dashboard's own form: %d", st)
	}
	if st, _, body := netSend(t, netReq(t, s, "POST", sign, "", "")); st != http.StatusOK || caseStatus(s, id) != 5 {
		t.Errorf("sign without Origin (curl): %d %s, case file status %d", st, body, caseStatus(s, id))
	}
	if st, _, _ := netSend(t, netReq(t, s, "POST", "/mock/reset", "", "")); st != http.StatusNoContent || s.Stats().CaseFiles != 0 {
		t.Errorf("reset without Origin (curl): %d, %d case files", st, s.Stats().CaseFiles)
	}
}

// A control API body that is not JSON is refused 415 with what to send:
// a browser page can send text/plain and forms without a preflight, never
// application/json. No body at all passes.
func TestControlTakesJSONOnly(t *testing.T) {
	t.Parallel()
	s := Start(t, WithManualClock(epoch))
	for _, tc := range []struct{ name, path, body string }{
		{"text/plain", "/mock/clock/advance", `{"seconds":60}`},
		{"application/x-www-form-urlencoded", "/mock/clock/advance", `{"seconds":60}`},
		{"multipart/form-data; boundary=x", "/mock/clock/advance", "--x--"},
		{"", "/mock/clock/advance", `{"seconds":60}`},
		{"text/plain", "/mock/reset", ""},
		{"text/plain", "/mock/users", `{"name":"Eve"}`},
		{"text/plain;charset=UTF-8", "/mock/faults", `{"method":"GET","path":"/api/*","status":500}`},
	} {
		var hs []string
		if tc.name != "" {
			hs = []string{"Content-Type", tc.name}
		}
		st, _, body := netSend(t, netReq(t, s, "POST", tc.path, "", tc.body, hs...))
		if st != http.StatusUnsupportedMediaType || !strings.Contains(body, "send Content-Type: application/json") {
			t.Errorf("POST %s as %q: %d %.200s", tc.path, tc.name, st, hideSecrets(body))
		}
	}
	if !s.Now().Equal(epoch) || len(s.Faults()) != 0 {
		t.Fatalf("a refused body changed something: clock moved %v, %d faults", s.Now().Sub(epoch), len(s.Faults()))
	}
	for _, ct := range []string{"application/json", "Application/JSON; charset=utf-8"} {
		if st, _, body := netSend(t, netReq(t, s, "POST", "/mock/clock/advance", "", `{"seconds":60}`, "Content-Type", ct)); st != http.StatusOK {
			t.Errorf("POST /mock/clock/advance as %s: %d %s", ct, st, body)
		}
	}
	if got := s.Now().Sub(epoch); got != 2*time.Minute {
		t.Errorf("the clock moved %v, want 2m", got)
	}
	if st, _, body := netSend(t, netReq(t, s, "POST", "/mock/reset", "", "")); st != http.StatusNoContent {
		t.Errorf("POST /mock/reset without a body: %d %s", st, body)
	}
	if st, _, body := netSend(t, netReq(t, s, "POST", "/mock/token", "", "")); st != http.StatusOK {
		t.Errorf("POST /mock/token without a body: %d %s", st, body)
	}
}

// An unknown path of the dashboard is the dashboard's own 404 page for a
// browser (405 for a method it does not take), JSON for a JSON client.
func TestDashboardUnknownPath(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/mock/ui/nope", http.StatusNotFound},
		{"GET", "/mock/ui/casefiles/1", http.StatusNotFound},
		{"GET", "/mock/ui/casefiles/1/signers/2/sign", http.StatusMethodNotAllowed},
	} {
		req := newReq(t, s, tc.method, tc.path)
		req.Header.Set("Accept", "text/html,application/xhtml+xml")
		st, b := do(t, s, req, nil)
		if st != tc.want || !strings.Contains(string(b), `<html lang="en">`) || !strings.Contains(string(b), `href="/mock/ui/casefiles"`) ||
			!strings.Contains(string(b), `id="message"`) {
			t.Errorf("%s %s in a browser: %d, want %d and the dashboard's page:\n%s", tc.method, tc.path, st, tc.want, b)
		}
		req = newReq(t, s, tc.method, tc.path)
		req.Header.Set("Accept", "application/json")
		if st, b := do(t, s, req, nil); st != tc.want || !strings.HasPrefix(string(b), `{`) {
			t.Errorf("%s %s as JSON: %d %s", tc.method, tc.path, st, b)
		}
	}
}

// The base URL's origin is the mock's own only under the base URL's host
// and port: a mock published on another port (docker -p 18080:8080, its
// base URL saying 8080) does not take the pages of the app on 8080. And
// the dashboard's forms need the Origin (or Referer) a browser sends.
func TestOriginRuleBaseURLAndDashboardWithoutOrigin(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(WithBaseURL("http://localhost:3000"), WithManualClock(epoch))
	hs := s.HTTPServer()
	go func() { _ = hs.Serve(l) }()
	t.Cleanup(func() { _ = hs.Close(); s.Close() })
	base := "http://" + l.Addr().String()
	post := func(path, ct, body string, headers ...string) int {
		t.Helper()
		req, err := http.NewRequest("POST", base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := post("/mock/clock/advance", "application/json", `{"seconds":60}`, "Origin", "http://localhost:3000"); st != http.StatusForbidden {
		t.Errorf("the base URL's origin on another port: %d, want 403", st)
	}
	if st := post("/mock/ui/clock", "application/x-www-form-urlencoded", "amount=1&unit=days"); st != http.StatusForbidden {
		t.Errorf("a dashboard form without Origin or Referer: %d, want 403", st)
	}
	if st := post("/mock/ui/clock", "application/x-www-form-urlencoded", "amount=1&unit=days", "Origin", base); st != http.StatusSeeOther {
		t.Errorf("a dashboard form from its own page: %d, want 303", st)
	}
	if !s.Now().Equal(epoch.Add(24 * time.Hour)) {
		t.Errorf("clock at %v, want only the dashboard's own day added", s.Now())
	}
	// Reached under the base URL's host and port (a proxy that keeps the
	// Host), its origin is the mock's own.
	req, _ := http.NewRequest("POST", base+"/mock/clock/advance", strings.NewReader(`{"seconds":1}`))
	req.Host = "localhost:3000"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://localhost:3000")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("under the base URL's host: %d, want 200", resp.StatusCode)
	}
}
