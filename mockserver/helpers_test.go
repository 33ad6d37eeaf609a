package mockserver

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"

	"github.com/signkit/signkit-go/auth"
)

var epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// tokenBody builds a valid token request body for the credentials.
func tokenBody(c UserCredentials, createdAt time.Time) map[string]string {
	return tokenBodyAt(c, createdAt.UTC().Format(time.RFC3339))
}

// tokenBodyAt builds a token request body with created_at written as given.
func tokenBodyAt(c UserCredentials, ca string) map[string]string {
	nonce := make([]byte, 20)
	_, _ = rand.Read(nonce)
	return map[string]string{"grant_type": "api_keys", "client_id": c.ClientID, "client_secret": c.ClientSecret,
		"key": c.APIKey, "nonce": base64.StdEncoding.EncodeToString(nonce), "created_at": ca,
		"digest": auth.Digest(nonce, ca, c.APISecret)}
}

// call sends a request to the server in process and decodes a JSON answer
// into out (when out is not nil). It answers the status and raw body.
func call(t testing.TB, s *Server, method, path, token string, body any, out any) (int, []byte) {
	t.Helper()
	req := jsonRequest(t, s, method, path, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, s, req, out)
}

// jsonRequest builds a request to the server with body (when not nil)
// marshalled as JSON.
func jsonRequest(t testing.TB, s *Server, method, path string, body any) *http.Request {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, s.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

func do(t testing.TB, s *Server, req *http.Request, out any) (int, []byte) {
	t.Helper()
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: decode %q: %v", req.Method, req.URL, b, err)
		}
	}
	return resp.StatusCode, b
}

// login answers a fresh access token for the credentials.
func login(t testing.TB, s *Server, c UserCredentials) string {
	t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if st, b := call(t, s, "POST", "/auth/oauth/token", "", tokenBody(c, time.Now()), &tok); st != 200 {
		t.Fatalf("login: %d %s", st, b)
	}
	return tok.AccessToken
}

// apiErr is the JSON error body.
type apiErr struct {
	StatusCode int               `json:"statusCode"`
	Error      string            `json:"error"`
	Message    string            `json:"message"`
	Details    []wire.FieldError `json:"details"`
}

func newManual(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := New(append([]Option{WithManualClock(epoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

func newReq(t testing.TB, s *Server, method, path string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
