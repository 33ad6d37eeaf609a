package forms

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/signkit/signkit-go/internal/transport"
)

// PrefillRequestV2 asks for a personalised link with some fields filled in, in
// the platform's current shape (POST /v2/forms/{id}/requests,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1):
// Answers is keyed by section slug, and each section has a list of instances,
// one map of field name to answer per instance. The list is needed for every
// section, repeatable or not: a section that is not repeatable takes a
// one-element list.
//
//	&forms.PrefillRequestV2{Answers: map[string][]map[string]forms.PrefillAnswer{
//		"personal-details": {{"full_name": {Value: "Jane Doe", Editable: true}}},
//		"previous-employment": {
//			{"employer": {Value: "Acme"}},
//			{"employer": {Value: "Initech"}},
//		},
//	}}
type PrefillRequestV2 struct {
	Answers map[string][]map[string]PrefillAnswer `json:"answers"`
}

// Validate checks what can be checked without the form: there is at least
// one section, no section slug or field name is empty, and every section
// has at least one instance.
func (r *PrefillRequestV2) Validate() error {
	return invalid("prefill request", r.problems()...)
}

func (r *PrefillRequestV2) problems() []Problem {
	if r == nil || len(r.Answers) == 0 {
		return []Problem{{Field: "answers", Message: "is empty"}}
	}
	var ps []Problem
	for _, slug := range sortedKeys(r.Answers) {
		path := "answers." + slug
		switch {
		case slug == "":
			ps = append(ps, Problem{Field: "answers", Message: "has an empty section slug"})
			continue
		case len(r.Answers[slug]) == 0:
			ps = append(ps, Problem{Field: path, Message: "has no instance: send a list of one for a section that is not repeatable"})
		}
		for i, in := range r.Answers[slug] {
			if _, ok := in[""]; ok {
				ps = append(ps, Problem{Field: fmt.Sprintf("%s[%d]", path, i), Message: "has an empty field name"})
			}
		}
	}
	return ps
}

// ValidateFor checks r against the form it is meant for: besides
// Validate's checks, every key must be the slug of a section of f, a
// section that is not repeatable has exactly one instance, a repeatable
// one at most its MultipleEntries.Max (when stated), and every field name
// must name a field of that section that takes a typed value (not HTML nor
// FILE). Problems are reported in slug order. With a nil f, ValidateFor
// checks only what Validate checks.
func (r *PrefillRequestV2) ValidateFor(f *Form) error {
	ps := r.problems()
	if len(ps) > 0 || f == nil {
		return invalid("prefill request", ps...)
	}
	sections := map[string]*Section{}
	for i := range f.Sections {
		if s := &f.Sections[i]; s.Slug != "" {
			sections[s.Slug] = s
		}
	}
	for _, slug := range sortedKeys(r.Answers) {
		ps = append(ps, checkInstances("answers."+slug, sections[slug], r.Answers[slug])...)
	}
	return invalid("prefill request", ps...)
}

// checkInstances checks the prefilled instances of section s (nil: the
// slug names no section).
func checkInstances(path string, s *Section, instances []map[string]PrefillAnswer) []Problem {
	if s == nil {
		return []Problem{{Field: path, Message: "names no section of the form"}}
	}
	var ps []Problem
	switch me := s.MultipleEntries; {
	case me == nil && len(instances) > 1:
		ps = append(ps, Problem{Field: path, Message: fmt.Sprintf("has %d instances but the section is not repeatable", len(instances))})
	case me != nil && me.Max > 0 && len(instances) > me.Max:
		ps = append(ps, Problem{Field: path, Message: fmt.Sprintf("has %d instances, more than the section's maximum %d", len(instances), me.Max)})
	}
	types := map[string]FieldType{}
	for _, fd := range s.Fields {
		if fd.Name != "" {
			types[fd.Name] = fd.Type
		}
	}
	for i, in := range instances {
		for _, name := range sortedKeys(in) {
			fp := fmt.Sprintf("%s[%d].%s", path, i, name)
			switch t, ok := types[name]; {
			case !ok:
				ps = append(ps, Problem{Field: fp, Message: "names no field of the section"})
			case t == TypeHTML || t == TypeFile:
				ps = append(ps, Problem{Field: fp, Message: fmt.Sprintf("a %s field cannot be prefilled", t)})
			}
		}
	}
	return ps
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// CreateRequestV2 creates a personalised link to the form with the
// answers of r prefilled, keyed by section slug with one entry per
// instance (POST /v2/forms/{externalID}/requests). The service answers 200
// with the link (any 2xx is accepted). A request without answers is
// refused before sending; to check the slugs and field names against the
// form before sending, call r.ValidateFor(form) first, or use
// CreateRequestV2For.
func (c *Client) CreateRequestV2(ctx context.Context, externalID string, r *PrefillRequestV2) (*PrefillLink, error) {
	if err := checkID(externalID); err != nil {
		return nil, err
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	var out PrefillLink
	req := &transport.Request{
		Method: http.MethodPost,
		URL:    transport.JoinURL(c.base()+"/v2", "forms", externalID, "requests"),
		Auth:   transport.Bearer, JSON: r,
	}
	if err := c.t().Do(ctx, req, &out); err != nil {
		return nil, fmt.Errorf("forms: create request (v2) for %s: %w", externalID, err)
	}
	return &out, nil
}

// CreateRequestV2For is CreateRequestV2 for form f (f.ExternalID),
// refusing with a *ValidationError, before sending, slugs, instance counts
// and field names that do not fit f (see PrefillRequestV2.ValidateFor).
func (c *Client) CreateRequestV2For(ctx context.Context, f *Form, r *PrefillRequestV2) (*PrefillLink, error) {
	if f == nil {
		return nil, invalid("request", Problem{Field: "form", Message: "is nil"})
	}
	if err := r.ValidateFor(f); err != nil {
		return nil, err
	}
	return c.CreateRequestV2(ctx, f.ExternalID, r)
}
