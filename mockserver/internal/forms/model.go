package forms

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"
)

// Form states.
const (
	stateDraft    = "DRAFT"
	stateActive   = "ACTIVE"
	stateArchived = "ARCHIVED"
)

// Field types
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
const (
	typeText   = "TEXT"
	typeEmail  = "EMAIL"
	typePhone  = "PHONE"
	typeNumber = "NUMBER"
	typeDate   = "DATE"
	typeChoice = "CHOICE"
	typeHTML   = "HTML"
	typeFile   = "FILE"
)

// fieldTypes are the field types, in the order
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md lists them.
var fieldTypes = []string{typeText, typeEmail, typePhone, typeNumber, typeDate, typeChoice, typeHTML, typeFile}

// fieldType is a field's type: one of fieldTypes, or a type of the vendor's
// form builder that the mock does not know (a personal id, say), stored and
// given back as sent, shown on the public page as a text input and answered as
// text
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
// validateForm refuses only an empty type.
type fieldType string

// mapTarget is a field's mapTo: one of mapTargets, or "" for none.
type mapTarget string

// titleTemplate is a form's caseFileTitleTemplate: text in which each
// {{...}} is one of titleMergeFields.
type titleTemplate string

// formJSON is the wire shape of a form
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1),
// used to decode create and update bodies and to encode answers. The platform
// names the id formId, the spec externalId: both are sent with the same value.
type formJSON struct {
	FormID                string        `json:"formId"`
	ExternalID            string        `json:"externalId"`
	Name                  string        `json:"name"`
	Language              string        `json:"language"`
	Description           string        `json:"description"`
	Status                string        `json:"status"`
	Version               int           `json:"version"`
	DraftVersion          int           `json:"draftVersion,omitempty"` // an unpublished version waits
	CaseFileTitleTemplate titleTemplate `json:"caseFileTitleTemplate"`
	PublicURL             string        `json:"publicUrl,omitempty"`
	Sections              []sectionJSON `json:"sections"`
	Extra                 members       `json:"-"` // members not modelled, as sent (members.go)
}

// sectionJSON is one section of a form as sent and given back.
type sectionJSON struct {
	Slug            string         `json:"slug"`
	Title           string         `json:"title"`
	Description     string         `json:"description"`
	Condition       *conditionJSON `json:"condition,omitempty"`
	MultipleEntries *multiJSON     `json:"multipleEntries,omitempty"`
	Fields          []fieldJSON    `json:"fields"`
	Extra           members        `json:"-"` // members not modelled, as sent (members.go)
}

// fieldJSON is one field of a section as sent and given back. countryOptions
// is read as an alias of countryCodes and given back as countryCodes.
type fieldJSON struct {
	Name            string          `json:"name,omitempty"` // an HTML field may have none
	Label           string          `json:"label,omitempty"`
	Type            fieldType       `json:"type"`
	Required        bool            `json:"required"`
	MapTo           mapTarget       `json:"mapTo,omitempty"`
	Condition       *conditionJSON  `json:"condition,omitempty"`
	Content         string          `json:"content,omitempty"`
	Options         []optionJSON    `json:"options,omitempty"`
	Layout          string          `json:"layout,omitempty"`
	Multiline       *bool           `json:"multiline,omitempty"`
	CountryCodes    []string        `json:"countryCodes,omitempty"`
	CountryOptions  []string        `json:"countryOptions,omitempty"` // read only: moved to CountryCodes
	MultipleEntries *multiJSON      `json:"multipleEntries,omitempty"`
	Validations     json.RawMessage `json:"validations,omitempty"`
	Extra           members         `json:"-"` // members not modelled, as sent (members.go)
}

// multiJSON is the multipleEntries property of a section or field: up to
// Max instances (values).
type multiJSON struct {
	Max int `json:"max"`
}

type conditionJSON struct {
	Rules []ruleJSON `json:"rules"`
}

type ruleJSON struct {
	Field    string `json:"field"`
	Operator string `json:"operator"`
	Value    string `json:"value"`
}

type optionJSON struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// form is a stored form: its state and its versions.
type form struct {
	externalID string
	ownerID    int64
	customerID int64
	status     string
	live       *formVersion // the published version (ACTIVE or ARCHIVED)
	draft      *formVersion // the unpublished version, if any
	requests   map[string]*prefill
	subs       []*submission // ascending ids
	created    time.Time
}

// formVersion is one immutable version of a form's definition.
type formVersion struct {
	number        int
	name          string
	language      string
	description   string
	titleTemplate string
	extra         members // the form's members not modelled, as sent
	sections      []sectionJSON
	inputs        []inputField   // every field that takes an answer, in order
	byName        map[string]int // field name → index in inputs

	pageMu sync.Mutex             // one render at a time
	page   atomic.Pointer[[]byte] // the rendered public page without prefill, once asked for
}

// inputField locates a field that takes an answer (every type but HTML).
type inputField struct {
	section int
	field   int
	def     *fieldJSON
}

// multiSection reports whether the field's section takes several instances.
func (v *formVersion) multiSection(in inputField) bool {
	return v.sections[in.section].MultipleEntries != nil
}

// prefill is a personalised link: per section, one map of prefilled answers
// by field name per instance (one instance for a section without
// multipleEntries). sub is the latest submission made through the link.
type prefill struct {
	id       string
	sections map[int][]map[string]prefillAnswer
	sub      *submission
}

type prefillAnswer struct {
	Value    string `json:"value"`
	Editable bool   `json:"editable"`
}

// answer answers the prefilled answer of a field in an instance of a section.
func (pf *prefill) answer(section, instance int, name string) (prefillAnswer, bool) {
	if pf == nil {
		return prefillAnswer{}, false
	}
	inst := pf.sections[section]
	if instance >= len(inst) {
		return prefillAnswer{}, false
	}
	a, ok := inst[instance][name]
	return a, ok
}

// instances answers how many instances of a section the link prefills.
func (pf *prefill) instances(section int) int {
	if pf == nil {
		return 0
	}
	return len(pf.sections[section])
}

// submission is a completed submission.
type submission struct {
	id          int64
	caseFileID  int64
	requestID   string // the prefilled request it was made through, if any
	version     *formVersion
	completedAt time.Time
	answerSet
}

// answerSet holds the answers of a submission by input field. values has
// the one answer of each field ("" where unanswered or hidden); for a field
// of a multi-entry section it is the first instance's answer and for a
// multi-entry field its first value, which is what conditions, merge fields
// and mapTo read. lists has every answer of those two kinds: one per
// instance (in instance order) or one per value; nil for other fields.
// counts has the number of instances of each section (0 while hidden).
type answerSet struct {
	values []string
	lists  [][]string
	counts []int
}

// newVersion builds a version from a validated definition.
func newVersion(number int, def *formJSON) *formVersion {
	v := &formVersion{number: number, name: def.Name, language: def.Language, description: def.Description,
		titleTemplate: string(def.CaseFileTitleTemplate), extra: def.Extra, sections: def.Sections, byName: map[string]int{}}
	// A form without sections, or a section without fields, answers [],
	// not null: the shapes docs/openapi.json describes.
	if v.sections == nil {
		v.sections = []sectionJSON{}
	}
	for si := range v.sections {
		if v.sections[si].Fields == nil {
			v.sections[si].Fields = []fieldJSON{}
		}
		for fi := range v.sections[si].Fields {
			f := &v.sections[si].Fields[fi]
			if f.Type == typeHTML {
				continue
			}
			v.byName[f.Name] = len(v.inputs)
			v.inputs = append(v.inputs, inputField{section: si, field: fi, def: f})
		}
	}
	return v
}

// json answers the wire shape of a version of a form in the given status.
func (v *formVersion) json(externalID, status, publicURL string) formJSON {
	return formJSON{FormID: externalID, ExternalID: externalID, Name: v.name, Language: v.language,
		Description: v.description, Status: status, Version: v.number, CaseFileTitleTemplate: titleTemplate(v.titleTemplate),
		PublicURL: publicURL, Sections: v.sections, Extra: v.extra}
}

// value answers the answer to the named input field, "" when there is none.
func (v *formVersion) value(values []string, name string) string {
	if i, ok := v.byName[name]; ok && i < len(values) {
		return values[i]
	}
	return ""
}

// holds reports whether a condition holds for the answers: every rule's field
// is visible and its answer equals the rule's value. A nil condition holds.
func (v *formVersion) holds(c *conditionJSON, values []string, visible []bool) bool {
	if c == nil {
		return true
	}
	for _, r := range c.Rules {
		i, ok := v.byName[r.Field]
		if !ok || !visible[i] || values[i] != r.Value {
			return false
		}
	}
	return true
}

// visibility answers, per input field, whether it is shown for the answers
// (its section's condition and its own hold), and per section whether the
// section is shown. Conditions only reference earlier fields outside
// multi-entry sections and fields, so one pass in order settles everything,
// the same for every instance.
func (v *formVersion) visibility(values []string) (fields []bool, sections []bool) {
	fields = make([]bool, len(v.inputs))
	sections = make([]bool, len(v.sections))
	idx := 0
	for si := range v.sections {
		sec := &v.sections[si]
		sections[si] = v.holds(sec.Condition, values, fields)
		for fi := range sec.Fields {
			f := &sec.Fields[fi]
			if f.Type == typeHTML {
				continue
			}
			fields[idx] = sections[si] && v.holds(f.Condition, values, fields)
			idx++
		}
	}
	return fields, sections
}
