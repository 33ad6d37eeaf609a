package testkit

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// SampleForm is a form that exercises every feature: mapped signer fields,
// a CHOICE that opens a conditional section, a conditional required field,
// HTML review content with merge fields, a FILE field.
func SampleForm() map[string]any {
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

// JobApplication is the vendor's multi-entry example
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1):
// a multi-entry field (phone_numbers, up to 3 values) and a multi-entry section
// (previous-employment, up to maxJobs instances), plus a section without slug
// and an HTML field without name.
func JobApplication(maxJobs int) map[string]any {
	return map[string]any{
		"name": "Job Application", "language": "EN", "description": "Apply here.",
		"caseFileTitleTemplate": "{{formName}} - {{primarySigner.name}}",
		"sections": []any{
			map[string]any{"slug": "personal-information", "title": "Personal Information", "fields": []any{
				map[string]any{"name": "full_name", "label": "Full Name", "required": true, "type": "TEXT", "mapTo": "primarySigner.name",
					"validations": map[string]any{"minLength": 2, "maxLength": 100}},
				map[string]any{"name": "email_address", "label": "Email Address", "required": true, "type": "EMAIL", "mapTo": "primarySigner.email"},
				map[string]any{"name": "phone_numbers", "label": "Phone Numbers", "required": true, "type": "PHONE",
					"multipleEntries": map[string]any{"max": 3}, "countryCodes": []any{"DK", "SE"}},
			}},
			map[string]any{"slug": "previous-employment", "title": "Previous Employment", "description": "Add up to some employers.",
				"multipleEntries": map[string]any{"max": maxJobs}, "fields": []any{
					map[string]any{"name": "employer", "label": "Employer", "required": true, "type": "TEXT"},
					map[string]any{"name": "job_title", "label": "Job Title", "required": true, "type": "TEXT"},
					map[string]any{"name": "reference", "label": "Reference", "type": "FILE"},
				}},
			map[string]any{"title": "Summary", "fields": []any{
				map[string]any{"type": "HTML", "content": "<p>{{full_name}} worked at {{employer}}.</p>"},
			}},
		},
	}
}

// FormView is the decoded form answer of the Forms service.
type FormView struct {
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

// CreateForm creates def and answers its view, failing the test unless the
// answer is 201.
func CreateForm(t testing.TB, s Server, tok string, def any) FormView {
	t.Helper()
	var f FormView
	if st, b := Call(t, s, "POST", "/collect/api/v1/forms", tok, def, &f); st != 201 {
		t.Fatalf("create form: %d %s", st, b)
	}
	return f
}

// ActiveForm creates and publishes def.
func ActiveForm(t testing.TB, s Server, tok string, def any) FormView {
	t.Helper()
	f := CreateForm(t, s, tok, def)
	if st, b := Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/publish", tok, nil, &f); st != 200 {
		t.Fatalf("publish: %d %s", st, b)
	}
	return f
}

// APIError is the platform's JSON error body, as a client decodes it
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids).
type APIError struct {
	StatusCode int          `json:"statusCode"`
	Error      string       `json:"error"`
	Message    string       `json:"message"`
	Details    []FieldError `json:"details"`
}

// FieldError is one problem of a request in an APIError, named by the
// field it concerns.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ValidAnswers is a complete submission of SampleForm with a company: the
// public page's inputs by field name.
func ValidAnswers() map[string]string {
	return map[string]string{"fullName": "Ann Smith", "email": "ann@example.com", "phone": "+45 12345678",
		"hasCompany": "yes", "vat": "12345678", "companyName": "Ann ApS", "founded": "2020-01-31"}
}

// EditedForm answers a fresh copy of SampleForm with edit applied.
func EditedForm(edit func(m map[string]any)) map[string]any {
	return Edited(SampleForm(), edit)
}

// Edited deep-copies the form definition m through JSON and applies edit
// to the copy; m is left as it was.
func Edited(m map[string]any, edit func(m map[string]any)) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	edit(out)
	return out
}

// FieldOf reaches sections[si].fields[fi] of a decoded form definition.
func FieldOf(m map[string]any, si, fi int) map[string]any {
	return m["sections"].([]any)[si].(map[string]any)["fields"].([]any)[fi].(map[string]any)
}

// GetForm answers the raw GET answer of a form, failing the test unless
// the answer is 200.
func GetForm(t testing.TB, s Server, tok, id string) string {
	t.Helper()
	st, b := Call(t, s, "GET", "/collect/api/v1/forms/"+id, tok, nil, nil)
	if st != http.StatusOK {
		t.Fatalf("get form: %d %s", st, b)
	}
	return string(b)
}

// PublicPath is the path of a form's public page (its public URL without
// the mock's default base URL).
func PublicPath(f FormView) string { return strings.TrimPrefix(f.PublicURL, "http://signkit.mock") }

// PublicBody encodes the inputs of a public page as multipart/form-data,
// in order (a name may repeat, as "<field>[]" does), and the files by field
// name as {filename, content}. It answers the body and its Content-Type.
func PublicBody(t testing.TB, in [][2]string, files map[string][2]string) (*bytes.Buffer, string) {
	t.Helper()
	parts := make([]Part, 0, len(in)+len(files))
	for _, p := range in {
		parts = append(parts, Part{Field: p[0], Body: []byte(p[1])})
	}
	for field, f := range files {
		parts = append(parts, Part{Field: field, Filename: f[0], Body: []byte(f[1])})
	}
	return Multipart(t, parts...)
}

// PostPublic posts a submission of values (by input name) and files to a
// public page path, as PostPublicPairs does.
func PostPublic(t testing.TB, s Server, path string, values map[string]string, files map[string][2]string, jsonAccept bool, out any) (int, []byte) {
	t.Helper()
	in := make([][2]string, 0, len(values))
	for k, v := range values {
		in = append(in, [2]string{k, v})
	}
	return PostPublicPairs(t, s, path, in, files, jsonAccept, out)
}

// PostPublicPairs posts a submission to a public page path, as PublicBody
// encodes it, asking for JSON when jsonAccept is set (else the page's HTML
// answer); it decodes a JSON answer into out (when not nil) and answers
// the status and the raw body.
func PostPublicPairs(t testing.TB, s Server, path string, in [][2]string, files map[string][2]string, jsonAccept bool, out any) (int, []byte) {
	t.Helper()
	body, ct := PublicBody(t, in, files)
	req, err := http.NewRequest("POST", s.URL()+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if jsonAccept {
		req.Header.Set("Accept", "application/json")
	}
	return Do(t, s, req, out)
}
