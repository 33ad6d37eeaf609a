package forms

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/signkit/signkit-go/mockserver/internal/format"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Known mapTo targets and caseFileTitleTemplate merge fields.
const (
	mapSignerName  = "primarySigner.name"
	mapSignerEmail = "primarySigner.email"
)

// mapTargets are the targets a field's mapTo may name.
var mapTargets = []string{mapSignerName, mapSignerEmail}

// titleMergeFields are the merge fields a caseFileTitleTemplate may hold,
// each as {{name}} (spaces inside the braces allowed).
var titleMergeFields = []string{"formName", mapSignerName, mapSignerEmail}

// maxEntries bounds multipleEntries.max, so that a page and a submission
// stay small (mock only: the platform states no bound).
const maxEntries = 100

// seenField is what validation remembers of an earlier field.
type seenField struct {
	section     int
	multi       bool // in a multi-entry section, or a multi-entry field
	required    bool
	conditional bool // the field or its section has a condition
}

// place names a part of a form definition as a validation detail's field
// does ("sections[0].fields[2].mapTo"). It becomes text only when a
// problem is added: a valid form, the usual one, formats no path.
type place struct {
	up    *place
	name  string // with the dot that joins it to up: ".fields"
	index int    // ≥ 0: "[index]" follows name
}

// in names the part name of pl (name starts with its dot).
func (pl *place) in(name string) place { return place{up: pl, name: name, index: -1} }

// item names element i of the list name of pl.
func (pl *place) item(name string, i int) place { return place{up: pl, name: name, index: i} }

// elem names element i of pl, a list.
func (pl *place) elem(i int) place { return place{up: pl, index: i} }

// String answers the path, as in a detail's field.
func (pl place) String() string { return string(pl.appendTo(nil)) }

func (pl *place) appendTo(b []byte) []byte {
	if pl.up != nil {
		b = pl.up.appendTo(b)
	}
	b = append(b, pl.name...)
	if pl.index >= 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(pl.index), 10)
		b = append(b, ']')
	}
	return b
}

// validateForm checks a form definition, fills in missing section slugs
// (moving countryOptions to countryCodes), and answers one detail per
// problem.
func validateForm(def *formJSON) wire.Problems {
	var p wire.Problems
	for _, m := range mergeFields(string(def.CaseFileTitleTemplate)) {
		if !slices.Contains(titleMergeFields, m) {
			p.Add("caseFileTitleTemplate", "unknown merge field {{%s}}: use {{formName}}, {{primarySigner.name}} or {{primarySigner.email}}", m)
		}
	}
	fillSlugs(def.Sections)
	seen := map[string]seenField{}
	slugs := map[string]bool{}
	mapped := map[string]bool{}
	for si := range def.Sections {
		sec := &def.Sections[si]
		at := place{name: "sections", index: si}
		if slugs[sec.Slug] {
			p.Add(at.in(".slug").String(), "duplicate section slug %q", sec.Slug)
		}
		slugs[sec.Slug] = true
		checkMulti(&p, at.in(".multipleEntries"), sec.MultipleEntries)
		checkCondition(&p, at.in(".condition"), sec.Condition, seen, si, false)
		for fi := range sec.Fields {
			checkField(&p, at.item(".fields", fi), sec, &sec.Fields[fi], seen, mapped, si)
		}
	}
	return p
}

// fillSlugs gives each section sent without a slug one made from its title:
// lower case, words joined by "-", made unique within the form
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
func fillSlugs(secs []sectionJSON) {
	taken := map[string]bool{}
	for _, sec := range secs {
		taken[sec.Slug] = true
	}
	for si := range secs {
		if secs[si].Slug != "" {
			continue
		}
		base := slugOf(secs[si].Title)
		if base == "" {
			base = "section"
		}
		slug := base
		for n := 2; taken[slug]; n++ {
			slug = fmt.Sprintf("%s-%d", base, n)
		}
		taken[slug] = true
		secs[si].Slug = slug
	}
}

// slugOf lower-cases title and joins its words (runs of letters and digits)
// with "-".
func slugOf(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.Join(words, "-")
}

// checkMulti validates a multipleEntries property.
func checkMulti(p *wire.Problems, at place, m *multiJSON) {
	if m != nil && (m.Max < 1 || m.Max > maxEntries) {
		p.Add(at.in(".max").String(), "must be from 1 to %d", maxEntries)
	}
}

// checkField validates one field and then records its name as seen.
func checkField(p *wire.Problems, at place, sec *sectionJSON, f *fieldJSON, seen map[string]seenField, mapped map[string]bool, si int) {
	if f.CountryCodes == nil {
		f.CountryCodes = f.CountryOptions
	}
	f.CountryOptions = nil
	switch {
	case f.Name == "" && f.Type == typeHTML:
	case f.Name == "":
		p.Add(at.in(".name").String(), "is required")
	case strings.ContainsAny(f.Name, "{}[] \t\r\n"):
		p.Add(at.in(".name").String(), "must not contain spaces, braces or brackets")
	default:
		if _, dup := seen[f.Name]; dup {
			p.Add(at.in(".name").String(), "duplicate field name %q", f.Name)
		}
	}
	if f.Type == "" { // a type the mock does not know is kept as sent (fieldType)
		p.Add(at.in(".type").String(), "is required: TEXT, EMAIL, PHONE, NUMBER, DATE, CHOICE, HTML, FILE, "+
			"or a type of the vendor's form builder")
	}
	checkMapTo(p, at.in(".mapTo"), f, mapped)
	checkCondition(p, at.in(".condition"), f.Condition, seen, si, true)
	switch f.Layout {
	case "", "RADIO", "SELECT":
	default:
		p.Add(at.in(".layout").String(), "unknown layout %q: use RADIO or SELECT", f.Layout)
	}
	if f.Type == typeChoice {
		checkOptions(p, at.in(".options"), f.Options)
	}
	if f.MultipleEntries != nil {
		checkMulti(p, at.in(".multipleEntries"), f.MultipleEntries)
		switch {
		case f.Type == typeHTML || f.Type == typeFile:
			p.Add(at.in(".multipleEntries").String(), "a %s field cannot take several values", f.Type)
		case sec.MultipleEntries != nil:
			p.Add(at.in(".multipleEntries").String(), "a field of a multi-entry section cannot take several values")
		}
	}
	if f.Type == typeHTML {
		checkMergeSources(p, at.in(".content"), f.Content, seen, si)
	}
	if f.Name != "" && f.Type != typeHTML {
		if _, dup := seen[f.Name]; !dup {
			seen[f.Name] = seenField{section: si, multi: sec.MultipleEntries != nil || f.MultipleEntries != nil,
				required: f.Required, conditional: sec.Condition != nil || f.Condition != nil}
		}
	}
}

// checkMapTo validates a field's mapTo target.
func checkMapTo(p *wire.Problems, at place, f *fieldJSON, mapped map[string]bool) {
	switch f.MapTo {
	case "":
	case mapSignerName, mapSignerEmail:
		if mapped[string(f.MapTo)] {
			p.Add(at.String(), "another field is already mapped to %s", f.MapTo)
		}
		mapped[string(f.MapTo)] = true
		if strings.HasSuffix(string(f.MapTo), ".email") && f.Type != typeEmail {
			p.Add(at.String(), "a field mapped to %s must have type EMAIL", f.MapTo)
		}
		if f.Type == typeHTML || f.Type == typeFile {
			p.Add(at.String(), "a %s field cannot be mapped", f.Type)
		}
	default:
		p.Add(at.String(), "unknown target %q: use primarySigner.name or primarySigner.email", f.MapTo)
	}
}

// checkMergeSources validates the {{field}} merge fields of HTML content: each
// names a field of an earlier section that is required and not conditional
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
func checkMergeSources(p *wire.Problems, at place, content string, seen map[string]seenField, si int) {
	for _, m := range mergeFields(content) {
		src, ok := seen[m]
		switch {
		case !ok || src.section >= si:
			p.Add(at.String(), "merge field {{%s}} must name a field of an earlier section", m)
		case !src.required || src.conditional:
			p.Add(at.String(), "merge field {{%s}} must name a required field without a condition", m)
		}
	}
}

// checkCondition validates a condition: at least one rule, each an EQUALS on
// an earlier field (of an earlier section unless sameSection is allowed)
// that takes one answer (not of a multi-entry section, not multi-entry).
func checkCondition(p *wire.Problems, at place, c *conditionJSON, seen map[string]seenField, si int, sameSection bool) {
	if c == nil {
		return
	}
	if len(c.Rules) == 0 {
		p.Add(at.in(".rules").String(), "a condition needs at least one rule")
	}
	for ri, r := range c.Rules {
		rule := at.item(".rules", ri)
		if r.Operator != "EQUALS" {
			p.Add(rule.in(".operator").String(), "unknown operator %q: use EQUALS", r.Operator)
		}
		src, ok := seen[r.Field]
		switch {
		case !ok || (!sameSection && src.section >= si):
			p.Add(rule.in(".field").String(), "%q is not an earlier field", r.Field)
		case src.multi:
			p.Add(rule.in(".field").String(), "%q takes several answers and cannot be a condition's field", r.Field)
		}
	}
}

func checkOptions(p *wire.Problems, at place, opts []optionJSON) {
	if len(opts) == 0 {
		p.Add(at.String(), "a CHOICE field needs at least one option")
		return
	}
	values := map[string]bool{}
	for i, o := range opts {
		opt := at.elem(i)
		if o.Value == "" {
			p.Add(opt.in(".value").String(), "is required")
		} else if values[o.Value] {
			p.Add(opt.in(".value").String(), "duplicate option %q", o.Value)
		}
		values[o.Value] = true
	}
}

// checkValue validates an answer's format for its field type; "" is not
// checked (requiredness is separate).
func checkValue(f *fieldJSON, v string) string {
	if v == "" {
		return ""
	}
	switch f.Type {
	case typeEmail:
		if !format.Email(v) {
			return "is not a valid email address"
		}
	case typePhone:
		if !format.Phone(v) {
			return "is not a valid phone number"
		}
	case typeNumber:
		if !format.Number(v) {
			return "is not a number"
		}
	case typeDate:
		if !format.Date(v) {
			return "is not a date (YYYY-MM-DD)"
		}
	case typeChoice:
		for _, o := range f.Options {
			if o.Value == v {
				return ""
			}
		}
		return "is not one of the options"
	}
	return ""
}

// mergeFields answers the names inside {{...}} in s, trimmed, in order.
func mergeFields(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			return out
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			return out
		}
		out = append(out, strings.TrimSpace(s[i+2:i+2+j]))
		s = s[i+2+j+2:]
	}
}

// replaceMergeFields replaces each {{name}} in s by repl(name).
func replaceMergeFields(s string, repl func(name string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		j := -1
		if i >= 0 {
			j = strings.Index(s[i+2:], "}}")
		}
		if i < 0 || j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(repl(strings.TrimSpace(s[i+2 : i+2+j])))
		s = s[i+2+j+2:]
	}
}
