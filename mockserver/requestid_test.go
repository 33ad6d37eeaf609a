package mockserver

import (
	"net/http"
	"regexp"
	"testing"
	"time"
)

// TestEveryAnswerCarriesARequestID: answers of every service, the public
// pages, the control API, errors, unknown routes and injected faults carry a
// fresh X-Penneo-Request-Id.
func TestEveryAnswerCarriesARequestID(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	tok := login(t, s, s.DefaultCredentials())
	if err := s.InjectFault(Fault{Method: "GET", Path: "/collect/api/v1/faulty", Status: 503}); err != nil {
		t.Fatal(err)
	}
	probes := []struct {
		name, method, path, header, value string
		status                            int
	}{
		{"token endpoint error", "POST", "/auth/oauth/token", "", "", 415},
		{"forms 404", "GET", "/collect/api/v1/forms/x", "Authorization", "Bearer " + tok, 404},
		{"forms 401", "GET", "/collect/api/v1/forms/x", "", "", 401},
		{"sign 200", "GET", "/api/v1/casefiles", "Authorization", "Bearer " + tok, 200},
		{"send 400 malformed token", "POST", "/send/api/v1/casefiles/20251022/create", "X-Auth-Token", "nope", 400},
		{"queue status, no token", "POST", "/send/api/v1/queue/public/status", "", "", 0},
		{"webhook list", "GET", "/webhook/api/v1/subscriptions", "Authorization", "Bearer " + tok, 200},
		{"public page 404", "GET", "/public/forms/nope", "", "", 404},
		{"control health", "GET", "/mock/health", "", "", 200},
		{"unknown route", "GET", "/nowhere", "", "", 404},
		{"405", "GET", "/auth/oauth/token", "", "", 405},
		{"injected fault", "GET", "/collect/api/v1/faulty", "", "", 503},
	}
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]string{}
	client := &http.Client{Transport: s.Transport(), Timeout: 10 * time.Second}
	for _, p := range probes {
		for range 2 {
			req := newReq(t, s, p.method, p.path)
			if p.header != "" {
				req.Header.Set(p.header, p.value)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			resp.Body.Close()
			if p.status != 0 && resp.StatusCode != p.status {
				t.Errorf("%s: status %d, want %d", p.name, resp.StatusCode, p.status)
			}
			id := resp.Header.Get("X-Penneo-Request-Id")
			if !uuid.MatchString(id) {
				t.Errorf("%s: X-Penneo-Request-Id %q, want a UUID", p.name, id)
				continue
			}
			if other, dup := seen[id]; dup {
				t.Errorf("%s: request id %s already given to %s", p.name, id, other)
			}
			seen[id] = p.name
		}
	}
}
