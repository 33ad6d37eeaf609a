package mockserver

import (
	"encoding/json"
	"sync"
	"time"
)

// Form states.
const (
	stateDraft    = "DRAFT"
	stateActive   = "ACTIVE"
	stateArchived = "ARCHIVED"
)

// Field types of DESIGN section 3.
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

// formJSON is the wire shape of a form (DESIGN section 3), used to decode
// create and update bodies and to encode answers.
type formJSON struct {
	ExternalID            string        `json:"externalId"`
	FormID                string        `json:"formId,omitempty"` // accepted alias, never sent
	Name                  string        `json:"name"`
	Language              string        `json:"language"`
	Description           string        `json:"description"`
	Status                string        `json:"status"`
	Version               int           `json:"version"`
	DraftVersion          int           `json:"draftVersion,omitempty"` // an unpublished version waits
	CaseFileTitleTemplate string        `json:"caseFileTitleTemplate"`
	PublicURL             string        `json:"publicUrl,omitempty"`
	Sections              []sectionJSON `json:"sections"`
}

type sectionJSON struct {
	Slug        string         `json:"slug"`
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Condition   *conditionJSON `json:"condition,omitempty"`
	Fields      []fieldJSON    `json:"fields"`
}

type fieldJSON struct {
	Name        string          `json:"name"`
	Label       string          `json:"label"`
	Type        string          `json:"type"`
	Required    bool            `json:"required"`
	MapTo       string          `json:"mapTo,omitempty"`
	Condition   *conditionJSON  `json:"condition,omitempty"`
	Content     string          `json:"content,omitempty"`
	Options     []optionJSON    `json:"options,omitempty"`
	Validations json.RawMessage `json:"validations,omitempty"`
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
	sections      []sectionJSON
	inputs        []inputField   // every field that takes an answer, in order
	byName        map[string]int // field name → index in inputs

	pageMu sync.Mutex
	page   []byte // the rendered public page without prefill, once asked for
}

// plainPage answers the public page of the version without prefill,
// rendering it with render the first time.
func (v *formVersion) plainPage(render func() ([]byte, error)) ([]byte, error) {
	v.pageMu.Lock()
	defer v.pageMu.Unlock()
	if v.page == nil {
		b, err := render()
		if err != nil {
			return nil, err
		}
		v.page = b
	}
	return v.page, nil
}

// inputField locates a field that takes an answer (every type but HTML).
type inputField struct {
	section int
	field   int
	def     *fieldJSON
}

// prefill is a personalised link: values by field name, locked or editable.
type prefill struct {
	id     string
	values map[string]prefillAnswer
}

type prefillAnswer struct {
	Value    string `json:"value"`
	Editable bool   `json:"editable"`
}

// submission is a completed submission. values holds one answer per input
// field of version, "" where unanswered or hidden.
type submission struct {
	id          int64
	caseFileID  int64
	version     *formVersion
	completedAt time.Time
	values      []string
}

// newVersion builds a version from a validated definition.
func newVersion(number int, def *formJSON) *formVersion {
	v := &formVersion{number: number, name: def.Name, language: def.Language, description: def.Description,
		titleTemplate: def.CaseFileTitleTemplate, sections: def.Sections, byName: map[string]int{}}
	for si := range v.sections {
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
	return formJSON{ExternalID: externalID, Name: v.name, Language: v.language, Description: v.description,
		Status: status, Version: v.number, CaseFileTitleTemplate: v.titleTemplate, PublicURL: publicURL,
		Sections: v.sections}
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
// section is shown. Conditions only reference earlier fields, so one pass in
// order settles everything.
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
