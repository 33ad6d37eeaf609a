package send_test

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// These tests drive the Send service through a mock started with the
// exported API, with the mock's test kit (mockserver/internal/testkit).

// sendServer is a manual-clock mock, a token of its default admin, and a
// valid PDF to upload.
func sendServer(t testing.TB, opts ...mockserver.Option) (*mockserver.Server, string, testkit.Part) {
	t.Helper()
	s := mockserver.New(append([]mockserver.Option{mockserver.WithManualClock(testkit.Epoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s, login(t, s, s.DefaultCredentials()), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text"))
}

// login answers a fresh access token for the credentials.
func login(t testing.TB, s *mockserver.Server, c mockserver.UserCredentials) string {
	t.Helper()
	return testkit.Login(t, s, testkit.Credentials(c))
}

// titled is a one-signer case file definition with a title.
func titled(title string) map[string]any {
	cf := testkit.CaseDef("Ann:ann@example.com")
	cf["title"] = title
	return cf
}

const day = 24 * time.Hour
