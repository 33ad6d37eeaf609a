package forms

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Multi-entry answers of the public page (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1):
// in a section with multipleEntries the inputs of instance i (from 0) are
// named <field>[i]; a field with multipleEntries sends its values as
// repeated <field>[]. For clients that do not index, a plain <field> is
// read as instance 0 (or as one more value of a multi-entry field).

// maxIndexDigits bounds an instance index; any longer index is over every
// section's maximum anyway.
const maxIndexDigits = 4

// first answers the first value posted under key.
func (in *submissionInput) first(key string) (string, bool) {
	if vs, ok := in.all[key]; ok && len(vs) > 0 {
		return vs[0], true
	}
	v, ok := in.values[key]
	return v, ok
}

// list answers every value posted under key, in order.
func (in *submissionInput) list(key string) []string {
	if vs, ok := in.all[key]; ok {
		return vs
	}
	if v, ok := in.values[key]; ok {
		return []string{v}
	}
	return nil
}

// keys answers every posted name, text or file.
func (in *submissionInput) keys() []string {
	var out []string
	for k := range in.all {
		out = append(out, k)
	}
	for k := range in.values {
		if _, dup := in.all[k]; !dup {
			out = append(out, k)
		}
	}
	for k := range in.files {
		out = append(out, k)
	}
	return out
}

// indexedName splits "<base>[<i>]" into base and i.
func indexedName(key string) (string, int, bool) {
	open := strings.LastIndexByte(key, '[')
	if open <= 0 || !strings.HasSuffix(key, "]") {
		return "", 0, false
	}
	digits := key[open+1 : len(key)-1]
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return "", 0, false
	}
	if len(digits) > maxIndexDigits {
		digits = strings.Repeat("9", maxIndexDigits)
	}
	i, _ := strconv.Atoi(digits) // only digits, bounded: cannot fail
	return key[:open], i, true
}

// instanceKey is the posted name of a field in instance k of a multi-entry
// section.
func instanceKey(name string, k int) string { return fmt.Sprintf("%s[%d]", name, k) }

// postedInstances answers, per multi-entry section, how many instances the
// submission posted: the highest index of any of its fields, plus one.
func postedInstances(v *formVersion, in *submissionInput) map[int]int {
	out := map[int]int{}
	for _, key := range in.keys() {
		base, i, ok := indexedName(key)
		if !ok {
			base, i = key, 0
		}
		fi, known := v.byName[base]
		if !known || !v.multiSection(v.inputs[fi]) {
			continue
		}
		si := v.inputs[fi].section
		out[si] = max(out[si], i+1)
	}
	return out
}

// checkedSubmission is a validated submission: its answers, and per input
// field the upload of each instance (FILE fields only).
type checkedSubmission struct {
	answerSet
	uploads [][]*upload
	over    map[int]bool // sections posted with more instances than they take
}

// validateSubmission answers the answers by input field (hidden fields and
// sections cleared) or one problem per field and instance.
func validateSubmission(v *formVersion, pf *prefill, in *submissionInput, maxFile int64) (checkedSubmission, wire.Problems) {
	var p wire.Problems
	cs := checkedSubmission{answerSet: answerSet{values: make([]string, len(v.inputs)), lists: make([][]string, len(v.inputs)),
		counts: make([]int, len(v.sections))}, uploads: make([][]*upload, len(v.inputs)), over: map[int]bool{}}
	posted := postedInstances(v, in)
	for si, sec := range v.sections {
		cs.counts[si] = 1
		if m := sec.MultipleEntries; m != nil {
			cs.counts[si] = max(posted[si], pf.instances(si), 1)
			if cs.counts[si] > m.Max {
				p.Add(sec.Slug, "takes at most %d entries", m.Max)
				cs.counts[si], cs.over[si] = m.Max, true
			}
		}
	}
	for i, f := range v.inputs {
		switch {
		case v.multiSection(f):
			n := cs.counts[f.section]
			cs.lists[i], cs.uploads[i] = make([]string, n), make([]*upload, n)
			for k := range n {
				key := instanceKey(f.def.Name, k)
				cs.lists[i][k], cs.uploads[i][k] = postedAnswer(&p, in, pf, f, k, key, k == 0)
			}
			cs.values[i] = cs.lists[i][0]
		case f.def.MultipleEntries != nil:
			cs.lists[i] = postedList(&p, in, pf, f)
			if len(cs.lists[i]) > 0 {
				cs.values[i] = cs.lists[i][0]
			}
		default:
			var up *upload
			cs.values[i], up = postedAnswer(&p, in, pf, f, 0, f.def.Name, false)
			cs.uploads[i] = []*upload{up}
		}
	}
	checkAnswers(&p, v, &cs, maxFile)
	return cs, p
}

// postedAnswer answers the value (and upload) posted for one field of one
// instance under key, or under the plain field name when plain is set and
// key was not posted. A locked prefilled value stands; posting another
// value for it is a problem.
func postedAnswer(p *wire.Problems, in *submissionInput, pf *prefill, f inputField, k int, key string, plain bool) (string, *upload) {
	if f.def.Type == typeFile {
		up := in.files[key]
		if up == nil && plain {
			up = in.files[f.def.Name]
		}
		if up == nil || up.filename == "" {
			return "", nil
		}
		return up.filename, up
	}
	posted, sent := in.first(key)
	if !sent && plain {
		posted, sent = in.first(f.def.Name)
	}
	val := strings.TrimSpace(posted)
	if pa, ok := pf.answer(f.section, k, f.def.Name); ok && !pa.Editable {
		if sent && val != pa.Value {
			p.Add(key, "is locked to its prefilled value and cannot be changed")
		}
		val = pa.Value
	}
	return val, nil
}

// postedList answers the non-empty values of a multi-entry field, posted as
// repeated <field>[] (or <field>). A locked prefilled value is its only
// value.
func postedList(p *wire.Problems, in *submissionInput, pf *prefill, f inputField) []string {
	name := f.def.Name
	vals := []string{}
	for _, raw := range append(in.list(name+"[]"), in.list(name)...) {
		if v := strings.TrimSpace(raw); v != "" {
			vals = append(vals, v)
		}
	}
	if pa, ok := pf.answer(f.section, 0, name); ok && !pa.Editable {
		if len(vals) > 0 && (len(vals) != 1 || vals[0] != pa.Value) {
			p.Add(name, "is locked to its prefilled value and cannot be changed")
		}
		vals = []string{pa.Value}
	}
	return vals
}

// checkAnswers clears the answers of hidden fields and sections and checks
// the visible ones: required, format, file size, number of values. A
// section or field with too many entries gets that one problem only.
func checkAnswers(p *wire.Problems, v *formVersion, cs *checkedSubmission, maxFile int64) {
	visible, secVisible := v.visibility(cs.values)
	for si := range v.sections {
		if !secVisible[si] {
			cs.counts[si] = 0
		}
	}
	for i, f := range v.inputs {
		if !visible[i] {
			cs.values[i], cs.lists[i], cs.uploads[i] = "", nil, nil
			continue
		}
		switch {
		case v.multiSection(f) && cs.over[f.section]:
		case v.multiSection(f):
			for k, val := range cs.lists[i] {
				checkOne(p, f.def, instanceKey(f.def.Name, k), val, cs.uploads[i][k], maxFile)
			}
		case f.def.MultipleEntries != nil:
			vals := cs.lists[i]
			if n := f.def.MultipleEntries.Max; len(vals) > n {
				p.Add(f.def.Name, "takes at most %d values", n)
				continue
			}
			if len(vals) == 0 && f.def.Required {
				p.Add(f.def.Name, "is required")
			}
			for k, val := range vals {
				if msg := checkValue(f.def, val); msg != "" {
					p.Add(instanceKey(f.def.Name, k), "%s", msg)
				}
			}
		default:
			checkOne(p, f.def, f.def.Name, cs.values[i], cs.uploads[i][0], maxFile)
		}
	}
}

// checkOne checks one answer posted under key.
func checkOne(p *wire.Problems, def *fieldJSON, key, val string, up *upload, maxFile int64) {
	switch {
	case up != nil && up.tooLarge:
		p.Add(key, "file exceeds the limit of %d bytes", maxFile)
	case val == "" && def.Required:
		p.Add(key, "is required")
	case val != "":
		if msg := checkValue(def, val); msg != "" {
			p.Add(key, "%s", msg)
		}
	}
}
