package app

import "testing"

// The names and origins the guard compares, as it compares them
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#who-may-drive-the-control-api).
func TestGuardNamesAndOrigins(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"LocalHost:8765": "localhost", "[::1]:80": "::1", "[::1]": "::1", "::1": "::1", "mock.": "mock",
		"Mock.Internal": "mock.internal", "127.0.0.1": "127.0.0.1", "": "",
	} {
		if got := HostName(in); got != want {
			t.Errorf("HostName(%q) = %q, want %q", in, got, want)
		}
	}
	for h, want := range map[string]bool{
		"localhost": true, "app.localhost": true, "127.0.0.1": true, "127.255.0.9": true, "::1": true, "::ffff:127.0.0.1": true,
		"localhost.evil.example": false, "evil-localhost": false, "128.0.0.1": false, "0.0.0.0": false, "::": false, "": false,
	} {
		if got := isLoopbackName(h); got != want {
			t.Errorf("isLoopbackName(%q) = %v", h, got)
		}
	}
	for in, want := range map[string]string{
		"http://127.0.0.1":                 "http://127.0.0.1:80",
		"HTTP://LocalHost:8765/mock/ui?x":  "http://localhost:8765",
		"https://mock.example":             "https://mock.example:443",
		"http://[::1]:9/":                  "http://[::1]:9",
		"null":                             "",
		"file:///etc/passwd":               "",
		"http://":                          "",
		"chrome-extension://abcdef/x.html": "",
	} {
		got, ok := originOf(in)
		if got != want || ok != (want != "") {
			t.Errorf("originOf(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// A dashboard form refused for want of its page's Origin names the route
// that code calls instead.
func TestGuardCodeRoute(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"/mock/ui/webhooks/replay":                      `POST /mock/deliveries/replay with {"subscriptionId","eventId"}`,
		"/mock/ui/clock":                                `POST /mock/clock/advance with {"seconds":n}`,
		"/mock/ui/casefiles/3/signers/4/sign":           "POST /mock/casefiles/3/signers/4/sign",
		"/mock/ui/casefiles/3/signers/4/request/email":  "the Signing service's PUT /api/v1/signingrequests/{id} with the new email",
		"/mock/ui/casefiles/3/signers/4/request/resend": "the Signing service's PATCH /api/v1/signingrequests/{id}/send",
		"/mock/ui/nothing":                              "the control API under /mock/",
	} {
		if got := codeRoute(path); got != want {
			t.Errorf("codeRoute(%q) = %q, want %q", path, got, want)
		}
	}
}
