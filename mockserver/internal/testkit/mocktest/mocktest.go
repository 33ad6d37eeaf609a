// Package mocktest starts the mock for the tests of the mock's services:
// the part of the mock's test kit that needs the façade. Package testkit
// cannot import package mockserver (the façade's own tests use the kit, and
// would import themselves); the services' external test packages can, and
// share these helpers instead of each writing its own.
package mocktest

import (
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// Manual starts a mock on a manual clock at testkit.Epoch, with opts after
// the clock, and closes it when the test ends.
func Manual(t testing.TB, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	s := mockserver.New(append([]mockserver.Option{mockserver.WithManualClock(testkit.Epoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

// Login answers a fresh access token of the user c.
func Login(t testing.TB, s *mockserver.Server, c mockserver.UserCredentials) string {
	t.Helper()
	return testkit.Login(t, s, testkit.Credentials(c))
}

// AdminToken answers a fresh access token of the mock's default admin.
func AdminToken(t testing.TB, s *mockserver.Server) string {
	t.Helper()
	return Login(t, s, s.DefaultCredentials())
}

// AddUser adds a user to the mock and answers its credentials with a fresh
// token of theirs.
func AddUser(t testing.TB, s *mockserver.Server, spec mockserver.UserSpec) (mockserver.UserCredentials, string) {
	t.Helper()
	c, err := s.AddUser(spec)
	if err != nil {
		t.Fatalf("add user: %v", err)
	}
	return c, Login(t, s, c)
}

// SamplePDF is a valid one-page PDF document part, doc.pdf, to upload with
// a Send case file.
func SamplePDF() testkit.Part {
	return testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text"))
}
