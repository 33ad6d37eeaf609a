package mockserver

import (
	"encoding/json"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The kit's form helpers under the names these tests use.
var (
	sampleForm = testkit.SampleForm
	createForm = testkit.CreateForm
	activeForm = testkit.ActiveForm
)

// formView is the decoded form answer.
type formView = testkit.FormView

// getForm answers the raw GET answer of a form.
func getForm(t testing.TB, s *Server, tok, id string) string {
	t.Helper()
	st, b := call(t, s, "GET", "/collect/api/v1/forms/"+id, tok, nil, nil)
	if st != 200 {
		t.Fatalf("get form: %d %s", st, b)
	}
	return string(b)
}

// mutate decodes def and applies edit to a fresh copy.
func mutate(edit func(m map[string]any)) map[string]any {
	b, _ := json.Marshal(sampleForm())
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	edit(m)
	return m
}

// fieldOf reaches sections[si].fields[fi] of a decoded form.
func fieldOf(m map[string]any, si, fi int) map[string]any {
	return m["sections"].([]any)[si].(map[string]any)["fields"].([]any)[fi].(map[string]any)
}

func (s *Server) formCount() int {
	n, _, _ := s.core.Forms.Counts()
	return n
}

func (s *Server) caseFileCount() int {
	return s.core.Signing.Count()
}

// validAnswers is a complete submission of sampleForm with a company.
func validAnswers() map[string]string {
	return map[string]string{"fullName": "Ann Smith", "email": "ann@example.com", "phone": "+45 12345678",
		"hasCompany": "yes", "vat": "12345678", "companyName": "Ann ApS", "founded": "2020-01-31"}
}
