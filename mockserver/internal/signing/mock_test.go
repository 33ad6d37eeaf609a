package signing_test

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The tests of this file's package reach the signing service through a
// mock started by the exported API, the shared kit (testkit), and
// testkit.Core for what no route shows
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#layout).

// newManual is a mock on a manual clock from testkit.Epoch, closed when the
// test ends.
func newManual(t testing.TB, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	s := mockserver.New(append([]mockserver.Option{mockserver.WithManualClock(testkit.Epoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

// newMock is a manual-clock mock, a token of its default admin, and a valid
// PDF to upload.
func newMock(t testing.TB, opts ...mockserver.Option) (*mockserver.Server, string, testkit.Part) {
	t.Helper()
	s := newManual(t, opts...)
	return s, adminToken(t, s), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text"))
}

// adminToken answers a fresh access token of the mock's default admin.
func adminToken(t testing.TB, s *mockserver.Server) string {
	t.Helper()
	return testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
}

// userToken adds a user to s and answers a token of theirs.
func userToken(t *testing.T, s *mockserver.Server, spec mockserver.UserSpec) string {
	t.Helper()
	c, err := s.AddUser(spec)
	if err != nil {
		t.Fatal(err)
	}
	return testkit.Login(t, s, testkit.Credentials(c))
}

const day = 24 * time.Hour

// Signer statuses, the platform's wire values
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Signer status").
const (
	signerNew     = 0
	signerPending = 1
)
