package mockserver

import (
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The kit's Send helpers under the names these tests use
// (mockserver/internal/testkit).
type (
	sndPart = testkit.Part
)

var (
	sndData      = testkit.DataPart
	sndFile      = testkit.FilePart
	sndCreate    = testkit.SendCreate
	sndRun       = testkit.RunCase
	sndCase      = testkit.CaseDef
	sndSignerID  = testkit.SignerID
	sndTempFiles = testkit.TempFiles
)

// sndServer is a manual-clock server, a token of its default admin, and a
// valid PDF to upload.
func sndServer(t testing.TB, opts ...Option) (*Server, string, sndPart) {
	t.Helper()
	s := newManual(t, opts...)
	return s, login(t, s, s.DefaultCredentials()), sndFile("doc.pdf", SamplePDF("Contract text"))
}

// sndCaseCount answers how many case files exist.
func sndCaseCount(s *Server) int {
	return s.core.Signing.Count()
}
