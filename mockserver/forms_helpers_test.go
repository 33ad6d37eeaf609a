package mockserver

import (
	"encoding/json"
	"testing"
)

// sampleForm is a form that exercises every feature: mapped signer fields,
// a CHOICE that opens a conditional section, a conditional required field,
// HTML review content with merge fields, a FILE field.
func sampleForm() map[string]any {
	return map[string]any{
		"name": "Membership", "language": "en",
		"caseFileTitleTemplate": "{{formName}} for {{primarySigner.name}}",
		"sections": []any{
			map[string]any{"slug": "applicant", "title": "Applicant", "fields": []any{
				map[string]any{"name": "fullName", "label": "Full name", "type": "TEXT", "required": true, "mapTo": "primarySigner.name"},
				map[string]any{"name": "email", "label": "Email", "type": "EMAIL", "required": true, "mapTo": "primarySigner.email"},
				map[string]any{"name": "phone", "label": "Phone", "type": "PHONE"},
				map[string]any{"name": "hasCompany", "label": "Company?", "type": "CHOICE", "required": true,
					"options": []any{map[string]any{"label": "Yes", "value": "yes"}, map[string]any{"label": "No", "value": "no"}}},
				map[string]any{"name": "vat", "label": "VAT number", "type": "NUMBER", "required": true,
					"condition": map[string]any{"rules": []any{map[string]any{"field": "hasCompany", "operator": "EQUALS", "value": "yes"}}}},
			}},
			map[string]any{"slug": "company", "title": "Company", "condition": map[string]any{"rules": []any{
				map[string]any{"field": "hasCompany", "operator": "EQUALS", "value": "yes"}}},
				"fields": []any{
					map[string]any{"name": "companyName", "label": "Company name", "type": "TEXT", "required": true},
					map[string]any{"name": "founded", "label": "Founded", "type": "DATE"},
				}},
			map[string]any{"slug": "review", "title": "Review", "fields": []any{
				map[string]any{"name": "summary", "type": "HTML", "content": "<p>You are <b>{{fullName}}</b> &lt;{{email}}&gt;.</p>"},
				map[string]any{"name": "attachment", "label": "Attachment", "type": "FILE"},
			}},
		},
	}
}

// formView is the decoded form answer.
type formView struct {
	ExternalID   string `json:"externalId"`
	Name         string `json:"name"`
	Status       string `json:"status"`
	Version      int    `json:"version"`
	DraftVersion int    `json:"draftVersion"`
	PublicURL    string `json:"publicUrl"`
	Sections     []struct {
		Slug   string `json:"slug"`
		Fields []struct {
			Name string `json:"name"`
		} `json:"fields"`
	} `json:"sections"`
}

// createForm creates def and answers its view.
func createForm(t testing.TB, s *Server, tok string, def any) formView {
	t.Helper()
	var f formView
	if st, b := call(t, s, "POST", "/collect/api/v1/forms", tok, def, &f); st != 201 {
		t.Fatalf("create form: %d %s", st, b)
	}
	return f
}

// activeForm creates and publishes def.
func activeForm(t testing.TB, s *Server, tok string, def any) formView {
	t.Helper()
	f := createForm(t, s, tok, def)
	if st, b := call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/publish", tok, nil, &f); st != 200 {
		t.Fatalf("publish: %d %s", st, b)
	}
	return f
}

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
