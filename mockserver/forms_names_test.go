package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/forms"

// The names of the forms service that the tests use, from package forms.
type (
	answersJSON    = forms.AnswersJSON
	fileJSON       = forms.FileJSON
	formJSON       = forms.FormJSON
	submissionJSON = forms.SubmissionJSON
)

// maxEntries bounds multipleEntries.max.
const maxEntries = forms.MaxEntries
