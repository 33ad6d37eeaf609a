package mockserver

import (
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// whEpoch is where the manual clock of the webhook tests starts.
var whEpoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// whServer is a manual-clock server for the webhook tests.
func whServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := New(append([]Option{WithManualClock(whEpoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

// The kit's webhook helpers under the names these tests use
// (mockserver/internal/testkit).
var (
	whCall      = testkit.SDKCall
	whSubscribe = testkit.Subscribe
	whTestEvent = testkit.SendTestEvent
	newReceiver = testkit.NewReceiver
)

type subscriptionJSON = testkit.Subscription

// whAdminToken logs in as the default admin.
func whAdminToken(t testing.TB, s *Server) string {
	t.Helper()
	return login(t, s, s.DefaultCredentials())
}

// whUser adds a user through POST /mock/users and logs in as it.
func whUser(t testing.TB, s *Server, spec UserSpec) (UserCredentials, string) {
	t.Helper()
	var c UserCredentials
	if st, b := whCall(t, s, "POST", "/mock/users", "", spec, &c); st != http.StatusCreated {
		t.Fatalf("POST /mock/users: %d %s", st, b)
	}
	return c, login(t, s, c)
}

// verifySignature is the kit's receiver-side signature check.
var verifySignature = testkit.VerifySignature
