package signing_test

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/testkit/mocktest"
)

// The tests of this file's package reach the signing service through a
// mock started by the exported API, the shared kit (testkit), and
// testkit.Core for what no route shows
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#layout).

// The kit's mock starters under the names these tests use.
var (
	newManual  = mocktest.Manual
	adminToken = mocktest.AdminToken
)

// newMock is a manual-clock mock, a token of its default admin, and a valid
// PDF to upload.
func newMock(t testing.TB, opts ...mockserver.Option) (*mockserver.Server, string, testkit.Part) {
	t.Helper()
	s := mocktest.Manual(t, opts...)
	return s, mocktest.AdminToken(t, s), mocktest.SamplePDF()
}

// userToken adds a user to s and answers a token of theirs.
func userToken(t testing.TB, s *mockserver.Server, spec mockserver.UserSpec) string {
	t.Helper()
	_, tok := mocktest.AddUser(t, s, spec)
	return tok
}

const day = 24 * time.Hour

// Signer statuses, the platform's wire values
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Signer status").
const (
	signerNew     = 0
	signerPending = 1
)
