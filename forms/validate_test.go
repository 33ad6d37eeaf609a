package forms_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
)

func text(name string) forms.Field { return forms.Field{Name: name, Type: forms.TypeText} }

func required(name string) forms.Field {
	return forms.Field{Name: name, Type: forms.TypeText, Required: true}
}

func section(fields ...forms.Field) forms.Section { return forms.Section{Fields: fields} }

func float(f float64) *float64 { return &f }

// validateCases has one case per rule of Validate, with the exact problems.
var validateCases = []struct {
	name string
	form forms.Form
	want []forms.Problem
}{
	{"missing field name",
		forms.Form{Sections: []forms.Section{section(text("a"), text(""))}},
		[]forms.Problem{{Field: "sections[0].fields[1].name", Message: "is required"}}},
	{"duplicate field name",
		forms.Form{Sections: []forms.Section{section(text("a")), section(text("b"), text("a"))}},
		[]forms.Problem{{Field: "sections[1].fields[1].name", Message: `duplicate field name "a", first used at sections[0].fields[0]`}}},
	{"email mapping not EMAIL",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "mail", Type: forms.TypeText, MapTo: "primarySigner.email"})}},
		[]forms.Problem{{Field: "sections[0].fields[0].type", Message: `must be EMAIL for a field mapped to "primarySigner.email", not "TEXT"`}}},
	{"field condition on a later field",
		forms.Form{Sections: []forms.Section{section(
			forms.Field{Name: "a", Type: forms.TypeText, Condition: forms.Equals("b", "x")}, text("b"))}},
		[]forms.Problem{{Field: "sections[0].fields[0].condition.rules[0].field", Message: `"b" is not an earlier field`}}},
	{"field condition on itself",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "a", Type: forms.TypeText, Condition: forms.Equals("a", "x")})}},
		[]forms.Problem{{Field: "sections[0].fields[0].condition.rules[0].field", Message: `"a" is not an earlier field`}}},
	{"field condition on no field",
		forms.Form{Sections: []forms.Section{section(text("a"), forms.Field{Name: "b", Type: forms.TypeText, Condition: forms.Equals("zz", "x")})}},
		[]forms.Problem{{Field: "sections[0].fields[1].condition.rules[0].field", Message: `"zz" names no field`}}},
	{"section condition on a field of the same section",
		forms.Form{Sections: []forms.Section{section(text("a")), {Condition: forms.Equals("b", "x"), Fields: []forms.Field{text("b")}}}},
		[]forms.Problem{{Field: "sections[1].condition.rules[0].field", Message: `"b" is not a field of an earlier section`}}},
	{"section condition on no field",
		forms.Form{Sections: []forms.Section{{Condition: forms.Equals("nope", "x"), Fields: []forms.Field{text("a")}}}},
		[]forms.Problem{{Field: "sections[0].condition.rules[0].field", Message: `"nope" names no field`}}},
	{"condition operator not EQUALS",
		forms.Form{Sections: []forms.Section{section(text("a"), forms.Field{Name: "b", Type: forms.TypeText,
			Condition: &forms.Condition{Rules: []forms.Rule{{Field: "a", Operator: "CONTAINS", Value: "x"}}}})}},
		[]forms.Problem{{Field: "sections[0].fields[1].condition.rules[0].operator", Message: `must be "EQUALS", not "CONTAINS"`}}},
	{"condition without rules",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "a", Type: forms.TypeText, Condition: &forms.Condition{}})}},
		[]forms.Problem{{Field: "sections[0].fields[0].condition.rules", Message: "is empty"}}},
	{"HTML merge field of the same section",
		forms.Form{Sections: []forms.Section{section(text("a"), forms.Field{Name: "review", Type: forms.TypeHTML, Content: "<p>{{a}}</p>"})}},
		[]forms.Problem{{Field: "sections[0].fields[1].content", Message: "merge field {{a}} names no field of an earlier section"}}},
	{"HTML merge field of no field",
		forms.Form{Sections: []forms.Section{section(required("a")), section(forms.Field{Name: "review", Type: forms.TypeHTML, Content: "<p>{{ a }} {{ghost}}</p>"})}},
		[]forms.Problem{{Field: "sections[1].fields[0].content", Message: "merge field {{ghost}} names no field of an earlier section"}}},
	{"HTML merge field of a field that is not required",
		forms.Form{Sections: []forms.Section{section(text("a")), section(forms.Field{Type: forms.TypeHTML, Content: "{{a}}"})}},
		[]forms.Problem{{Field: "sections[1].fields[0].content", Message: "merge field {{a}} names a field that is not required"}}},
	{"HTML merge field of a conditional field",
		forms.Form{Sections: []forms.Section{
			section(text("k"), forms.Field{Name: "a", Type: forms.TypeText, Required: true, Condition: forms.Equals("k", "x")}),
			{Condition: forms.Equals("k", "y"), Fields: []forms.Field{required("b")}},
			section(forms.Field{Type: forms.TypeHTML, Content: "{{a}} {{b}}"})}},
		[]forms.Problem{
			{Field: "sections[2].fields[0].content", Message: "merge field {{a}} names a conditional field"},
			{Field: "sections[2].fields[0].content", Message: "merge field {{b}} names a conditional field"},
		}},
	{"unknown layout",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "c", Type: forms.TypeChoice, Layout: "CHECKBOX",
			Options: []forms.Option{{Label: "A", Value: "a"}}})}},
		[]forms.Problem{{Field: "sections[0].fields[0].layout", Message: `unknown layout "CHECKBOX": use RADIO or SELECT`}}},
	{"negative multipleEntries maximum",
		forms.Form{Sections: []forms.Section{{MultipleEntries: forms.Repeat(-1), Fields: []forms.Field{
			{Name: "p", Type: forms.TypePhone, MultipleEntries: forms.Repeat(-2)}}}}},
		[]forms.Problem{
			{Field: "sections[0].multipleEntries.max", Message: "is negative"},
			{Field: "sections[0].fields[0].multipleEntries.max", Message: "is negative"},
		}},
	{"a field other than HTML without a name",
		forms.Form{Sections: []forms.Section{section(forms.Field{Type: forms.TypeFile})}},
		[]forms.Problem{{Field: "sections[0].fields[0].name", Message: "is required"}}},
	{"unknown title merge field",
		forms.Form{CaseFileTitleTemplate: "{{formName}} for {{primarySigner.name}} <{{primarySigner.email}}> {{primarySigner.phone}}",
			Sections: []forms.Section{section(text("a"))}},
		[]forms.Problem{{Field: "caseFileTitleTemplate", Message: "unknown merge field {{primarySigner.phone}}; allowed are {{formName}}, {{primarySigner.name}} and {{primarySigner.email}}"}}},
	{"CHOICE without options",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "c", Type: forms.TypeChoice})}},
		[]forms.Problem{{Field: "sections[0].fields[0].options", Message: "a CHOICE field needs at least one option"}}},
	{"missing type",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "c"})}},
		[]forms.Problem{{Field: "sections[0].fields[0].type", Message: "is required"}}},
	{"options without value or repeated",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "c", Type: forms.TypeChoice,
			Options: []forms.Option{{Label: "A", Value: "a"}, {Label: "B"}, {Label: "A again", Value: "a"}}})}},
		[]forms.Problem{
			{Field: "sections[0].fields[0].options[1].value", Message: "is required"},
			{Field: "sections[0].fields[0].options[2].value", Message: `duplicate option value "a"`},
		}},
	{"two fields mapped to the same property",
		forms.Form{Sections: []forms.Section{section(
			forms.Field{Name: "a", Type: forms.TypeText, MapTo: "primarySigner.name"},
			forms.Field{Name: "b", Type: forms.TypeText, MapTo: "primarySigner.name"})}},
		[]forms.Problem{{Field: "sections[0].fields[1].mapTo", Message: `"primarySigner.name" is already mapped by sections[0].fields[0]`}}},
	{"names with spaces, braces or brackets",
		forms.Form{Sections: []forms.Section{section(text("first name"), text("{{x}}"), text("["))}},
		[]forms.Problem{
			{Field: "sections[0].fields[0].name", Message: "must not contain spaces, braces or brackets: it is the key of {{merge fields}}, prefilled answers and the public page's inputs (<name>[i], <name>[])"},
			{Field: "sections[0].fields[1].name", Message: "must not contain spaces, braces or brackets: it is the key of {{merge fields}}, prefilled answers and the public page's inputs (<name>[i], <name>[])"},
			{Field: "sections[0].fields[2].name", Message: "must not contain spaces, braces or brackets: it is the key of {{merge fields}}, prefilled answers and the public page's inputs (<name>[i], <name>[])"},
		}},
	{"unknown mapTo target",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "p", Type: forms.TypePhone, MapTo: "primarySigner.phone"})}},
		[]forms.Problem{{Field: "sections[0].fields[0].mapTo", Message: `unknown target "primarySigner.phone": use primarySigner.name or primarySigner.email`}}},
	{"a FILE field mapped",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "cv", Type: forms.TypeFile, MapTo: forms.MapPrimarySignerName})}},
		[]forms.Problem{{Field: "sections[0].fields[0].mapTo", Message: "a FILE field cannot be mapped: it has no value"}}},
	{"duplicate section slug",
		forms.Form{Sections: []forms.Section{{Slug: "s", Fields: []forms.Field{text("a")}}, {Slug: "s", Fields: []forms.Field{text("b")}}}},
		[]forms.Problem{{Field: "sections[1].slug", Message: `duplicate section slug "s", first used at sections[0]`}}},
	{"validations out of order",
		forms.Form{Sections: []forms.Section{section(forms.Field{Name: "n", Type: forms.TypeNumber,
			Validations: &forms.Validations{MinLength: 5, MaxLength: 2, Min: float(3), Max: float(1)}})}},
		[]forms.Problem{
			{Field: "sections[0].fields[0].validations.minLength", Message: "exceeds maxLength"},
			{Field: "sections[0].fields[0].validations.min", Message: "exceeds max"},
		}},
	{"every problem at once",
		forms.Form{CaseFileTitleTemplate: "{{x}}", Sections: []forms.Section{section(text(""), text("a"), text("a"))}},
		[]forms.Problem{
			{Field: "caseFileTitleTemplate", Message: "unknown merge field {{x}}; allowed are {{formName}}, {{primarySigner.name}} and {{primarySigner.email}}"},
			{Field: "sections[0].fields[0].name", Message: "is required"},
			{Field: "sections[0].fields[2].name", Message: `duplicate field name "a", first used at sections[0].fields[1]`},
		}},
}

func TestValidateRules(t *testing.T) {
	t.Parallel()
	for _, tc := range validateCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.form.Validate()
			var verr *forms.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Problems)
			assert.Equal(t, "form", verr.Subject)
			assert.ErrorIs(t, err, signkit.ErrValidation)
			for _, p := range tc.want {
				assert.Contains(t, err.Error(), p.Field+": "+p.Message)
			}

			// Create and Update refuse it without a request (newEnv fails
			// the test on any request, token requests included).
			e := newEnv(t)
			_, err = e.Client.Forms.Create(ctx(t), &tc.form)
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Problems)
			_, err = e.Client.Forms.Update(ctx(t), "f1", &tc.form)
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Problems)
			assert.Zero(t, e.Tokens.Load())
		})
	}
}

func TestValidateAcceptsAValidForm(t *testing.T) {
	t.Parallel()
	f := forms.Form{
		Name:                  "Onboarding",
		CaseFileTitleTemplate: "{{formName}}: {{ primarySigner.name }} <{{primarySigner.email}}>",
		Sections: []forms.Section{
			{Slug: "you", Fields: []forms.Field{
				{Name: "name", Type: forms.TypeText, MapTo: "primarySigner.name", Required: true},
				{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email", Required: true},
				{Name: "kind", Type: forms.TypeChoice, Options: []forms.Option{{Label: "Company", Value: "company"}}},
				{Name: "cvr", Type: forms.TypeNumber, Condition: forms.Equals("kind", "company"), Required: true},
			}},
			{Slug: "docs", Condition: forms.Equals("kind", "company"), Fields: []forms.Field{
				{Name: "id", Type: forms.TypeFile, Validations: &forms.Validations{MaxFileSize: 10 << 20}},
			}},
			// No slug (the service makes one from the title), and HTML
			// fields without a name, as in the platform's examples.
			{Title: "Review", Fields: []forms.Field{
				{Type: forms.TypeHTML, Content: "<p>{{name}} ({{email}})</p>"},
				{Type: forms.TypeHTML, Content: "<p>Thank you.</p>"},
			}},
			{Title: "More", MultipleEntries: forms.Repeat(3), Fields: []forms.Field{
				{Name: "phones", Type: forms.TypePhone, MultipleEntries: forms.Repeat(2), CountryCodes: []string{"DK"}},
				{Name: "kind2", Type: forms.TypeChoice, Layout: forms.LayoutSelect, Options: []forms.Option{{Label: "A", Value: "a"}}},
				{Name: "notes", Type: forms.TypeText, Multiline: true},
			}},
		},
	}
	require.NoError(t, f.Validate())
}

func TestValidateNilForm(t *testing.T) {
	t.Parallel()
	var f *forms.Form
	err := f.Validate()
	var verr *forms.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, []forms.Problem{{Field: "form", Message: "is nil"}}, verr.Problems)
	assert.True(t, errors.Is(err, signkit.ErrValidation))
}

func TestValidationErrorMessage(t *testing.T) {
	t.Parallel()
	err := &forms.ValidationError{Package: "forms", Subject: "form", Problems: []forms.Problem{{Field: "a", Message: "is required"}, {Field: "b", Message: "is bad"}}}
	assert.Equal(t, "forms: invalid form: 2 problems: a: is required; b: is bad", err.Error())
	err.Problems = err.Problems[:1]
	assert.Equal(t, "forms: invalid form: a: is required", err.Error())
}
