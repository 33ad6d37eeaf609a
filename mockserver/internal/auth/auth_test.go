package auth_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/testkit/mocktest"
)

// phpCreatedAt is created_at as the platform's PHP SDK writes it.
const phpCreatedAt = "Mon Jan 2 2006 15:04:05 GMT-0700"

func TestTokenEndpoint(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	def := testkit.Credentials(s.DefaultCredentials())
	reused := testkit.TokenBody(def, time.Now())
	if st, b := testkit.Call(t, s, "POST", "/auth/oauth/token", "", reused, nil); st != 200 {
		t.Fatalf("first use: %d %s", st, b)
	}
	tests := []struct {
		name   string
		edit   func(map[string]string)
		status int
		code   string
	}{
		{"fractional created_at", func(m map[string]string) {}, 200, ""},
		{"php created_at", func(m map[string]string) {}, 200, ""},
		{"php created_at, other offset", func(m map[string]string) {}, 200, ""},
		{"php created_at too old", nil, 401, "invalid_grant"},
		{"wrong grant", func(m map[string]string) { m["grant_type"] = "password" }, 400, "unsupported_grant_type"},
		{"missing key", func(m map[string]string) { delete(m, "key") }, 400, "invalid_request"},
		{"wrong client secret", func(m map[string]string) { m["client_secret"] = "nope" }, 401, "invalid_client"},
		{"unknown client", func(m map[string]string) { m["client_id"] = "nope" }, 401, "invalid_client"},
		{"unknown key", func(m map[string]string) { m["key"] = "nope" }, 401, "invalid_client"},
		{"bad digest", func(m map[string]string) { m["digest"] = "AAAA" + m["digest"][4:] }, 401, "invalid_grant"},
		{"nonce not base64", func(m map[string]string) { m["nonce"] = "***" }, 400, "invalid_request"},
		{"created_at not a time", func(m map[string]string) { m["created_at"] = "yesterday" }, 400, "invalid_request"},
		{"created_at too old", nil, 401, "invalid_grant"},
		{"created_at in future", nil, 401, "invalid_grant"},
		{"nonce reused", nil, 401, "invalid_grant"},
	}
	for _, tc := range tests {
		body := tokenCaseBody(def, tc.name, reused)
		if body == nil {
			body = testkit.TokenBody(def, time.Now())
			tc.edit(body)
		}
		var e struct {
			ErrorDescription string `json:"error_description"`
			AccessToken      string `json:"access_token"`
			ExpiresIn        int    `json:"expires_in"`
			ExpiresAt        int64  `json:"access_token_expires_at"`
			TokenType        string `json:"token_type"`
		}
		st, raw := testkit.Call(t, s, "POST", "/auth/oauth/token", "", body, &e)
		if st != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, st, tc.status, raw)
			continue
		}
		if tc.status == 200 {
			if e.AccessToken == "" || e.ExpiresIn != 600 || e.TokenType != "Bearer" || e.ExpiresAt != testkit.Epoch.Add(10*time.Minute).Unix() {
				t.Errorf("%s: token answer %s", tc.name, raw)
			}
			continue
		}
		if !strings.Contains(string(raw), `"error":"`+tc.code+`"`) || e.ErrorDescription == "" {
			t.Errorf("%s: body %s, want error %s with a description", tc.name, raw, tc.code)
		}
		for _, secret := range []string{def.ClientSecret, def.APISecret} {
			if strings.Contains(string(raw), secret) {
				t.Errorf("%s: answer reveals a secret: %s", tc.name, raw)
			}
		}
	}
}

// tokenCaseBody answers the body of the token cases that are not an edit of
// a fresh valid body, else nil.
func tokenCaseBody(def testkit.Credentials, name string, reused map[string]string) map[string]string {
	switch name {
	case "fractional created_at":
		return testkit.TokenBodyAt(def, time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	case "php created_at":
		return testkit.TokenBodyAt(def, time.Now().UTC().Format(phpCreatedAt))
	case "php created_at, other offset":
		return testkit.TokenBodyAt(def, time.Now().In(time.FixedZone("", 2*3600)).Format(phpCreatedAt))
	case "php created_at too old":
		return testkit.TokenBodyAt(def, time.Now().Add(-6*time.Minute).UTC().Format(phpCreatedAt))
	case "created_at too old":
		return testkit.TokenBody(def, time.Now().Add(-5*time.Minute-10*time.Second))
	case "created_at in future":
		return testkit.TokenBody(def, time.Now().Add(5*time.Minute+10*time.Second))
	case "nonce reused":
		return reused
	}
	return nil
}

func TestTokenExpiresOnMockTimeInEveryService(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	probes := []struct{ name, method, path, header, prefix string }{
		{"forms", "GET", "/collect/api/v1/forms/nope", "Authorization", "Bearer "},
		{"sign", "GET", "/api/v1/casefiles/1", "Authorization", "Bearer "},
		{"send", "POST", "/send/api/v1/casefiles/20251022/create", "X-Auth-Token", ""},
		{"webhook", "GET", "/webhook/api/v1/subscriptions", "Authorization", "Bearer "},
		{"webhook JWT", "GET", "/webhook/api/v1/subscriptions", "Authorization", "JWT "},
		{"sign X-Auth-Token", "GET", "/api/v1/casefiles/1", "X-Auth-Token", ""},
	}
	check := func(when string, wantOK bool) {
		for _, p := range probes {
			req := testkit.NewReq(t, s, p.method, p.path)
			req.Header.Set(p.header, p.prefix+tok)
			st, b := testkit.Do(t, s, req, nil)
			if wantOK && st == 401 {
				t.Errorf("%s %s: 401 with a fresh token: %s", when, p.name, b)
			}
			if !wantOK && st != 401 {
				t.Errorf("%s %s: status %d, want 401: %s", when, p.name, st, b)
			}
		}
	}
	check("before expiry", true)
	s.Advance(10*time.Minute - time.Second)
	check("just before expiry", true)
	s.Advance(2 * time.Second)
	check("after 10m+1s", false)
}

func TestTokenPlacement(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	unknown := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials())) // well formed, then expired
	s.Advance(10*time.Minute + time.Second)
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	tests := []struct {
		name, path string
		header     map[string]string
		status     int
		message    string // a prefix of the error message, when set
	}{
		{"forms bearer", "/collect/api/v1/forms/x", map[string]string{"Authorization": "Bearer " + tok}, 404, ""},
		{"forms x-auth-token", "/collect/api/v1/forms/x", map[string]string{"X-Auth-Token": tok}, 404, ""},
		{"forms x-auth-token, bare JWT", "/collect/api/v1/forms/x", map[string]string{"X-Auth-Token": tok, "Authorization": "JWT"}, 404, ""},
		{"forms JWT refused", "/collect/api/v1/forms/x", map[string]string{"Authorization": "JWT " + tok}, 401, ""},
		{"sign bearer", "/api/v1/nothing", map[string]string{"Authorization": "Bearer " + tok}, 404, ""},
		{"sign x-auth-token, bare JWT", "/api/v1/nothing", map[string]string{"X-Auth-Token": tok, "Authorization": "JWT"}, 404, ""},
		{"sign x-auth-token", "/api/v1/nothing", map[string]string{"X-Auth-Token": tok}, 404, ""},
		{"send x-auth-token", "/send/api/v1/nothing", map[string]string{"X-Auth-Token": tok}, 404, ""},
		{"send x-auth-token, bare JWT", "/send/api/v1/nothing", map[string]string{"X-Auth-Token": tok, "Authorization": "JWT"}, 404, ""},
		{"send bearer refused", "/send/api/v1/nothing", map[string]string{"Authorization": "Bearer " + tok}, 401, ""},
		{"send missing token", "/send/api/v1/nothing", nil, 401, ""},
		{"send malformed token", "/send/api/v1/nothing", map[string]string{"X-Auth-Token": "nope"}, 400, "Invalid JWT token"},
		{"send JWT-looking token", "/send/api/v1/casefiles/20251022/create", map[string]string{"X-Auth-Token": "eyJ.eyJ.sig"}, 400, "Invalid JWT token"},
		{"send expired token", "/send/api/v1/nothing", map[string]string{"X-Auth-Token": unknown}, 401, ""},
		{"webhook JWT", "/webhook/api/v1/nothing", map[string]string{"Authorization": "JWT " + tok}, 404, ""},
		{"webhook bearer", "/webhook/api/v1/nothing", map[string]string{"Authorization": "Bearer " + tok}, 404, ""},
		{"webhook x-auth-token", "/webhook/api/v1/nothing", map[string]string{"X-Auth-Token": tok}, 404, ""},
		{"webhook x-auth-token, bare JWT", "/webhook/api/v1/nothing", map[string]string{"X-Auth-Token": tok, "Authorization": "JWT"}, 404, ""},
		{"webhook malformed token", "/webhook/api/v1/nothing", map[string]string{"Authorization": "Bearer nope"}, 401, ""},
		{"forms malformed token", "/collect/api/v1/forms/x", map[string]string{"Authorization": "Bearer nope"}, 401, ""},
		{"sign malformed token", "/api/v1/nothing", map[string]string{"X-Auth-Token": "nope"}, 401, ""},
	}
	for _, tc := range tests {
		req := testkit.NewReq(t, s, "GET", tc.path)
		if strings.HasSuffix(tc.path, "/create") {
			req.Method = "POST"
		}
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		var e testkit.APIError
		if st, b := testkit.Do(t, s, req, &e); st != tc.status || e.StatusCode != tc.status || !strings.HasPrefix(e.Message, tc.message) {
			t.Errorf("%s: %d, want %d %q: %s", tc.name, st, tc.status, tc.message, b)
		}
	}
}

// TestSendMalformedTokenShape: the Send service answers a token it cannot
// parse exactly as the platform does.
func TestSendMalformedTokenShape(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	req := testkit.NewReq(t, s, "POST", "/send/api/v1/casefiles/20251022/create")
	req.Header.Set("X-Auth-Token", "not-a-token")
	st, b := testkit.Do(t, s, req, nil)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%d %s: %v", st, b, err)
	}
	want := map[string]any{"error": "Bad Request", "message": "Invalid JWT token: Invalid token format", "statusCode": float64(400)}
	if st != 400 || !reflect.DeepEqual(got, want) {
		t.Errorf("answer %d %s, want 400 %v", st, b, want)
	}
}

// newServer is the kit's manual-clock mock.
func newServer(t testing.TB) *mockserver.Server { return mocktest.Manual(t) }
