package send

import (
	"fmt"
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// maxProblems is the most problems a refusal lists in its details; its message
// says how many there were
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#send-signing-simulation-events-and-emails,
// "Send bounds").
const maxProblems = 100

// problems collects the problems of a create request: the first
// maxProblems in full, the others only counted, so that neither the
// memory a bad body takes nor the answer grows with the body.
type problems struct {
	list wire.Problems // the first maxProblems
	n    int           // all of them
}

// Add records a problem of field.
func (p *problems) Add(field, format string, args ...any) {
	p.n++
	if len(p.list) < maxProblems {
		p.list.Add(field, format, args...)
	}
}

// addAll records every problem of q after p's.
func (p *problems) addAll(q problems) {
	for _, fe := range q.list {
		p.Add(fe.Field, "%s", fe.Message)
	}
	p.n += q.n - len(q.list)
}

// err is nil without problems, else the refusal that lists them (a 422,
// which the create routes answer as the platform's 400; service.go).
func (p *problems) err() error {
	if p.n == 0 {
		return nil
	}
	e := wire.Validation(p.list)
	if p.n > len(p.list) {
		e.Message = fmt.Sprintf("validation failed: %d problems; details lists the first %d, %d more are not listed",
			p.n, len(p.list), p.n-len(p.list))
	}
	return e
}

// errTooManyDocuments refuses a create request past the bound on its documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1);
// field names what went past it.
func errTooManyDocuments(field string, limit int) error {
	msg := fmt.Sprintf("a create request carries at most %d documents (the mock's bound: mockserver.WithMaxDocuments, -max-documents); this one has more", limit)
	return &wire.Error{Status: http.StatusBadRequest, Code: "bad_request", Message: msg,
		Details: []wire.FieldError{{Field: field, Message: fmt.Sprintf("at most %d documents", limit)}}}
}
