package testkit

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/mockserver/internal/app"
	mockauth "github.com/signkit/signkit-go/mockserver/internal/auth"
)

// Server is what the kit needs of a mock: *mockserver.Server has it.
type Server interface {
	// URL is the mock's base URL, without a trailing slash.
	URL() string
	// Transport serves requests in process.
	Transport() http.RoundTripper
	// Handler is the mock's whole handler (Core finds the services by it).
	Handler() http.Handler
	// Advance moves mock time forward by d and waits for what falls due.
	Advance(d time.Duration)
	// Now answers the current mock time.
	Now() time.Time
	// SignerAction performs an action of a signer of a case file, as the
	// control API does.
	SignerAction(caseFileID, signerID int64, action string) error
}

// Epoch is where the manual clock of the mock's tests starts.
var Epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// Credentials are a user's ids and credentials; a
// mockserver.UserCredentials converts to them.
type Credentials = mockauth.Identity

// Core answers the services behind s, for what a test must read that no
// route shows. It panics when s's handler is not a mock's (one the test
// wrapped, say): a mistake in the test.
func Core(s Server) *app.App {
	a := app.Of(s.Handler())
	if a == nil {
		panic(fmt.Sprintf("testkit: the handler of %T is not a mock's", s))
	}
	return a
}

// TokenBody builds a valid token request body for the credentials, created
// at createdAt.
func TokenBody(c Credentials, createdAt time.Time) map[string]string {
	return TokenBodyAt(c, createdAt.UTC().Format(time.RFC3339))
}

// TokenBodyAt builds a token request body with created_at written as given.
func TokenBodyAt(c Credentials, createdAt string) map[string]string {
	nonce := make([]byte, 20)
	_, _ = rand.Read(nonce)
	return map[string]string{"grant_type": "api_keys", "client_id": c.ClientID, "client_secret": c.ClientSecret,
		"key": c.APIKey, "nonce": base64.StdEncoding.EncodeToString(nonce), "created_at": createdAt,
		"digest": auth.Digest(nonce, createdAt, c.APISecret)}
}

// Login answers a fresh access token for the credentials.
func Login(t testing.TB, s Server, c Credentials) string {
	t.Helper()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if st, b := Call(t, s, "POST", "/auth/oauth/token", "", TokenBody(c, time.Now()), &tok); st != 200 {
		t.Fatalf("login: %d %s", st, b)
	}
	return tok.AccessToken
}

// Call sends a request to the mock in process, with token as a Bearer
// token (when not empty) and body (when not nil) as JSON, and decodes a JSON
// answer into out (when not nil). It answers the status and the raw body.
func Call(t testing.TB, s Server, method, path, token string, body, out any) (int, []byte) {
	t.Helper()
	req := JSONRequest(t, s, method, path, body)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return Do(t, s, req, out)
}

// SDKCall is Call with the headers the SDK sends besides the token (Accept
// and Accept-Charset), as the webhook service sees them.
func SDKCall(t testing.TB, s Server, method, path, token string, body, out any) (int, []byte) {
	t.Helper()
	req := JSONRequest(t, s, method, path, body)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Accept-Charset", "utf-8")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return Do(t, s, req, out)
}

// JSONRequest builds a request to the mock with body (when not nil)
// marshalled as JSON.
func JSONRequest(t testing.TB, s Server, method, path string, body any) *http.Request {
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

// NewReq builds a request to the mock without a body.
func NewReq(t testing.TB, s Server, method, path string) *http.Request {
	t.Helper()
	return JSONRequest(t, s, method, path, nil)
}

// Do sends req to the mock in process and decodes a JSON answer into out
// (when out is not nil). It answers the status and the raw body.
func Do(t testing.TB, s Server, req *http.Request, out any) (int, []byte) {
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
