package mockserver

import (
	"fmt"
	"strings"
)

// Known mapTo targets and caseFileTitleTemplate merge fields.
const (
	mapSignerName  = "primarySigner.name"
	mapSignerEmail = "primarySigner.email"
)

func knownType(t string) bool {
	switch t {
	case typeText, typeEmail, typePhone, typeNumber, typeDate, typeChoice, typeHTML, typeFile:
		return true
	}
	return false
}

// validateForm checks a form definition, fills in missing section slugs,
// and answers one detail per problem.
func validateForm(def *formJSON) problems {
	var p problems
	for _, m := range mergeFields(def.CaseFileTitleTemplate) {
		switch m {
		case "formName", mapSignerName, mapSignerEmail:
		default:
			p.add("caseFileTitleTemplate", "unknown merge field {{%s}}: use {{formName}}, {{primarySigner.name}} or {{primarySigner.email}}", m)
		}
	}
	seen := map[string]int{} // field name → section index
	slugs := map[string]bool{}
	mapped := map[string]bool{}
	for si := range def.Sections {
		sec := &def.Sections[si]
		path := fmt.Sprintf("sections[%d]", si)
		if sec.Slug == "" {
			sec.Slug = fmt.Sprintf("section-%d", si+1)
		}
		if slugs[sec.Slug] {
			p.add(path+".slug", "duplicate section slug %q", sec.Slug)
		}
		slugs[sec.Slug] = true
		checkCondition(&p, path+".condition", sec.Condition, seen, si, false)
		for fi := range sec.Fields {
			checkField(&p, fmt.Sprintf("%s.fields[%d]", path, fi), &sec.Fields[fi], seen, mapped, si)
		}
	}
	return p
}

// checkField validates one field and then records its name as seen.
func checkField(p *problems, path string, f *fieldJSON, seen map[string]int, mapped map[string]bool, si int) {
	switch {
	case f.Name == "":
		p.add(path+".name", "is required")
	case strings.ContainsAny(f.Name, "{} \t\r\n"):
		p.add(path+".name", "must not contain spaces or braces")
	default:
		if _, dup := seen[f.Name]; dup {
			p.add(path+".name", "duplicate field name %q", f.Name)
		}
	}
	if !knownType(f.Type) {
		p.add(path+".type", "unknown type %q: use TEXT, EMAIL, PHONE, NUMBER, DATE, CHOICE, HTML or FILE", f.Type)
	}
	switch f.MapTo {
	case "":
	case mapSignerName, mapSignerEmail:
		if mapped[f.MapTo] {
			p.add(path+".mapTo", "another field is already mapped to %s", f.MapTo)
		}
		mapped[f.MapTo] = true
		if strings.HasSuffix(f.MapTo, ".email") && f.Type != typeEmail {
			p.add(path+".mapTo", "a field mapped to %s must have type EMAIL", f.MapTo)
		}
		if f.Type == typeHTML || f.Type == typeFile {
			p.add(path+".mapTo", "a %s field cannot be mapped", f.Type)
		}
	default:
		p.add(path+".mapTo", "unknown target %q: use primarySigner.name or primarySigner.email", f.MapTo)
	}
	checkCondition(p, path+".condition", f.Condition, seen, si, true)
	if f.Type == typeChoice {
		checkOptions(p, path+".options", f.Options)
	}
	if f.Type == typeHTML {
		for _, m := range mergeFields(f.Content) {
			if sec, ok := seen[m]; !ok || sec >= si {
				p.add(path+".content", "merge field {{%s}} must name a field of an earlier section", m)
			}
		}
	}
	if f.Name != "" && f.Type != typeHTML {
		if _, dup := seen[f.Name]; !dup {
			seen[f.Name] = si
		}
	}
}

// checkCondition validates a condition: at least one rule, each an EQUALS on
// an earlier field (of an earlier section unless sameSection is allowed).
func checkCondition(p *problems, path string, c *conditionJSON, seen map[string]int, si int, sameSection bool) {
	if c == nil {
		return
	}
	if len(c.Rules) == 0 {
		p.add(path+".rules", "a condition needs at least one rule")
	}
	for ri, r := range c.Rules {
		rp := fmt.Sprintf("%s.rules[%d]", path, ri)
		if r.Operator != "EQUALS" {
			p.add(rp+".operator", "unknown operator %q: use EQUALS", r.Operator)
		}
		sec, ok := seen[r.Field]
		if !ok || (!sameSection && sec >= si) {
			p.add(rp+".field", "%q is not an earlier field", r.Field)
		}
	}
}

func checkOptions(p *problems, path string, opts []optionJSON) {
	if len(opts) == 0 {
		p.add(path, "a CHOICE field needs at least one option")
		return
	}
	values := map[string]bool{}
	for i, o := range opts {
		if o.Value == "" {
			p.add(fmt.Sprintf("%s[%d].value", path, i), "is required")
		} else if values[o.Value] {
			p.add(fmt.Sprintf("%s[%d].value", path, i), "duplicate option %q", o.Value)
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
		if !validEmail(v) {
			return "is not a valid email address"
		}
	case typePhone:
		if !validPhone(v) {
			return "is not a valid phone number"
		}
	case typeNumber:
		if !validNumber(v) {
			return "is not a number"
		}
	case typeDate:
		if !validDate(v) {
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
