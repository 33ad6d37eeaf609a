package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/testkit"

// The kit's form helpers under the names these tests use.
var (
	sampleForm   = testkit.SampleForm
	activeForm   = testkit.ActiveForm
	validAnswers = testkit.ValidAnswers
)

func (s *Server) formCount() int {
	n, _, _ := s.core.Forms.Counts()
	return n
}
