package forms_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/forms"
)

// nin and businessID are field types of the vendor's form builder that this
// package does not name
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
const (
	nin        forms.FieldType = "NIN"
	businessID forms.FieldType = "BUSINESS_ID"
)

// TestValidateAcceptsUnknownTypes: a type this package does not know passes
// Validate, alone and beside every rule a field of it can meet.
func TestValidateAcceptsUnknownTypes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		form forms.Form
	}{
		{"bare", forms.Form{Sections: []forms.Section{section(forms.Field{Name: "cpr", Type: nin})}}},
		{"two, required, validated", forms.Form{Sections: []forms.Section{section(
			forms.Field{Name: "cpr", Type: nin, Required: true, Validations: &forms.Validations{Pattern: `^\d{6}-?\d{4}$`}},
			forms.Field{Name: "cvr", Type: businessID, Extra: map[string]json.RawMessage{"country": json.RawMessage(`"DK"`)}},
		)}}},
		{"mapped to the name, repeated, with options", forms.Form{Sections: []forms.Section{section(
			forms.Field{Name: "who", Type: "FULL_NAME", MapTo: forms.MapPrimarySignerName},
			forms.Field{Name: "many", Type: "MULTIPLE_CHOICE", MultipleEntries: forms.Repeat(3),
				Options: []forms.Option{{Label: "A", Value: "a"}, {Label: "B", Value: "b"}}},
		)}}},
		{"a condition on it and a merge field of it", forms.Form{Sections: []forms.Section{
			section(forms.Field{Name: "cpr", Type: nin, Required: true},
				forms.Field{Name: "why", Type: forms.TypeText, Condition: forms.Equals("cpr", "x")}),
			{Condition: forms.Equals("cpr", "y"), Fields: []forms.Field{{Name: "more", Type: "DIGITS"}}},
			section(forms.Field{Type: forms.TypeHTML, Content: "<p>{{cpr}}</p>"}),
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			require.NoError(t, tc.form.Validate())
		})
	}
	assert.False(t, nin.IsKnown(), "IsKnown stays advisory: it still tells the types of this package apart")
	assert.True(t, forms.TypeText.IsKnown())
}

// TestValidateStructureOfUnknownTypes: a field of an unknown type is held
// to the structural rules like any other.
func TestValidateStructureOfUnknownTypes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		form forms.Form
		want []forms.Problem
	}{
		{"no name",
			forms.Form{Sections: []forms.Section{section(forms.Field{Type: nin})}},
			[]forms.Problem{{Field: "sections[0].fields[0].name", Message: "is required"}}},
		{"no type",
			forms.Form{Sections: []forms.Section{section(forms.Field{Name: "cpr"})}},
			[]forms.Problem{{Field: "sections[0].fields[0].type", Message: "is required"}}},
		{"duplicate name",
			forms.Form{Sections: []forms.Section{section(forms.Field{Name: "id", Type: nin}, forms.Field{Name: "id", Type: businessID})}},
			[]forms.Problem{{Field: "sections[0].fields[1].name", Message: `duplicate field name "id", first used at sections[0].fields[0]`}}},
		{"mapped to the email",
			forms.Form{Sections: []forms.Section{section(forms.Field{Name: "cpr", Type: nin, MapTo: forms.MapPrimarySignerEmail})}},
			[]forms.Problem{{Field: "sections[0].fields[0].type", Message: `must be EMAIL for a field mapped to "primarySigner.email", not "NIN"`}}},
		{"condition on a later field",
			forms.Form{Sections: []forms.Section{section(
				forms.Field{Name: "cpr", Type: nin, Condition: forms.Equals("cvr", "x")}, forms.Field{Name: "cvr", Type: businessID})}},
			[]forms.Problem{{Field: "sections[0].fields[0].condition.rules[0].field", Message: `"cvr" is not an earlier field`}}},
		{"merge field of one that is not required",
			forms.Form{Sections: []forms.Section{section(forms.Field{Name: "cpr", Type: nin}),
				section(forms.Field{Type: forms.TypeHTML, Content: "{{cpr}}"})}},
			[]forms.Problem{{Field: "sections[1].fields[0].content", Message: "merge field {{cpr}} names a field that is not required"}}},
		{"negative maximum, bad layout, options without value",
			forms.Form{Sections: []forms.Section{section(forms.Field{Name: "pick", Type: "DROPDOWN", Layout: "GRID",
				MultipleEntries: forms.Repeat(-1), Options: []forms.Option{{Label: "A"}}})}},
			[]forms.Problem{
				{Field: "sections[0].fields[0].options[0].value", Message: "is required"},
				{Field: "sections[0].fields[0].layout", Message: `unknown layout "GRID": use RADIO or SELECT`},
				{Field: "sections[0].fields[0].multipleEntries.max", Message: "is negative"},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var verr *forms.ValidationError
			require.ErrorAs(t, tc.form.Validate(), &verr)
			assert.Equal(t, tc.want, verr.Problems)
		})
	}
}

// TestFormExtraMembers: members of a form this package does not model are
// decoded into Extra on Get and sent back by Update, never in place of a
// member the package models.
func TestFormExtraMembers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, `/v1/forms/f1$`, http.StatusOK, `{"formId":"f1","name":"KYC","status":"DRAFT","version":1,
		"storageFolderId":42,"theme":{"color":"#123456"},"draftVersion":2,
		"sections":[{"slug":"a","fields":[{"name":"cpr","type":"NIN","mask":"######-####"}]}]}`)
	put := e.reply(http.MethodPut, `/v1/forms/f1$`, http.StatusOK, `{"formId":"f1","name":"KYC 2","status":"DRAFT","version":1,"storageFolderId":42,"sections":[]}`)

	got, err := e.Client.Forms.Get(ctx(t), "f1")
	require.NoError(t, err)
	assert.Equal(t, map[string]json.RawMessage{"storageFolderId": json.RawMessage(`42`),
		"theme": json.RawMessage(`{"color":"#123456"}`), "draftVersion": json.RawMessage(`2`)}, got.Extra)
	assert.Equal(t, nin, got.Sections[0].Fields[0].Type)

	got.Name = "KYC 2"
	got.Extra["name"] = json.RawMessage(`"smuggled"`)   // a modelled member: never sent from Extra
	got.Extra["status"] = json.RawMessage(`"ARCHIVED"`) // modelled, output-only: not sent either
	got.Extra["language"] = json.RawMessage(`"da"`)     // modelled, empty in the form: not sent
	got.Extra["Description"] = json.RawMessage(`"x"`)   // read as description by a decoder: not sent
	updated, err := e.Client.Forms.Update(ctx(t), "f1", got)
	require.NoError(t, err)
	jsonEq(t, `{"name":"KYC 2","storageFolderId":42,"theme":{"color":"#123456"},"draftVersion":2,
		"sections":[{"slug":"a","fields":[{"name":"cpr","type":"NIN","mask":"######-####"}]}]}`, put.last().Body)
	assert.Equal(t, map[string]json.RawMessage{"storageFolderId": json.RawMessage(`42`)}, updated.Extra)

	b, err := json.Marshal(updated)
	require.NoError(t, err)
	jsonEq(t, `{"formId":"f1","externalId":"f1","name":"KYC 2","status":"DRAFT","version":1,"storageFolderId":42,"sections":[]}`, b)
}

// TestExtraIsNotAModelledMemberInAnotherCase: encoding/json reads "Name"
// into Name, so it is not kept in Extra as well, where it would be sent
// back beside "name".
func TestExtraIsNotAModelledMemberInAnotherCase(t *testing.T) {
	t.Parallel()
	var f forms.Form
	require.NoError(t, json.Unmarshal([]byte(`{"Name":"A","FORMID":"f","folder":1,
		"sections":[{"Slug":"s","extra":2,"fields":[{"NAME":"a","Type":"NIN","hint":"h"}]}]}`), &f))
	assert.Equal(t, "A", f.Name)
	assert.Equal(t, map[string]json.RawMessage{"folder": json.RawMessage(`1`)}, f.Extra)
	assert.Equal(t, map[string]json.RawMessage{"extra": json.RawMessage(`2`)}, f.Sections[0].Extra)
	assert.Equal(t, map[string]json.RawMessage{"hint": json.RawMessage(`"h"`)}, f.Sections[0].Fields[0].Extra)
	assert.Equal(t, nin, f.Sections[0].Fields[0].Type)
}
