package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/signkit/signkit-go/internal/jsonmembers"
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

// IsKnown reports whether t is one of the field types this package names
// (TypeText … TypeFile). It is advisory: the vendor's form builder makes field
// types beyond these (a personal id, a business id, digits, multiple choice, a
// dropdown;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1),
// and Validate, Create and Update accept a type this package does not know, Get
// and Update give it back unchanged, and its answers read as text
// (Answer.Value). Use IsKnown to decide whether to read an answer through a
// typed accessor.
func (t FieldType) IsKnown() bool {
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
//
// On the wire the identifier is "formId" (the platform's name) and "externalId"
// (the specification's), the same value; a Form decodes either and encodes both
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
type Form struct {
	// ExternalID identifies the form in every path; it is assigned by the
	// service on Create and stays the same across versions. Decoders also
	// accept it under the name "formId", and encoders write both names.
	ExternalID string `json:"externalId,omitempty"`
	Name       string `json:"name"`
	// Language is the language of the public pages, given back as sent
	// (the service matches it case-insensitively: "EN" and "en" are alike).
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
	// Extra holds the form-level members of the form's JSON that this
	// package does not model (a storage folder, for one), so that Get
	// followed by Update gives them back unchanged; Create and Update send
	// them. A member this package models is never taken from Extra.
	Extra map[string]json.RawMessage `json:"-"`
}

// formNames are the members a Form models, with the alias formId.
var formNames = jsonmembers.Of(reflect.TypeFor[Form](), "formId")

// MarshalJSON encodes the form with its identifier under both "formId" and
// "externalId", and with its Extra members.
func (f Form) MarshalJSON() ([]byte, error) {
	type plain Form
	b, err := json.Marshal(struct {
		FormID string `json:"formId,omitempty"`
		plain
	}{f.ExternalID, plain(f)})
	if err != nil {
		return nil, err
	}
	return jsonmembers.With(b, f.Extra, formNames)
}

// UnmarshalJSON decodes a form, accepting "formId" (a string or a number)
// where "externalId" is absent and keeping the members it does not model
// in Extra.
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
	f.Extra = jsonmembers.Unknown(b, formNames)
	return nil
}

// definition is the body of Create and Update: the parts of a form that the
// caller defines, with the form's Extra members.
type definition struct {
	Name                  string    `json:"name"`
	Language              string    `json:"language,omitempty"`
	Description           string    `json:"description,omitempty"`
	CaseFileTitleTemplate string    `json:"caseFileTitleTemplate,omitempty"`
	Sections              []Section `json:"sections"`
	extra                 map[string]json.RawMessage
}

// MarshalJSON encodes the definition with the form's Extra members but for
// those a Form models (its status, version and the like are not sent).
func (d definition) MarshalJSON() ([]byte, error) {
	type plain definition
	b, err := json.Marshal(plain(d))
	if err != nil {
		return nil, err
	}
	return jsonmembers.With(b, d.extra, formNames)
}

func definitionOf(f *Form) definition {
	return definition{
		Name:                  f.Name,
		Language:              f.Language,
		Description:           f.Description,
		CaseFileTitleTemplate: f.CaseFileTitleTemplate,
		Sections:              f.Sections,
		extra:                 f.Extra,
	}
}

// MultipleEntries makes a section or a field repeatable: the end user may
// add up to Max instances of the section, or Max values of the field
// ({"max": n} on the wire). Max 0 states no maximum and is not sent.
type MultipleEntries struct {
	Max int `json:"max,omitempty"`
}

// Repeat returns a MultipleEntries that allows up to max entries.
func Repeat(max int) *MultipleEntries { return &MultipleEntries{Max: max} }

// decodeMultipleEntries reads a "multipleEntries" member: an object
// {"max": n}; true (as answers spell it) means repeatable without a stated
// maximum; false, null or absence means not repeatable.
func decodeMultipleEntries(raw json.RawMessage) (*MultipleEntries, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0, bytes.Equal(raw, []byte("null")), bytes.Equal(raw, []byte("false")):
		return nil, nil
	case bytes.Equal(raw, []byte("true")):
		return &MultipleEntries{}, nil
	}
	var m MultipleEntries
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("forms: multipleEntries: %w", err)
	}
	return &m, nil
}

// Section is an ordered group of fields. A section with a Condition stays
// hidden until the condition, on fields of earlier sections, holds.
type Section struct {
	// Slug identifies the section, e.g. as the key of a v2 prefilled request.
	// It may be left empty: the service then makes one from the title (lower
	// case, words joined by "-", unique in the form) and Get answers it
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
	Slug        string     `json:"slug,omitempty"`
	Title       string     `json:"title,omitempty"`
	Description string     `json:"description,omitempty"`
	Condition   *Condition `json:"condition,omitempty"`
	// MultipleEntries, when set, lets the end user fill the section several
	// times (e.g. one instance per previous employer); the answers then
	// come back as AnswerSection.Instances.
	MultipleEntries *MultipleEntries `json:"multipleEntries,omitempty"`
	Fields          []Field          `json:"fields"`
	// Extra holds the members of the section's JSON that this package does
	// not model, so that Get followed by Update gives them back unchanged.
	Extra map[string]json.RawMessage `json:"-"`
}

var sectionNames = jsonmembers.Of(reflect.TypeFor[Section]())

// MarshalJSON encodes the section with its Extra members.
func (s Section) MarshalJSON() ([]byte, error) {
	type plain Section
	b, err := json.Marshal(plain(s))
	if err != nil {
		return nil, err
	}
	return jsonmembers.With(b, s.Extra, sectionNames)
}

// UnmarshalJSON decodes a section, keeping the members it does not model
// in Extra.
func (s *Section) UnmarshalJSON(b []byte) error {
	type plain Section
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
	*s = Section(w.plain)
	s.MultipleEntries = me
	s.Extra = jsonmembers.Unknown(b, sectionNames)
	return nil
}

// Layout is how a CHOICE field shows its options.
type Layout string

// The layouts of a CHOICE field.
const (
	// LayoutRadio shows the options as radio buttons.
	LayoutRadio Layout = "RADIO"
	// LayoutSelect shows the options as a drop-down list.
	LayoutSelect Layout = "SELECT"
)

// Field is one field of a section.
type Field struct {
	// Name is the key of answers, prefilled values, merge fields and
	// conditions; it is unique in the form. Every field but an HTML field
	// needs one (the platform's own examples send HTML fields without a
	// name).
	Name     string    `json:"name,omitempty"`
	Label    string    `json:"label,omitempty"`
	Type     FieldType `json:"type"`
	Required bool      `json:"required,omitempty"`
	// MapTo marks the filler as a party of the case file: MapPrimarySignerName
	// or MapPrimarySignerEmail, the targets the service documents. A field
	// mapped to a property ending in ".email" must be of type EMAIL.
	MapTo string `json:"mapTo,omitempty"`
	// Content is the HTML of a TypeHTML field; {{fieldName}} merge fields
	// name required, unconditional fields of earlier sections.
	Content string `json:"content,omitempty"`
	// Condition hides the field until it holds; it references earlier fields.
	Condition *Condition `json:"condition,omitempty"`
	// Options are the choices of a TypeChoice field.
	Options []Option `json:"options,omitempty"`
	// Layout is how a CHOICE field shows its options: LayoutRadio or
	// LayoutSelect; empty leaves it to the service.
	Layout Layout `json:"layout,omitempty"`
	// Multiline makes a TEXT field a multi-line text area.
	Multiline bool `json:"multiline,omitempty"`
	// CountryCodes are the countries (ISO 3166-1 alpha-2, e.g. "DK") a
	// PHONE field offers. Decoders also accept the name "countryOptions".
	CountryCodes []string `json:"countryCodes,omitempty"`
	// MultipleEntries, when set, lets the end user give several values; the
	// answer then carries them in Answer.Values.
	MultipleEntries *MultipleEntries `json:"multipleEntries,omitempty"`
	Validations     *Validations     `json:"validations,omitempty"`
	// Extra holds the members of the field's JSON that this package does
	// not model, so that Get followed by Update gives them back unchanged.
	Extra map[string]json.RawMessage `json:"-"`
}

// fieldNames are the members a Field models, with the alias countryOptions.
var fieldNames = jsonmembers.Of(reflect.TypeFor[Field](), "countryOptions")

// MarshalJSON encodes the field with its Extra members.
func (f Field) MarshalJSON() ([]byte, error) {
	type plain Field
	b, err := json.Marshal(plain(f))
	if err != nil {
		return nil, err
	}
	return jsonmembers.With(b, f.Extra, fieldNames)
}

// UnmarshalJSON decodes a field, reading "countryOptions" where
// "countryCodes" is absent and keeping the members it does not model in
// Extra.
func (f *Field) UnmarshalJSON(b []byte) error {
	type plain Field
	var w struct {
		plain
		MultipleEntries json.RawMessage `json:"multipleEntries"`
		CountryOptions  []string        `json:"countryOptions"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	me, err := decodeMultipleEntries(w.MultipleEntries)
	if err != nil {
		return err
	}
	*f = Field(w.plain)
	f.MultipleEntries = me
	if f.CountryCodes == nil {
		f.CountryCodes = w.CountryOptions
	}
	f.Extra = jsonmembers.Unknown(b, fieldNames)
	return nil
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
	// Extra holds the validations this package does not model, and a
	// modelled one whose value has another shape (say "min":"10"), as
	// sent, so that Get followed by Update gives them back unchanged.
	Extra map[string]json.RawMessage `json:"-"`
}

// MarshalJSON encodes the validations with their Extra members.
func (v Validations) MarshalJSON() ([]byte, error) {
	type plain Validations
	b, err := json.Marshal(plain(v))
	if err != nil {
		return nil, err
	}
	return jsonmembers.With(b, v.Extra, nil)
}

// UnmarshalJSON decodes validations member by member: a member that is not
// modelled, or whose value does not fit its Go type, goes to Extra.
func (v *Validations) UnmarshalJSON(b []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	*v = Validations{}
	targets := map[string]any{
		"minLength": &v.MinLength, "maxLength": &v.MaxLength, "pattern": &v.Pattern,
		"min": &v.Min, "max": &v.Max, "maxFileSize": &v.MaxFileSize,
	}
	for k, raw := range members {
		if t, ok := targets[k]; ok && decodeInto(raw, t) {
			continue
		}
		if v.Extra == nil {
			v.Extra = map[string]json.RawMessage{}
		}
		v.Extra[k] = raw
	}
	return nil
}

// decodeInto decodes raw into the variable that ptr points to, and reports
// whether it did; on failure the variable is left unchanged (json.Unmarshal
// may already have allocated a pointer before failing).
func decodeInto(raw json.RawMessage, ptr any) bool {
	dst := reflect.ValueOf(ptr).Elem()
	tmp := reflect.New(dst.Type())
	if json.Unmarshal(raw, tmp.Interface()) != nil {
		return false
	}
	dst.Set(tmp.Elem())
	return true
}
