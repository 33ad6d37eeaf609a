package apierror

import (
	"strconv"
	"strings"
)

// Problem is one thing wrong with a request, found before anything is sent.
type Problem struct {
	// Field is the path of the offending value, in the style of the
	// service's error details: "sections[1].fields[0].name", "endpoint".
	Field string
	// Message says what is wrong, for example "is required".
	Message string
}

// ValidationError is returned when the SDK refuses a request before sending
// it. It lists every problem found, not only the first. errors.Is(err,
// ErrValidation) holds for it, as for a 400 or 422 answered by a service.
type ValidationError struct {
	Package  string // the refusing package: "forms", "casefiles", "subscriptions"
	Subject  string // what was checked: "form", "case file", "subscription request"
	Problems []Problem
}

// Error lists all problems: "subscriptions: invalid subscription request: 2
// problems: endpoint: is required; eventTypes: ...".
func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString(e.Package + ": invalid " + e.Subject + ": ")
	if len(e.Problems) != 1 {
		b.WriteString(strconv.Itoa(len(e.Problems)) + " problems: ")
	}
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p.Field + ": " + p.Message)
	}
	return b.String()
}

// Is reports whether target is ErrValidation.
func (e *ValidationError) Is(target error) bool { return target == ErrValidation }

// Invalid returns a *ValidationError for problems, or nil when there are none.
func Invalid(pkg, subject string, problems ...Problem) error {
	if len(problems) == 0 {
		return nil
	}
	return &ValidationError{Package: pkg, Subject: subject, Problems: problems}
}
