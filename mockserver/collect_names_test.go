package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/collect"

// The names of the forms service that the tests use, from package collect.
type (
	answersJSON    = collect.AnswersJSON
	fileJSON       = collect.FileJSON
	formJSON       = collect.FormJSON
	submissionJSON = collect.SubmissionJSON
)

// maxEntries bounds multipleEntries.max.
const maxEntries = collect.MaxEntries
