package send_test

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/testkit/mocktest"
)

// These tests drive the Send service through a mock started with the
// exported API, with the mock's test kit (mockserver/internal/testkit).

// sendServer is a manual-clock mock, a token of its default admin, and a
// valid PDF to upload.
func sendServer(t testing.TB, opts ...mockserver.Option) (*mockserver.Server, string, testkit.Part) {
	t.Helper()
	s := mocktest.Manual(t, opts...)
	return s, mocktest.AdminToken(t, s), mocktest.SamplePDF()
}

// login is the kit's, under the name these tests use.
var login = mocktest.Login

const day = 24 * time.Hour
