package forms_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/forms"
)

// The fixtures of testdata/ are written by us in the shapes the platform
// documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return b
}

// everyPropertyForm is testdata/form_every_property.json in Go.
func everyPropertyForm() *forms.Form {
	return &forms.Form{
		ExternalID: "frm-8f2c", Name: "Job Application", Language: "EN",
		Description:           "Every property of a form, in the shapes of the platform's documented examples.",
		Status:                forms.StatusActive,
		Version:               3,
		CaseFileTitleTemplate: "{{formName}} - {{primarySigner.name}} ({{primarySigner.email}})",
		PublicURL:             "https://sandbox.penneo.com/collect/forms/frm-8f2c",
		Sections: []forms.Section{
			{Slug: "personal-information", Title: "Personal Information", Description: "Who you are.", Fields: []forms.Field{
				{Name: "full_name", Label: "Full Name", Type: forms.TypeText, Required: true, MapTo: forms.MapPrimarySignerName,
					Validations: &forms.Validations{MinLength: 2, MaxLength: 100}},
				{Name: "email_address", Label: "Email Address", Type: forms.TypeEmail, Required: true, MapTo: forms.MapPrimarySignerEmail},
				{Name: "phone_numbers", Label: "Phone Numbers", Type: forms.TypePhone, Required: true,
					CountryCodes: []string{"DK", "NO", "SE", "DE", "GB"}, MultipleEntries: forms.Repeat(3)},
				{Name: "customer_type", Label: "Customer Type", Type: forms.TypeChoice, Required: true, Layout: forms.LayoutRadio,
					Options: []forms.Option{{Label: "Individual", Value: "individual"}, {Label: "Business", Value: "business"}}},
				{Name: "loan_purpose", Label: "Loan Purpose", Type: forms.TypeChoice, Layout: forms.LayoutSelect,
					Options: []forms.Option{{Label: "Home Improvement", Value: "home_improvement"}, {Label: "Other", Value: "other"}}},
				{Name: "agreement_id", Label: "Agreement ID", Type: forms.TypeText, Required: true, Condition: forms.Equals("customer_type", "business")},
				{Name: "loan_amount", Label: "Loan Amount (DKK)", Type: forms.TypeNumber, Required: true,
					Validations: &forms.Validations{Min: float(10000), Max: float(500000), Extra: map[string]json.RawMessage{"step": json.RawMessage(`100`)}}},
				{Name: "start_date", Label: "Start Date", Type: forms.TypeDate},
				{Name: "additional_comments", Label: "Additional Comments", Type: forms.TypeText, Multiline: true,
					Validations: &forms.Validations{MaxLength: 500}},
			}},
			{Slug: "business-details", Title: "Business Details", Condition: forms.Equals("customer_type", "business"), Fields: []forms.Field{
				{Name: "registration", Label: "Registration certificate", Type: forms.TypeFile, Validations: &forms.Validations{MaxFileSize: 10 << 20}},
			}},
			{Slug: "previous-employment", Title: "Previous Employment", Description: "Add up to 5 previous employers.",
				MultipleEntries: forms.Repeat(5), Fields: []forms.Field{
					{Name: "employer", Label: "Employer", Type: forms.TypeText, Required: true, Validations: &forms.Validations{MaxLength: 200}},
					{Name: "job_title", Label: "Job Title", Type: forms.TypeText, Required: true, Validations: &forms.Validations{MaxLength: 100}},
				}},
			{Slug: "application-summary", Title: "Application Summary", Fields: []forms.Field{
				{Type: forms.TypeHTML, Content: "<p>Applicant: <strong>{{full_name}}</strong></p><p>Email: {{email_address}}</p><p>Loan Amount: {{loan_amount}} DKK</p>"},
			}},
		},
	}
}

func TestFormFixtures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		file string
		want *forms.Form
		// roundTrip: encoding the decoded form gives the fixture back.
		roundTrip bool
	}{
		{"form_every_property.json", everyPropertyForm(), true},
		{"form_country_options.json", &forms.Form{
			ExternalID: "4711", Name: "Contact Information", Language: "da", Status: forms.StatusDraft, Version: 1,
			Sections: []forms.Section{{Title: "Your Details", MultipleEntries: &forms.MultipleEntries{}, Fields: []forms.Field{
				{Name: "phone_number", Type: forms.TypePhone, Label: "Phone Number", CountryCodes: []string{"DK", "SE"}},
				{Name: "notes", Type: forms.TypeText, Extra: map[string]json.RawMessage{"placeholder": json.RawMessage(`"Anything else?"`)},
					Validations: &forms.Validations{Extra: map[string]json.RawMessage{"min": json.RawMessage(`"ten"`)}}},
			}}},
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			raw := fixture(t, tc.file)
			var got forms.Form
			require.NoError(t, json.Unmarshal(raw, &got))
			assert.Equal(t, tc.want, &got)
			require.NoError(t, got.Validate(), "the platform's shapes are valid forms")
			b, err := json.Marshal(&got)
			require.NoError(t, err)
			if tc.roundTrip {
				require.JSONEq(t, string(raw), string(b))
			}
			var again forms.Form
			require.NoError(t, json.Unmarshal(b, &again))
			assert.Equal(t, &got, &again, "decode → encode → decode is stable")
		})
	}
}

func TestFormEncodesBothIDNames(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(forms.Form{ExternalID: "f1", Name: "n"})
	require.NoError(t, err)
	require.JSONEq(t, `{"formId":"f1","externalId":"f1","name":"n","sections":null}`, string(b))
	for _, in := range []string{`{"formId":"f1"}`, `{"externalId":"f1"}`, `{"formId":"f1","externalId":"f1"}`} {
		var f forms.Form
		require.NoError(t, json.Unmarshal([]byte(in), &f))
		assert.Equal(t, "f1", f.ExternalID, in)
	}
}

func TestMultipleEntriesShapes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   string
		want *forms.MultipleEntries
		err  bool
	}{
		{`{"fields":[]}`, nil, false},
		{`{"multipleEntries":null,"fields":[]}`, nil, false},
		{`{"multipleEntries":false,"fields":[]}`, nil, false},
		{`{"multipleEntries":true,"fields":[]}`, &forms.MultipleEntries{}, false},
		{`{"multipleEntries":{"max":4},"fields":[]}`, forms.Repeat(4), false},
		{`{"multipleEntries":"many","fields":[]}`, nil, true},
	}
	for _, tc := range cases {
		var s forms.Section
		err := json.Unmarshal([]byte(tc.in), &s)
		if tc.err {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, s.MultipleEntries, tc.in)
		var f forms.Field
		require.NoError(t, json.Unmarshal([]byte(tc.in), &f), tc.in)
		assert.Equal(t, tc.want, f.MultipleEntries, tc.in)
	}
}

func TestAnswersFixture(t *testing.T) {
	t.Parallel()
	var a forms.Answers
	require.NoError(t, json.Unmarshal(fixture(t, "answers_instances.json"), &a))
	assert.Equal(t, int64(1042), a.SubmissionID)
	assert.Equal(t, "frm-8f2c", a.ExternalID)
	assert.Equal(t, 3, a.Version)
	assert.JSONEq(t, `[{"name":"Jane Doe","email":"jane.doe@example.com"}]`, string(a.Respondents))
	require.Len(t, a.Sections, 2)
	assert.False(t, a.Sections[0].MultipleEntries)
	assert.True(t, a.Sections[1].MultipleEntries)
	assert.Empty(t, a.Sections[1].Answers)
	require.Len(t, a.Sections[1].Instances, 2)

	cases := []struct {
		field    string
		get      string   // Get(field).String()
		all      []string // String() of each of GetAll(field)
		values   []string // Get(field).Values
		instance int      // instance of previous-employment to read, or -1
	}{
		{"full_name", "Jane Doe", []string{"Jane Doe"}, nil, -1},
		{"phone_numbers", "+4512345678, +4587654321", []string{"+4512345678, +4587654321"}, []string{"+4512345678", "+4587654321"}, -1},
		{"loan_amount", "25000", []string{"25000"}, nil, -1},
		{"employer", "Acme A/S", []string{"Acme A/S", "Initech ApS"}, nil, 1},
		{"job_title", "Engineer", []string{"Engineer", "Architect"}, nil, 0},
	}
	for _, tc := range cases {
		t.Run(tc.field, func(t *testing.T) {
			got, ok := a.Get(tc.field)
			require.True(t, ok)
			assert.Equal(t, tc.get, got.String())
			assert.Equal(t, tc.values, got.Values)
			assert.Equal(t, tc.get, a.Map()[tc.field], "Map agrees with Get")
			var all []string
			for _, x := range a.GetAll(tc.field) {
				all = append(all, x.String())
			}
			assert.Equal(t, tc.all, all)
			if tc.instance >= 0 {
				in, ok := a.Sections[1].Instances[tc.instance].Get(tc.field)
				require.True(t, ok)
				assert.Equal(t, tc.all[tc.instance], in.String())
			}
		})
	}
	_, ok := a.Get("nope")
	assert.False(t, ok)
	assert.Nil(t, a.GetAll("nope"))
}

func TestAnswerValuesOfEveryShape(t *testing.T) {
	t.Parallel()
	var a forms.Answer
	require.NoError(t, json.Unmarshal([]byte(`{"name":"x","values":["a",2,true,null,{"k":"v"}]}`), &a))
	assert.Equal(t, []string{"a", "2", "true", "", `{"k":"v"}`}, a.Values)
	require.NoError(t, json.Unmarshal([]byte(`{"name":"x","value":{"amount":3}}`), &a))
	assert.Equal(t, `{"amount":3}`, a.Value)
	assert.Nil(t, a.Values)
}

func TestPrefillV2Fixture(t *testing.T) {
	t.Parallel()
	raw := fixture(t, "prefill_v2.json")
	var r forms.PrefillRequestV2
	require.NoError(t, json.Unmarshal(raw, &r))
	assert.Equal(t, forms.PrefillAnswer{Value: "Initech ApS", Editable: true}, r.Answers["previous-employment"][1]["employer"])
	require.NoError(t, r.ValidateFor(everyPropertyForm()))
	b, err := json.Marshal(&r)
	require.NoError(t, err)
	require.JSONEq(t, string(raw), string(b))
}
