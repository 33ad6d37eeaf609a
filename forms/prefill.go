package forms

import (
	"context"
	"fmt"
	"net/http"

	"github.com/signkit/signkit-go/internal/transport"
)

// PrefillRequest asks for a personalised link to a form with some fields
// filled in. Answers is keyed by field name.
type PrefillRequest struct {
	Answers map[string]PrefillAnswer `json:"answers"`
}

// PrefillAnswer is the prefilled value of one field. Editable false locks
// the field: the page shows it read-only and the service refuses a changed
// value.
type PrefillAnswer struct {
	Value    string `json:"value"`
	Editable bool   `json:"editable"`
}

// PrefillLink is the personalised link: RequestURL is the public URL to
// hand to the end user.
type PrefillLink struct {
	RequestURL string `json:"requestUrl"`
	RequestID  string `json:"requestId"`
}

// Validate checks what can be checked without the form: there is at least
// one answer and no answer key is empty.
func (r *PrefillRequest) Validate() error {
	return invalid("prefill request", r.problems()...)
}

func (r *PrefillRequest) problems() []Problem {
	if r == nil || len(r.Answers) == 0 {
		return []Problem{{Field: "answers", Message: "is empty"}}
	}
	if _, ok := r.Answers[""]; ok {
		return []Problem{{Field: "answers", Message: "has an empty field name"}}
	}
	return nil
}

// ValidateFor checks r against the form it is meant for: besides Validate's
// checks, every answer key must be the name of a field of f, and that field
// must take a typed value (not HTML, which is display only, nor FILE, which
// is uploaded). The service refuses other keys too; ValidateFor finds them
// before sending. Problems are reported in key order. With a nil f,
// ValidateFor checks only what Validate checks.
func (r *PrefillRequest) ValidateFor(f *Form) error {
	ps := r.problems()
	if len(ps) > 0 || f == nil {
		return invalid("prefill request", ps...)
	}
	types := map[string]FieldType{}
	for _, s := range f.Sections {
		for _, fd := range s.Fields {
			types[fd.Name] = fd.Type
		}
	}
	for _, k := range sortedKeys(r.Answers) {
		path := "answers." + k
		switch t, ok := types[k]; {
		case !ok:
			ps = append(ps, Problem{Field: path, Message: "names no field of the form"})
		case t == TypeHTML || t == TypeFile:
			ps = append(ps, Problem{Field: path, Message: fmt.Sprintf("a %s field cannot be prefilled", t)})
		}
	}
	return invalid("prefill request", ps...)
}

// CreateRequest creates a personalised link to the form with the answers of r prefilled (POST
// /v1/forms/{id}/requests; the service answers 200, any 2xx is accepted,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
// CreateRequestV2 sends the platform's current shape, keyed by section. A request without answers
// is refused before sending. The keys are checked against the form's field names by the service; to
// check them before sending, call r.ValidateFor(form) first, or use CreateRequestFor.
func (c *Client) CreateRequest(ctx context.Context, externalID string, r *PrefillRequest) (*PrefillLink, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var out PrefillLink
	req := &transport.Request{
		Method: http.MethodPost, URL: c.url("forms", externalID, "requests"),
		Auth: transport.Bearer, JSON: r,
	}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: create request for %s: %w", externalID, err)
	}
	return &out, nil
}

// CreateRequestFor is CreateRequest for form f (f.ExternalID), refusing
// with a *ValidationError, before sending, answer keys that are not field
// names of f (see ValidateFor).
func (c *Client) CreateRequestFor(ctx context.Context, f *Form, r *PrefillRequest) (*PrefillLink, error) {
	if f == nil {
		return nil, invalid("request", Problem{Field: "form", Message: "is nil"})
	}
	if err := r.ValidateFor(f); err != nil {
		return nil, err
	}
	return c.CreateRequest(ctx, f.ExternalID, r)
}
