package collect

import (
	"fmt"
	"strconv"
	"strings"
)

// pageLayout lays out the instances of a page's sections.
type pageLayout struct {
	v                   *formVersion
	pf                  *prefill
	in                  *submissionInput
	values              []string // the flat answers that conditions and merge fields read
	visible, secVisible []bool
	errs                map[string]string
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
		pfd := pageField{Name: f.Name, ID: f.Name, Label: cmpOr(f.Label, f.Name), Type: f.Type, InputType: inputType(f.Type),
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
			pfd.Content = mergeHTML(f.Content, func(name string) string { return v.value(l.values, name) })
			pi.Fields = append(pi.Fields, pfd)
			continue
		}
		pfd.Hidden, pfd.Error = !l.visible[i], l.errs[pfd.Name]
		switch {
		case k < 0:
		case f.MultipleEntries != nil:
			l.multiValues(&pfd, v.inputs[i])
		default:
			pfd.Value, pfd.Locked = pageValue(l.pf, l.in, v.inputs[i], k, pfd.Name)
		}
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
	for k := range pfd.Values {
		if e := l.errs[instanceKey(f.def.Name, k)]; e != "" && pfd.Error == "" {
			pfd.Error = e
		}
	}
	if pfd.Error == "" {
		pfd.Error = l.errs[f.def.Name]
	}
}

// pageText is the fixed text of a public page in its language.
type pageText struct{ Submit, Add, Choose, Correct string }

// pageTexts are the languages the public pages speak (docs/platform.md,
// "Forms"); others get English.
var pageTexts = map[string]pageText{
	"en": {"Submit", "Add another", "Choose…", "Please correct the following:"},
	"da": {"Indsend", "Tilføj en til", "Vælg…", "Ret venligst følgende:"},
	"sv": {"Skicka", "Lägg till en till", "Välj…", "Rätta följande:"},
	"nl": {"Verzenden", "Nog een toevoegen", "Kies…", "Corrigeer het volgende:"},
	"fr": {"Envoyer", "En ajouter un autre", "Choisir…", "Veuillez corriger les points suivants :"},
	"fi": {"Lähetä", "Lisää uusi", "Valitse…", "Korjaa seuraavat:"},
	"no": {"Send inn", "Legg til en til", "Velg…", "Rett følgende:"},
	"de": {"Absenden", "Weiteren hinzufügen", "Auswählen…", "Bitte korrigieren Sie Folgendes:"},
}

// pageLanguage matches a form's language case-insensitively ("EN" is en).
func pageLanguage(lang string) (string, pageText) {
	l := strings.ToLower(strings.TrimSpace(lang))
	if t, ok := pageTexts[l]; ok {
		return l, t
	}
	return "en", pageTexts["en"]
}
