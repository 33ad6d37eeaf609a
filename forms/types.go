package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Status is the lifecycle state of a form.
type Status string

// The states of a form. A created form is a draft; Publish makes it active;
// Archive makes it archived.
const (
	// StatusDraft: created or updated, not publicly accessible.
	StatusDraft Status = "DRAFT"
	// StatusActive: published; end users can open and submit it at its
	// public URL.
	StatusActive Status = "ACTIVE"
	// StatusArchived: the public URL no longer accepts submissions; existing
	// submissions stay retrievable.
	StatusArchived Status = "ARCHIVED"
)

// FieldType is the kind of a form field.
type FieldType string

// The field types.
const (
	// TypeText is free text.
	TypeText FieldType = "TEXT"
	// TypeEmail is an email address; a field mapped to an ".email" property
	// (such as primarySigner.email) must have this type.
	TypeEmail FieldType = "EMAIL"
	// TypePhone is a phone number.
	TypePhone FieldType = "PHONE"
	// TypeNumber is a number.
	TypeNumber FieldType = "NUMBER"
	// TypeDate is a calendar date (YYYY-MM-DD).
	TypeDate FieldType = "DATE"
	// TypeChoice is one of Options; it needs at least one option.
	TypeChoice FieldType = "CHOICE"
	// TypeHTML is reviewable text, not an input: Content is HTML whose
	// {{fieldName}} merge fields show answers given in earlier sections.
	TypeHTML FieldType = "HTML"
	// TypeFile is an uploaded file; it becomes an attachment of the case file.
	TypeFile FieldType = "FILE"
)

// Known reports whether t is one of the field types of this package.
func (t FieldType) Known() bool {
	switch t {
	case TypeText, TypeEmail, TypePhone, TypeNumber, TypeDate, TypeChoice, TypeHTML, TypeFile:
		return true
	}
	return false
}

// The mapTo targets: the properties of the case file's primary signer that
// a field can fill, so that the form's filler signs without a separate
// signer configuration.
const (
	MapPrimarySignerName  = "primarySigner.name"
	MapPrimarySignerEmail = "primarySigner.email"
)

// OperatorEquals is the operator of a condition rule: the rule holds when
// the answer of the referenced field equals the rule's value.
const OperatorEquals = "EQUALS"

// Form is a web form: its definition (name, sections and fields) and, as
// answered by the service, its identifier, status, version and public URL.
type Form struct {
	// ExternalID identifies the form in every path; it is assigned by the
	// service on Create and stays the same across versions. Decoders also
	// accept it under the name "formId".
	ExternalID  string `json:"externalId,omitempty"`
	Name        string `json:"name"`
	Language    string `json:"language,omitempty"`
	Description string `json:"description,omitempty"`
	// CaseFileTitleTemplate names the resulting case file. Its merge fields
	// are resolved at submission time; only {{formName}},
	// {{primarySigner.name}} and {{primarySigner.email}} exist.
	CaseFileTitleTemplate string `json:"caseFileTitleTemplate,omitempty"`
	// PublicURL is where end users open the form; set while it is ACTIVE.
	PublicURL string `json:"publicUrl,omitempty"`
	// Status is set by the service; it is not sent by Create or Update.
	Status Status `json:"status,omitempty"`
	// Version is the version number set by the service; Update of an
	// active form creates a new draft version.
	Version  int       `json:"version,omitempty"`
	Sections []Section `json:"sections"`
}

// UnmarshalJSON decodes a form, accepting "formId" (a string or a number)
// where "externalId" is absent.
func (f *Form) UnmarshalJSON(b []byte) error {
	type plain Form
	var w struct {
		plain
		FormID flexString `json:"formId"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*f = Form(w.plain)
	if f.ExternalID == "" {
		f.ExternalID = string(w.FormID)
	}
	return nil
}

// definition is the body of Create and Update: the parts of a form that the
// caller defines.
type definition struct {
	Name                  string    `json:"name"`
	Language              string    `json:"language,omitempty"`
	Description           string    `json:"description,omitempty"`
	CaseFileTitleTemplate string    `json:"caseFileTitleTemplate,omitempty"`
	Sections              []Section `json:"sections"`
}

func definitionOf(f *Form) definition {
	return definition{
		Name:                  f.Name,
		Language:              f.Language,
		Description:           f.Description,
		CaseFileTitleTemplate: f.CaseFileTitleTemplate,
		Sections:              f.Sections,
	}
}

// Section is an ordered group of fields. A section with a Condition stays
// hidden until the condition, on fields of earlier sections, holds.
type Section struct {
	Slug        string     `json:"slug,omitempty"`
	Title       string     `json:"title,omitempty"`
	Description string     `json:"description,omitempty"`
	Condition   *Condition `json:"condition,omitempty"`
	Fields      []Field    `json:"fields"`
}

// Field is one field of a section.
type Field struct {
	// Name is required and unique in the form: the key of answers,
	// prefilled values, merge fields and conditions.
	Name     string    `json:"name"`
	Label    string    `json:"label,omitempty"`
	Type     FieldType `json:"type"`
	Required bool      `json:"required,omitempty"`
	// MapTo marks the filler as a party of the case file: MapPrimarySignerName
	// or MapPrimarySignerEmail, the targets the service documents. A field
	// mapped to a property ending in ".email" must be of type EMAIL.
	MapTo string `json:"mapTo,omitempty"`
	// Content is the HTML of a TypeHTML field; {{fieldName}} merge fields
	// name fields of earlier sections.
	Content string `json:"content,omitempty"`
	// Condition hides the field until it holds; it references earlier fields.
	Condition *Condition `json:"condition,omitempty"`
	// Options are the choices of a TypeChoice field.
	Options     []Option     `json:"options,omitempty"`
	Validations *Validations `json:"validations,omitempty"`
}

// Condition holds when all of its rules hold.
type Condition struct {
	Rules []Rule `json:"rules"`
}

// Rule compares the answer of an earlier field with Value.
type Rule struct {
	Field    string `json:"field"`    // name of an earlier field
	Operator string `json:"operator"` // OperatorEquals
	Value    string `json:"value"`
}

// Equals returns a condition that holds when the answer of field equals value.
func Equals(field, value string) *Condition {
	return &Condition{Rules: []Rule{{Field: field, Operator: OperatorEquals, Value: value}}}
}

// Option is one choice of a TypeChoice field: Label is shown, Value is the
// answer submitted.
type Option struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// Validations are optional constraints that the form page and the service
// apply to an answer. Zero values (nil for Min and Max) mean no constraint.
//
//   - MinLength, MaxLength: length in characters of a TEXT, EMAIL or PHONE answer.
//   - Pattern: a regular expression that the whole answer must match.
//   - Min, Max: bounds of a NUMBER answer.
//   - MaxFileSize: the largest upload of a FILE field, in bytes.
//
// Validate reports MinLength above MaxLength and Min above Max.
type Validations struct {
	MinLength   int      `json:"minLength,omitempty"`
	MaxLength   int      `json:"maxLength,omitempty"`
	Pattern     string   `json:"pattern,omitempty"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	MaxFileSize int64    `json:"maxFileSize,omitempty"`
}

// flexString decodes a JSON string or number into a string; null and other
// kinds leave it empty.
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("forms: want a string or a number, got %s", b)
		}
		*s = flexString(n.String())
	}
	return nil
}
