package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/signkit/signkit-go/internal/transport"
)

// Answers are the answers of one submission, grouped by section in form
// order. Version is the form version that was submitted. A repeatable
// section (AnswerSection.MultipleEntries) carries its answers per instance
// in AnswerSection.Instances; Get, GetAll and Map look into both.
type Answers struct {
	SubmissionID int64           `json:"submissionId"`
	ExternalID   string          `json:"externalId"` // also decoded from "formId"
	Version      int             `json:"version"`
	Sections     []AnswerSection `json:"sections"`
	// Respondents is the service's "respondents" member as sent; its shape
	// is not documented, so it is kept as JSON.
	Respondents json.RawMessage `json:"respondents,omitempty"`
}

// UnmarshalJSON decodes answers, accepting "formId" where "externalId" is
// absent.
func (a *Answers) UnmarshalJSON(b []byte) error {
	type plain Answers
	var w struct {
		plain
		FormID flexString `json:"formId"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = Answers(w.plain)
	if a.ExternalID == "" {
		a.ExternalID = string(w.FormID)
	}
	return nil
}

// AnswerSection holds the answers given in one section. A section that is not
// repeatable has its answers in Answers; a repeatable one (MultipleEntries
// true) has them in Instances, one per time the end user filled it in, in order
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1,
// answers).
type AnswerSection struct {
	Slug            string           `json:"slug"`
	Title           string           `json:"title"`
	MultipleEntries bool             `json:"multipleEntries,omitempty"`
	Answers         []Answer         `json:"answers,omitempty"`
	Instances       []AnswerInstance `json:"instances,omitempty"`
}

// UnmarshalJSON decodes a section of answers; "multipleEntries" may be a
// boolean or, as in a form definition, an object (meaning true).
func (s *AnswerSection) UnmarshalJSON(b []byte) error {
	type plain AnswerSection
	var w struct {
		plain
		MultipleEntries json.RawMessage `json:"multipleEntries"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	me, err := decodeMultipleEntries(w.MultipleEntries)
	if err != nil {
		return err
	}
	*s = AnswerSection(w.plain)
	s.MultipleEntries = me != nil
	return nil
}

// all returns the answers of the section: Answers, then those of each
// instance in order.
func (s *AnswerSection) all(yield func(Answer) bool) {
	for _, a := range s.Answers {
		if !yield(a) {
			return
		}
	}
	for _, in := range s.Instances {
		for _, a := range in.Answers {
			if !yield(a) {
				return
			}
		}
	}
}

// AnswerInstance is one filling-in of a repeatable section.
type AnswerInstance struct {
	Answers []Answer `json:"answers"`
}

// Get returns the answer to the field named name in this instance, and
// whether there is one.
func (in AnswerInstance) Get(name string) (Answer, bool) {
	for _, a := range in.Answers {
		if a.Name == name {
			return a, true
		}
	}
	return Answer{}, false
}

// Answer is the answer to one field. Value holds a single answer as text
// (numbers and booleans in their JSON spelling, a typed object as its JSON
// text); Values holds the answers of a repeatable field (wire name
// "values") or of a field with several choices. Use the accessors to read
// it typed.
type Answer struct {
	Name   string    `json:"name"`
	Label  string    `json:"label"`
	Type   FieldType `json:"type"`
	Value  string    `json:"value"`
	Values []string  `json:"values,omitempty"`
}

// UnmarshalJSON decodes an answer whose "value" is a string, a number, a
// boolean, null, an array (into Values) or an object (kept as JSON text),
// and whose "values" elements may be any of these too (each as text).
func (a *Answer) UnmarshalJSON(b []byte) error {
	var w struct {
		Name   string            `json:"name"`
		Label  string            `json:"label"`
		Type   FieldType         `json:"type"`
		Value  json.RawMessage   `json:"value"`
		Values []json.RawMessage `json:"values"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = Answer{Name: w.Name, Label: w.Label, Type: w.Type}
	for _, v := range w.Values {
		a.Values = append(a.Values, rawText(v))
	}
	raw := bytes.TrimSpace(w.Value)
	if len(raw) > 0 && raw[0] == '[' {
		var vs []json.RawMessage
		if err := json.Unmarshal(raw, &vs); err == nil {
			for _, v := range vs {
				a.Values = append(a.Values, rawText(v))
			}
			return nil
		}
	}
	a.Value = rawText(raw)
	return nil
}

// Get returns the answer to the field named name, and whether there is
// one. Sections are searched in order; in a repeatable section, the
// instances are searched in order, so for a field that occurs in several
// instances Get returns the first instance's answer. GetAll returns them
// all.
func (a *Answers) Get(name string) (Answer, bool) {
	if a == nil {
		return Answer{}, false
	}
	for i := range a.Sections {
		for ans := range a.Sections[i].all {
			if ans.Name == name {
				return ans, true
			}
		}
	}
	return Answer{}, false
}

// GetAll returns every answer to the field named name, in form order: one
// per instance of a repeatable section (instance order), or the single
// answer of a field in a section that is not repeatable. It returns nil
// when the field has no answer.
func (a *Answers) GetAll(name string) []Answer {
	if a == nil {
		return nil
	}
	var out []Answer
	for i := range a.Sections {
		for ans := range a.Sections[i].all {
			if ans.Name == name {
				out = append(out, ans)
			}
		}
	}
	return out
}

// Map returns the answers keyed by field name, as text (see Answer.String).
// For a field answered in several instances of a repeatable section it
// holds the first instance's answer, as Get does.
func (a *Answers) Map() map[string]string {
	m := map[string]string{}
	if a == nil {
		return m
	}
	for i := range a.Sections {
		for ans := range a.Sections[i].all {
			if _, seen := m[ans.Name]; !seen {
				m[ans.Name] = ans.String()
			}
		}
	}
	return m
}

// String returns the answer as text: Value, or when it is empty, Values
// joined by ", ".
func (a Answer) String() string {
	if a.Value == "" && len(a.Values) > 0 {
		return strings.Join(a.Values, ", ")
	}
	return a.Value
}

// IsEmpty reports whether the field was left unanswered.
func (a Answer) IsEmpty() bool {
	return strings.TrimSpace(a.Value) == "" && len(a.Values) == 0
}

// Int returns a NUMBER answer as an integer.
func (a Answer) Int() (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(a.Value), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("forms: answer %q as an integer: %w", a.Name, err)
	}
	return n, nil
}

// Float returns a NUMBER answer as a floating-point number.
func (a Answer) Float() (float64, error) {
	f, err := strconv.ParseFloat(strings.TrimSpace(a.Value), 64)
	if err != nil {
		return 0, fmt.Errorf("forms: answer %q as a number: %w", a.Name, err)
	}
	return f, nil
}

// Bool returns a yes/no answer: true for "true", "1", "yes", "on" (what a
// checked HTML checkbox sends), false for "false", "0", "no", "off" and an
// empty answer; case is ignored.
func (a Answer) Bool() (bool, error) {
	switch strings.ToLower(strings.TrimSpace(a.Value)) {
	case "true", "1", "yes", "on":
		return true, nil
	case "false", "0", "no", "off", "":
		return false, nil
	}
	return false, fmt.Errorf("forms: answer %q as a boolean: %q is not yes or no", a.Name, a.Value)
}

// Time returns a DATE answer ("2006-01-02", as midnight UTC) or a date and
// time in RFC 3339.
func (a Answer) Time() (time.Time, error) {
	v := strings.TrimSpace(a.Value)
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("forms: answer %q as a date: %w", a.Name, err)
	}
	return t, nil
}

// Answers returns all answers of one submission of the form.
func (c *Client) Answers(ctx context.Context, externalID string, submissionID int64) (*Answers, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	var out Answers
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    c.url("forms", externalID, "submissions", strconv.FormatInt(submissionID, 10), "answers"),
		Auth:   transport.Bearer,
	}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: answers of submission %d of %s: %w", submissionID, externalID, err)
	}
	return &out, nil
}

// RequestAnswers returns the answers submitted through the prefilled request
// requestID of the form (GET
// /v1/forms/{externalID}/requests/{requestID}/answers,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
// The form must be ACTIVE or ARCHIVED; until a submission has been made through
// the request the service answers 404, for which errors.Is(err,
// signkit.ErrNotFound) holds.
func (c *Client) RequestAnswers(ctx context.Context, externalID, requestID string) (*Answers, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	if requestID == "" {
		return nil, invalid("request", Problem{Field: "requestID", Message: "is empty"})
	}
	var out Answers
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    c.url("forms", externalID, "requests", requestID, "answers"),
		Auth:   transport.Bearer,
	}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: answers of request %s of %s: %w", requestID, externalID, err)
	}
	return &out, nil
}
