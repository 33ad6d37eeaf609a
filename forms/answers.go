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
// order. Version is the form version that was submitted.
type Answers struct {
	SubmissionID int64           `json:"submissionId"`
	ExternalID   string          `json:"externalId"` // also decoded from "formId"
	Version      int             `json:"version"`
	Sections     []AnswerSection `json:"sections"`
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

// AnswerSection holds the answers given in one section.
type AnswerSection struct {
	Slug    string   `json:"slug"`
	Title   string   `json:"title"`
	Answers []Answer `json:"answers"`
}

// Answer is the answer to one field. Value holds a single answer as text
// (numbers and booleans in their JSON spelling); Values holds the answers of
// a field with several. Use the accessors to read it typed.
type Answer struct {
	Name   string    `json:"name"`
	Label  string    `json:"label"`
	Type   FieldType `json:"type"`
	Value  string    `json:"value"`
	Values []string  `json:"values,omitempty"`
}

// UnmarshalJSON decodes an answer whose "value" is a string, a number, a
// boolean, null, an array (into Values) or an object (kept as JSON text).
func (a *Answer) UnmarshalJSON(b []byte) error {
	var w struct {
		Name   string          `json:"name"`
		Label  string          `json:"label"`
		Type   FieldType       `json:"type"`
		Value  json.RawMessage `json:"value"`
		Values []flexString    `json:"values"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*a = Answer{Name: w.Name, Label: w.Label, Type: w.Type}
	for _, v := range w.Values {
		a.Values = append(a.Values, string(v))
	}
	raw := bytes.TrimSpace(w.Value)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
	case raw[0] == '"':
		return json.Unmarshal(raw, &a.Value)
	case raw[0] == '[':
		var vs []flexString
		if err := json.Unmarshal(raw, &vs); err != nil {
			a.Value = string(raw)
			return nil
		}
		for _, v := range vs {
			a.Values = append(a.Values, string(v))
		}
	default:
		a.Value = string(raw)
	}
	return nil
}

// Get returns the answer to the field named name, and whether there is one.
func (a *Answers) Get(name string) (Answer, bool) {
	if a == nil {
		return Answer{}, false
	}
	for _, s := range a.Sections {
		for _, ans := range s.Answers {
			if ans.Name == name {
				return ans, true
			}
		}
	}
	return Answer{}, false
}

// Map returns the answers keyed by field name, as text (see Answer.String).
func (a *Answers) Map() map[string]string {
	m := map[string]string{}
	if a == nil {
		return m
	}
	for _, s := range a.Sections {
		for _, ans := range s.Answers {
			m[ans.Name] = ans.String()
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
	if err := c.t.Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: answers of submission %d of %s: %w", submissionID, externalID, err)
	}
	return &out, nil
}
