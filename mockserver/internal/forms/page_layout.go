package forms

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// pageLayout lays out the instances of a page's sections.
type pageLayout struct {
	v                   *formVersion
	pf                  *prefill
	in                  *submissionInput
	t                   *pages.Text
	values              []string // the flat answers that conditions and merge fields read
	visible, secVisible []bool
	errs                map[string]string // raw messages by posted name
	used                map[string]bool   // the errs that a field shows
	summary             []summaryItem     // the shown errors, in page order
}

// summaryItem is a line of the error summary: a link to the field.
type summaryItem struct {
	Field  string // the field's posted name (data-field)
	Target string // the id of the element the link goes to
	Text   string
}

// fieldError answers the sentence a field shows for the error of key, and
// adds it to the summary ("" without an error).
func (l *pageLayout) fieldError(key, label string, pfd *pageField) string {
	msg, ok := l.errs[key]
	if !ok {
		return ""
	}
	l.used[key] = true
	text := label + " " + msg + "." // the service's own words, in English
	if f := refusalText(l.t, msg); f != "" {
		text = fmt.Sprintf(f, label)
	}
	target := "in-" + pfd.ID
	if pfd.Radio && !pfd.Locked {
		target += "-0" // the first radio: the group itself takes no focus
	}
	l.summary = append(l.summary, summaryItem{Field: pfd.Name, Target: target, Text: text})
	return text
}

// templateIndex stands for the instance index in a section's blank
// instance; the page's script replaces it when it adds an instance.
const templateIndex = "__i__"

// firstKey answers the posted name of a field's first answer.
func firstKey(v *formVersion, f inputField) string {
	switch {
	case v.multiSection(f):
		return instanceKey(f.def.Name, 0)
	case f.def.MultipleEntries != nil:
		return f.def.Name + "[]"
	}
	return f.def.Name
}

// pageValue answers the value a field shows in instance k (prefilled, or as
// posted by a rejected submission) and whether it is locked.
func pageValue(pf *prefill, in *submissionInput, f inputField, k int, key string) (string, bool) {
	var val string
	if pa, ok := pf.answer(f.section, k, f.def.Name); ok {
		if !pa.Editable {
			return pa.Value, true
		}
		val = pa.Value
	}
	if in != nil && f.def.Type != typeFile {
		if p, ok := in.first(key); ok {
			val = p
		} else if p, ok := in.first(f.def.Name); ok && k == 0 {
			val = p
		}
	}
	return val, false
}

// instance lays out instance k of section si; k < 0 is the blank template
// of a multi-entry section.
func (l *pageLayout) instance(si, k int) pageInstance {
	v := l.v
	sec := &v.sections[si]
	multi := sec.MultipleEntries != nil
	pi := pageInstance{Index: strconv.Itoa(k), Multi: multi}
	if k < 0 {
		pi.Index = templateIndex
	}
	for fi := range sec.Fields {
		f := &sec.Fields[fi]
		label := cmpOr(f.Label, f.Name)
		if multi && k > 0 {
			label = fmt.Sprintf("%s (%d)", label, k+1)
		}
		pfd := pageField{Name: f.Name, ID: f.Name, Label: label, Type: string(f.Type), InputType: inputType(string(f.Type)),
			Cond: condJSON(f.Condition), Required: f.Required, Options: f.Options,
			Multiline: f.Type == typeText && f.Multiline != nil && *f.Multiline, Radio: f.Type == typeChoice && f.Layout == "RADIO"}
		if multi {
			pfd.Name, pfd.ID = f.Name+"["+pi.Index+"]", f.Name+"-"+pi.Index
		}
		i, isInput := v.byName[f.Name]
		if !isInput || f.Type == typeHTML {
			if f.Name == "" {
				pfd.ID = fmt.Sprintf("html-%d-%d", si, fi)
				if multi {
					pfd.ID += "-" + pi.Index
				}
			}
			pfd.Hidden = !l.secVisible[si] || !v.holds(f.Condition, l.values, l.visible)
			pfd.Content = mergeHTML(f.Content, v, l.values)
			pi.Fields = append(pi.Fields, pfd)
			continue
		}
		pfd.Hidden = !l.visible[i]
		switch {
		case k < 0:
		case f.MultipleEntries != nil:
			l.multiValues(&pfd, v.inputs[i])
		default:
			pfd.Value, pfd.Locked = pageValue(l.pf, l.in, v.inputs[i], k, pfd.Name)
			pfd.Error = l.fieldError(pfd.Name, label, &pfd)
		}
		l.describe(&pfd, f)
		pi.Fields = append(pi.Fields, pfd)
	}
	return pi
}

// multiValues fills the inputs of a multi-entry field: its prefilled or
// posted values, at least one input.
func (l *pageLayout) multiValues(pfd *pageField, f inputField) {
	pfd.Multi, pfd.Max, pfd.Name = true, f.def.MultipleEntries.Max, f.def.Name+"[]"
	if pa, ok := l.pf.answer(f.section, 0, f.def.Name); ok {
		pfd.Values, pfd.Locked = []string{pa.Value}, !pa.Editable
	}
	if l.in != nil && !pfd.Locked {
		var posted []string
		for _, raw := range append(l.in.list(f.def.Name+"[]"), l.in.list(f.def.Name)...) {
			if strings.TrimSpace(raw) != "" {
				posted = append(posted, raw)
			}
		}
		if posted != nil {
			pfd.Values = posted
		}
	}
	if len(pfd.Values) == 0 {
		pfd.Values = []string{""}
	}
	pfd.Values = pfd.Values[:min(len(pfd.Values), pfd.Max)]
	pfd.Value = pfd.Values[0]
	for k, val := range pfd.Values {
		in := valueInput{ID: "in-" + pfd.ID, Value: val}
		if k > 0 {
			in.ID, in.Label = fmt.Sprintf("in-%s-%d", pfd.ID, k), fmt.Sprintf("%s (%d)", pfd.Label, k+1)
		}
		pfd.Inputs = append(pfd.Inputs, in)
	}
	for _, key := range []string{f.def.Name + "[]", f.def.Name} {
		if pfd.Error == "" {
			pfd.Error = l.fieldError(key, pfd.Label, pfd)
		}
	}
	for k := range pfd.Values {
		if pfd.Error == "" {
			pfd.Error = l.fieldError(instanceKey(f.def.Name, k), pfd.Label, pfd)
		}
		l.used[instanceKey(f.def.Name, k)] = true
	}
}

// describe fills what a field tells besides its label: that the sender
// set it, its error, a file that must be chosen again; and the label of a
// locked choice.
func (l *pageLayout) describe(pfd *pageField, f *fieldJSON) {
	if pfd.Locked && f.Type == typeChoice {
		pfd.Display = pfd.Value
		for _, o := range f.Options {
			if o.Value == pfd.Value && o.Label != "" {
				pfd.Display = o.Label
			}
		}
	}
	if l.in != nil && f.Type == typeFile {
		if up := l.in.files[pfd.Name]; up != nil && !up.tooLarge && up.filename != "" {
			pfd.LostFile = fmt.Sprintf(l.t.ChooseAgainF, up.filename)
		}
	}
	var ids []string
	for _, d := range []struct {
		on     bool
		prefix string
	}{{pfd.Locked, "locked-"}, {pfd.Error != "", "error-"}, {pfd.LostFile != "", "lost-"}} {
		if d.on {
			ids = append(ids, d.prefix+pfd.ID)
		}
	}
	pfd.Describe = strings.Join(ids, " ")
}

// rest adds to the summary the errors no field showed: a section's (it
// links to the section) or any other (it links to the form).
func (l *pageLayout) rest(errs []wire.FieldError) {
	for _, e := range errs {
		if l.used[e.Field] {
			continue
		}
		target, label := "signkit-form", e.Field
		for _, sec := range l.v.sections {
			if sec.Slug == e.Field {
				target, label = "section-"+sec.Slug, cmpOr(sec.Title, sec.Slug)
			}
		}
		l.summary = append(l.summary, summaryItem{Field: e.Field, Target: target, Text: label + " " + e.Message + "."})
	}
}

// refusalText answers the page's own format (%s: the field's label) of a
// common refusal of the validation, "" for the others.
func refusalText(t *pages.Text, msg string) string {
	switch msg {
	case "is required":
		return t.RequiredF
	case "is not a valid email address":
		return t.InvalidEmailF
	case "is not a valid phone number":
		return t.InvalidPhoneF
	case "is not a number":
		return t.NotNumberF
	case "is not a date (YYYY-MM-DD)":
		return t.NotDateF
	case "is not one of the options":
		return t.NotOptionF
	}
	return ""
}
