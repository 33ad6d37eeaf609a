package forms_test

import (
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// newManual builds a mock on a manual clock at testkit.Epoch, closed when
// the test ends, and answers it with a fresh token of its default admin.
func newManual(t testing.TB, opts ...mockserver.Option) (*mockserver.Server, string) {
	t.Helper()
	s := mockserver.New(append([]mockserver.Option{mockserver.WithManualClock(testkit.Epoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s, login(t, s, s.DefaultCredentials())
}

// login answers a fresh access token of the user c.
func login(t testing.TB, s *mockserver.Server, c mockserver.UserCredentials) string {
	t.Helper()
	return testkit.Login(t, s, testkit.Credentials(c))
}

// prefillAnswer is the answer to a prefilled request: the link, or the
// error.
type prefillAnswer struct {
	RequestURL string `json:"requestUrl"`
	RequestID  string `json:"requestId"`
	testkit.APIError
}
