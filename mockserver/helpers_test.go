package mockserver

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// The kit's helpers under the names these tests use
// (mockserver/internal/testkit).
var (
	epoch       = testkit.Epoch
	call        = testkit.Call
	jsonRequest = testkit.JSONRequest
	do          = testkit.Do
	newReq      = testkit.NewReq
)

// tokenBody builds a valid token request body for the credentials.
func tokenBody(c UserCredentials, createdAt time.Time) map[string]string {
	return testkit.TokenBody(testkit.Credentials(c), createdAt)
}

// login answers a fresh access token for the credentials.
func login(t testing.TB, s *Server, c UserCredentials) string {
	t.Helper()
	return testkit.Login(t, s, testkit.Credentials(c))
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
