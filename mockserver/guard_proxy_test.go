package mockserver

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// proxied starts a mock named by base on a loopback listener, as behind a
// proxy that forwards plain HTTP with the public Host, and answers a
// function that sends it a request with that Host and headers (name, value
// pairs) and answers the status.
func proxied(t *testing.T, base string) func(method, path, host, ct, body string, headers ...string) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(WithBaseURL(base), WithManualClock(epoch))
	hs := s.HTTPServer()
	go func() { _ = hs.Serve(l) }()
	t.Cleanup(func() { _ = hs.Close(); s.Close() })
	addr := "http://" + l.Addr().String()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return func(method, path, host, ct, body string, headers ...string) int {
		t.Helper()
		req, err := http.NewRequest(method, addr+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		for i := 0; i+1 < len(headers); i += 2 {
			req.Header.Set(headers[i], headers[i+1])
		}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
}

// Behind a proxy the Host often comes without a port: it then means the
// base URL's scheme's default port (https 443, http 80), as an Origin
// without a port does. So a mock named https://mock.example takes its
// own pages' forms and control calls (Origin https://mock.example, Host
// mock.example), and a Host or Origin naming another port is still
// another origin. The Host rule (421) compares names only.
func TestGuardBehindAProxy(t *testing.T) {
	t.Parallel()
	const own, other = 0, 1 // whether a write is taken as the mock's own page's, or refused 403
	for _, tc := range []struct {
		base    string
		host    string
		headers []string // Origin or Referer
		want    int
	}{
		// https on the default port: a TLS proxy in front.
		{"https://mock.example", "mock.example", []string{"Origin", "https://mock.example"}, own},
		{"https://mock.example", "mock.example", []string{"Origin", "https://mock.example:443"}, own},
		{"https://mock.example", "mock.example:443", []string{"Origin", "https://mock.example"}, own},
		{"https://mock.example", "mock.example:443", []string{"Origin", "https://mock.example:443"}, own},
		{"https://mock.example", "Mock.Example", []string{"Referer", "https://mock.example/mock/ui/webhooks"}, own},
		{"https://mock.example:443", "mock.example", []string{"Origin", "https://mock.example"}, own},
		{"https://mock.example", "mock.example:8443", []string{"Origin", "https://mock.example"}, other},
		{"https://mock.example", "mock.example", []string{"Origin", "https://mock.example:8443"}, other},
		{"https://mock.example", "mock.example", []string{"Origin", "http://mock.example"}, other},
		{"https://mock.example", "mock.example", []string{"Origin", "https://evil.example"}, other},
		// https on another port.
		{"https://mock.example:8443", "mock.example:8443", []string{"Origin", "https://mock.example:8443"}, own},
		{"https://mock.example:8443", "mock.example:8443", []string{"Referer", "https://mock.example:8443/mock/ui/clock"}, own},
		{"https://mock.example:8443", "mock.example", []string{"Origin", "https://mock.example:8443"}, other},
		{"https://mock.example:8443", "mock.example:8443", []string{"Origin", "https://mock.example"}, other},
		{"https://mock.example:8443", "mock.example:443", []string{"Origin", "https://mock.example"}, other},
		// http on the default port.
		{"http://mock.example", "mock.example", []string{"Origin", "http://mock.example"}, own},
		{"http://mock.example", "mock.example", []string{"Origin", "http://mock.example:80"}, own},
		{"http://mock.example", "mock.example:80", []string{"Origin", "http://mock.example"}, own},
		{"http://mock.example", "mock.example:8080", []string{"Origin", "http://mock.example"}, other},
		{"http://mock.example", "mock.example", []string{"Origin", "https://mock.example"}, other},
		// http on another port.
		{"http://mock.example:8080", "mock.example:8080", []string{"Origin", "http://mock.example:8080"}, own},
		{"http://mock.example:8080", "mock.example", []string{"Origin", "http://mock.example:8080"}, other},
		{"http://mock.example:8080", "mock.example:8080", []string{"Origin", "http://mock.example"}, other},
		{"http://mock.example:8080", "mock.example:80", []string{"Origin", "http://mock.example:8080"}, other},
		// The request's own origin (its scheme, its Host) is the mock's too,
		// whatever the base URL says: docker -p 80:8080.
		{"http://mock.example:8080", "mock.example:80", []string{"Origin", "http://mock.example"}, own},
		{"http://mock.example:8080", "mock.example", []string{"Origin", "http://mock.example"}, own},
	} {
		send := proxied(t, tc.base)
		form := send("POST", "/mock/ui/clock", tc.host, "application/x-www-form-urlencoded", "amount=1&unit=seconds", tc.headers...)
		call := send("POST", "/mock/clock/advance", tc.host, "application/json", `{"seconds":1}`, tc.headers...)
		wantForm, wantCall := http.StatusSeeOther, http.StatusOK
		if tc.want == other {
			wantForm, wantCall = http.StatusForbidden, http.StatusForbidden
		}
		if form != wantForm || call != wantCall {
			t.Errorf("-base-url %s, Host %s, %s: the dashboard's form %d, the control API %d; want %d, %d",
				tc.base, tc.host, strings.Join(tc.headers, ": "), form, call, wantForm, wantCall)
		}
	}
}

// The Host rule (421) admits the base URL's name whatever the port, with
// or without one, and refuses another name, on http and https base URLs
// on their default and other ports.
func TestGuardHostRuleBehindAProxy(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"https://mock.example", "https://mock.example:8443", "http://mock.example", "http://mock.example:8080"} {
		send := proxied(t, base)
		for host, want := range map[string]int{
			"mock.example": http.StatusOK, "mock.example:443": http.StatusOK, "mock.example:80": http.StatusOK,
			"mock.example:8443": http.StatusOK, "mock.example:8080": http.StatusOK, "MOCK.example.": http.StatusOK,
			"evil.example": http.StatusMisdirectedRequest, "evil.example:443": http.StatusMisdirectedRequest,
			"mock.example.evil.example": http.StatusMisdirectedRequest, "localhost": http.StatusOK,
		} {
			if got := send("GET", "/mock/health", host, "", ""); got != want {
				t.Errorf("-base-url %s, Host %s: GET /mock/health %d, want %d", base, host, got, want)
			}
			// A write without Origin or Referer (test code behind the proxy)
			// passes the same Host rule and no other.
			if got := send("POST", "/mock/clock/advance", host, "application/json", `{"seconds":1}`); got != want {
				t.Errorf("-base-url %s, Host %s: POST /mock/clock/advance %d, want %d", base, host, got, want)
			}
		}
	}
}
