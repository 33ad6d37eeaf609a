package testkit

import "testing"

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
