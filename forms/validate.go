package forms

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/signkit/signkit-go/internal/apierror"
)

// Problem is one thing wrong with a form or a request, found before
// anything is sent. Its Field is the path of the offending value, in the
// style of the service's error details: "sections[1].fields[0].name",
// "caseFileTitleTemplate", `answers["email"]`, "Limit".
type Problem = apierror.Problem

// ValidationError is returned when the package refuses a form or a request
// before sending it (Subject "form", "prefill request", "list options" or
// "request"). It lists every problem found, not only the first, and
// errors.Is(err, signkit.ErrValidation) holds for it, as for a 400 or 422
// answered by the service. It is signkit.ValidationError, shared by every
// service package.
type ValidationError = apierror.ValidationError

// invalid returns a *ValidationError for problems, or nil when there are none.
func invalid(subject string, problems ...Problem) error {
	return apierror.Invalid("forms", subject, problems...)
}

// mergeField matches a {{name}} merge field; surrounding blanks are allowed.
var mergeField = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// titleMergeFields are the merge fields that CaseFileTitleTemplate may use.
var titleMergeFields = []string{"formName", "primarySigner.name", "primarySigner.email"}

// Validate checks the structure of the form against the service's contract
// and reports every problem in one *ValidationError (nil when there is
// none):
//
//   - every field but an HTML field has a name, and no two fields share
//     one (an HTML field may have none, as in the platform's examples);
//   - every field has a type; a type this package does not know (see
//     FieldType.IsKnown) is accepted, as the vendor's form builder makes
//     more types than this package names (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1);
//   - a CHOICE field has at least one option; every option has a value,
//     and no two options of a field share one;
//   - a field mapped to a property ending in ".email" has type EMAIL, and
//     no two fields map to the same property;
//   - no two sections share a non-empty slug; a section may have no slug
//     (the service makes one from its title, see https://github.com/signkit/signkit-go/blob/main/docs/platform.md);
//   - a CHOICE layout is LayoutRadio or LayoutSelect; a MultipleEntries
//     maximum is not negative;
//   - a condition has rules, each with operator EQUALS, referencing an
//     earlier field: for a section condition, a field of an earlier
//     section; for a field condition, a field declared before it;
//   - the {{name}} merge fields of a field's Content name fields of earlier
//     sections that are required and not conditional (neither the field
//     nor its section has a condition);
//   - CaseFileTitleTemplate uses only {{formName}}, {{primarySigner.name}}
//     and {{primarySigner.email}};
//   - Validations have a MinLength of at least 0 and at most MaxLength,
//     and Min at most Max.
//
// Create and Update call Validate and send nothing when it fails.
func (f *Form) Validate() error {
	if f == nil {
		return invalid("form", Problem{Field: "form", Message: "is nil"})
	}
	v := &validator{all: map[string]bool{}, declared: map[string]position{}, mapped: map[string]position{}, fields: map[string]*Field{}}
	slugs := map[string]int{}
	for _, s := range f.Sections {
		for _, fd := range s.Fields {
			v.all[fd.Name] = true
		}
	}
	v.checkTitle(f.CaseFileTitleTemplate)
	for i := range f.Sections {
		if first, dup := slugs[f.Sections[i].Slug]; dup && f.Sections[i].Slug != "" {
			v.add(fmt.Sprintf("sections[%d].slug", i), "duplicate section slug %q, first used at sections[%d]", f.Sections[i].Slug, first)
		} else {
			slugs[f.Sections[i].Slug] = i
		}
		v.checkSection(i, &f.Sections[i])
	}
	return invalid("form", v.problems...)
}

// position is where a field is declared.
type position struct{ section, field int }

func (p position) String() string {
	return fmt.Sprintf("sections[%d].fields[%d]", p.section, p.field)
}

// validator collects the problems of one form, walking it in order.
type validator struct {
	all      map[string]bool     // every field name of the form
	declared map[string]position // names declared so far
	mapped   map[string]position // mapTo targets used so far
	fields   map[string]*Field   // the field declared under each name
	// conditional marks the names declared with a condition, on the field
	// or on its section: they may stay unanswered.
	conditional map[string]bool
	problems    []Problem
}

func (v *validator) add(field, format string, args ...any) {
	v.problems = append(v.problems, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (v *validator) checkTitle(tmpl string) {
	for _, m := range mergeField.FindAllStringSubmatch(tmpl, -1) {
		if !slices.Contains(titleMergeFields, m[1]) {
			v.add("caseFileTitleTemplate",
				"unknown merge field {{%s}}; allowed are {{formName}}, {{primarySigner.name}} and {{primarySigner.email}}", m[1])
		}
	}
}

func (v *validator) checkSection(i int, s *Section) {
	path := fmt.Sprintf("sections[%d]", i)
	v.checkCondition(path+".condition", s.Condition, func(name string) string {
		p, ok := v.declared[name]
		switch {
		case ok && p.section < i:
			return ""
		case v.all[name]:
			return fmt.Sprintf("%q is not a field of an earlier section", name)
		}
		return fmt.Sprintf("%q names no field", name)
	})
	if s.MultipleEntries != nil && s.MultipleEntries.Max < 0 {
		v.add(path+".multipleEntries.max", "is negative")
	}
	for j := range s.Fields {
		fd := &s.Fields[j]
		v.checkField(position{i, j}, fd)
		if s.Condition != nil && fd.Name != "" {
			v.markConditional(fd.Name)
		}
	}
}

// markConditional records that the field named name may stay unanswered.
func (v *validator) markConditional(name string) {
	if v.conditional == nil {
		v.conditional = map[string]bool{}
	}
	v.conditional[name] = true
}

// checkMapTo checks a field's mapTo: a target the service documents, on a
// field that carries a value, of type EMAIL for an ".email" property.
func (v *validator) checkMapTo(path string, fd *Field) {
	switch {
	case fd.MapTo == "":
		return
	case fd.MapTo != MapPrimarySignerName && fd.MapTo != MapPrimarySignerEmail:
		v.add(path+".mapTo", "unknown target %q: use %s or %s", fd.MapTo, MapPrimarySignerName, MapPrimarySignerEmail)
	case fd.Type == TypeHTML || fd.Type == TypeFile:
		v.add(path+".mapTo", "a %s field cannot be mapped: it has no value", fd.Type)
	}
	if strings.HasSuffix(fd.MapTo, ".email") && fd.Type != TypeEmail {
		v.add(path+".type", "must be EMAIL for a field mapped to %q, not %q", fd.MapTo, fd.Type)
	}
}

func (v *validator) checkField(pos position, fd *Field) {
	path := pos.String()
	switch first, dup := v.declared[fd.Name]; {
	case fd.Name == "" && fd.Type == TypeHTML:
		// An HTML field shows text and takes no answer: no name needed.
	case fd.Name == "":
		v.add(path+".name", "is required")
	case strings.ContainsAny(fd.Name, "{}[] \t\r\n"):
		v.add(path+".name", "must not contain spaces, braces or brackets: it is the key of {{merge fields}}, "+
			"prefilled answers and the public page's inputs (<name>[i], <name>[])")
	case dup:
		v.add(path+".name", "duplicate field name %q, first used at %s", fd.Name, first)
	}
	switch {
	case fd.Type == "":
		v.add(path+".type", "is required")
	case fd.Type == TypeChoice && len(fd.Options) == 0:
		v.add(path+".options", "a CHOICE field needs at least one option")
	}
	v.checkOptions(path+".options", fd.Options)
	v.checkShape(path, fd)
	v.checkMapTo(path, fd)
	if first, dup := v.mapped[fd.MapTo]; fd.MapTo != "" && dup {
		v.add(path+".mapTo", "%q is already mapped by %s", fd.MapTo, first)
	} else if fd.MapTo != "" {
		v.mapped[fd.MapTo] = pos
	}
	v.checkCondition(path+".condition", fd.Condition, func(name string) string {
		if _, ok := v.declared[name]; ok {
			return ""
		}
		if v.all[name] {
			return fmt.Sprintf("%q is not an earlier field", name)
		}
		return fmt.Sprintf("%q names no field", name)
	})
	v.checkContent(path+".content", pos.section, fd.Content)
	v.checkValidations(path+".validations", fd.Validations)
	if _, dup := v.declared[fd.Name]; fd.Name != "" && !dup {
		v.declared[fd.Name] = pos
		v.fields[fd.Name] = fd
		if fd.Condition != nil {
			v.markConditional(fd.Name)
		}
	}
}

// checkShape checks the presentation properties of a field: its layout and
// its MultipleEntries maximum.
func (v *validator) checkShape(path string, fd *Field) {
	switch fd.Layout {
	case "", LayoutRadio, LayoutSelect:
	default:
		v.add(path+".layout", "unknown layout %q: use %s or %s", fd.Layout, LayoutRadio, LayoutSelect)
	}
	if fd.MultipleEntries != nil && fd.MultipleEntries.Max < 0 {
		v.add(path+".multipleEntries.max", "is negative")
	}
}

// checkCondition checks the rules of c; refers explains why a rule may not
// reference a field name, or returns "" when it may.
func (v *validator) checkCondition(path string, c *Condition, refers func(name string) string) {
	if c == nil {
		return
	}
	if len(c.Rules) == 0 {
		v.add(path+".rules", "is empty")
	}
	for k, r := range c.Rules {
		rp := fmt.Sprintf("%s.rules[%d]", path, k)
		if r.Operator != OperatorEquals {
			v.add(rp+".operator", "must be %q, not %q", OperatorEquals, r.Operator)
		}
		if r.Field == "" {
			v.add(rp+".field", "is required")
		} else if why := refers(r.Field); why != "" {
			v.add(rp+".field", "%s", why)
		}
	}
}

// checkContent checks that the merge fields of HTML content in section i
// name required, unconditional fields of earlier sections: the service
// refuses others, as an answer they show might not exist.
func (v *validator) checkContent(path string, section int, content string) {
	for _, m := range mergeField.FindAllStringSubmatch(content, -1) {
		name := m[1]
		p, ok := v.declared[name]
		switch {
		case !ok || p.section >= section:
			v.add(path, "merge field {{%s}} names no field of an earlier section", name)
		case !v.fields[name].Required:
			v.add(path, "merge field {{%s}} names a field that is not required", name)
		case v.conditional[name]:
			v.add(path, "merge field {{%s}} names a conditional field", name)
		}
	}
}

// checkOptions reports options without a value and repeated values.
func (v *validator) checkOptions(path string, opts []Option) {
	seen := map[string]bool{}
	for k, o := range opts {
		switch {
		case o.Value == "":
			v.add(fmt.Sprintf("%s[%d].value", path, k), "is required")
		case seen[o.Value]:
			v.add(fmt.Sprintf("%s[%d].value", path, k), "duplicate option value %q", o.Value)
		}
		seen[o.Value] = true
	}
}

func (v *validator) checkValidations(path string, vs *Validations) {
	if vs == nil {
		return
	}
	if vs.MinLength < 0 {
		v.add(path+".minLength", "is negative")
	}
	if vs.MaxLength > 0 && vs.MinLength > vs.MaxLength {
		v.add(path+".minLength", "exceeds maxLength")
	}
	if vs.Min != nil && vs.Max != nil && *vs.Min > *vs.Max {
		v.add(path+".min", "exceeds max")
	}
}
