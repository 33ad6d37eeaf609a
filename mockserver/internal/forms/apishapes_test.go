package forms

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// TestTitleTemplatePatternAgreesWithValidation: the pattern the OpenAPI
// description gives caseFileTitleTemplate accepts exactly the templates
// validateForm accepts, over fixed cases and many strings made of braces,
// spaces and merge field names.
func TestTitleTemplatePatternAgreesWithValidation(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(titleTemplatePattern)
	valid := func(s string) bool {
		for _, d := range validateForm(&formJSON{Name: "n", CaseFileTitleTemplate: titleTemplate(s)}) {
			if d.Field == "caseFileTitleTemplate" {
				return false
			}
		}
		return true
	}
	check := func(s string) {
		if got, want := re.MatchString(s), valid(s); got != want {
			t.Errorf("%q: pattern matches %v, validateForm accepts %v", s, got, want)
		}
	}
	for _, s := range []string{"", "Feedback", "{{formName}}", "{{ formName }} for {{primarySigner.name}}",
		"{{formName}} - {{primarySigner.name}} ({{primarySigner.email}})", "{{nope}}", "{{}}", "{{formname}}",
		"{{{formName}}", "{{{{formName}}", "a{}{{formName}}", "{x}}", "{{a}b", "{{", "{", "}}", "{{formName}}{{",
		"{{x}} {{", "{ {formName}}", "{{formName}}}", "{{\tformName\n}}"} {
		check(s)
	}
	pieces := []string{"{", "}", "{{", "}}", " ", "\t", "x", ".", "formName", "primarySigner.name", "primarySigner.email",
		"primarySigner", "name"}
	rng := rand.New(rand.NewPCG(1, 2))
	accepted := 0
	for range 50_000 {
		var b strings.Builder
		for range 1 + rng.IntN(7) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		check(b.String())
		if valid(b.String()) {
			accepted++
		}
	}
	if accepted < 1000 || accepted > 49_000 {
		t.Errorf("%d of 50,000 random templates accepted: the sample says little", accepted)
	}
}

// TestFormEnumsAreWhatValidationAccepts: a field's type is an open string
// whose description names every known type, and validation accepts any
// type but an empty one; the enum the description gives mapTo is the
// values validation accepts.
func TestFormEnumsAreWhatValidationAccepts(t *testing.T) {
	t.Parallel()
	schema := fieldType("").OpenAPISchema()
	if _, closed := schema["enum"]; closed || schema["type"] != "string" || schema["minLength"] != 1 {
		t.Errorf("field type schema %v, want an open non-empty string", schema)
	}
	if !slices.Equal(fieldTypes, []string{"TEXT", "EMAIL", "PHONE", "NUMBER", "DATE", "CHOICE", "HTML", "FILE"}) {
		t.Errorf("field types %v", fieldTypes)
	}
	for _, typ := range append(slices.Clone(fieldTypes), "NIN", "BUSINESS_ID", "x", "") {
		if slices.Contains(fieldTypes, typ) && !strings.Contains(schema["description"].(string), typ) {
			t.Errorf("the description does not name %s", typ)
		}
		def := formJSON{Name: "n", Sections: []sectionJSON{{Slug: "s", Fields: []fieldJSON{
			{Name: "f", Label: "F", Type: fieldType(typ), Options: []optionJSON{{Label: "A", Value: "a"}}}}}}}
		refused := slices.ContainsFunc(validateForm(&def), func(d wire.FieldError) bool { return strings.HasSuffix(d.Field, ".type") })
		if refused != (typ == "") {
			t.Errorf("type %q: refused %v", typ, refused)
		}
	}
	for _, target := range append(mapTarget("").OpenAPISchema()["enum"].([]string), "nobody") {
		def := formJSON{Name: "n", Sections: []sectionJSON{{Slug: "s", Fields: []fieldJSON{
			{Name: "e", Label: "E", Type: typeEmail, MapTo: mapTarget(target)}}}}}
		refused := slices.ContainsFunc(validateForm(&def), func(d wire.FieldError) bool { return strings.HasSuffix(d.Field, ".mapTo") })
		if refused != (target == "nobody") {
			t.Errorf("mapTo %q: refused %v", target, refused)
		}
	}
}
