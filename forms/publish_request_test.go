package forms_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
)

const activeJSON = `{"formId":"f1","name":"Onboarding","status":"ACTIVE","version":1,"publicUrl":"https://forms.test/p/f1","sections":[]}`

func TestCreateAndUpdateAndPublish(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		method string
		path   string
		status int
		call   func(c *forms.Client, t *testing.T) (*forms.Form, error)
	}{
		{"CreateAndPublish", http.MethodPost, `/v1/forms`, 201, func(c *forms.Client, t *testing.T) (*forms.Form, error) {
			return c.CreateAndPublish(ctx(t), everyPropertyForm())
		}},
		{"UpdateAndPublish", http.MethodPut, `/v1/forms/f1`, 200, func(c *forms.Client, t *testing.T) (*forms.Form, error) {
			return c.UpdateAndPublish(ctx(t), "f1", everyPropertyForm())
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.reply(tc.method, tc.path, tc.status, activeJSON)
			got, err := tc.call(e.Client.Forms, t)
			require.NoError(t, err)
			assert.Equal(t, forms.StatusActive, got.Status)
			assert.Equal(t, "f1", got.ExternalID)
			req := rec.last()
			assert.Equal(t, formsURL+tc.path+"?publish=true", req.URL)
			// The body is the definition: every property, no id, status or URL.
			def := everyPropertyForm()
			want := mustJSON(t, map[string]any{
				"name": def.Name, "language": def.Language, "description": def.Description,
				"caseFileTitleTemplate": def.CaseFileTitleTemplate, "sections": def.Sections,
			})
			jsonEq(t, want, req.Body)
			assert.Contains(t, string(req.Body), `"multipleEntries":{"max":5}`)
			assert.Contains(t, string(req.Body), `"step":100`, "unmodelled validations are sent back")
		})
	}
}

func TestCreateAndPublishRefusesAnInvalidForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t) // fails the test on any request
	bad := everyPropertyForm()
	bad.Sections[0].Fields[3].Layout = "CHECKBOX"
	_, err := e.Client.Forms.CreateAndPublish(ctx(t), bad)
	require.ErrorIs(t, err, signkit.ErrValidation)
	_, err = e.Client.Forms.UpdateAndPublish(ctx(t), "f1", bad)
	require.ErrorIs(t, err, signkit.ErrValidation)
	_, err = e.Client.Forms.UpdateAndPublish(ctx(t), "", everyPropertyForm())
	require.ErrorIs(t, err, signkit.ErrValidation)
}

func TestCreateRequestV2(t *testing.T) {
	t.Parallel()
	for _, status := range []int{200, 201} {
		e := newEnv(t)
		rec := e.reply(http.MethodPost, `/v2/forms/f1/requests`, status, `{"requestUrl":"https://forms.test/p/f1?r=x","requestId":"r1"}`)
		r := &forms.PrefillRequestV2{Answers: map[string][]map[string]forms.PrefillAnswer{
			"personal-information": {{"full_name": {Value: "Jane Doe", Editable: true}}},
			"previous-employment":  {{"employer": {Value: "Acme"}}, {"employer": {Value: "Initech"}}},
		}}
		link, err := e.Client.Forms.CreateRequestV2(ctx(t), "f1", r)
		require.NoError(t, err, status)
		assert.Equal(t, &forms.PrefillLink{RequestURL: "https://forms.test/p/f1?r=x", RequestID: "r1"}, link)
		req := rec.last()
		assert.Equal(t, formsURL+"/v2/forms/f1/requests", req.URL)
		assert.Equal(t, "Bearer tok-1", req.Auth)
		jsonEq(t, `{"answers":{"personal-information":[{"full_name":{"value":"Jane Doe","editable":true}}],
			"previous-employment":[{"employer":{"value":"Acme","editable":false}},{"employer":{"value":"Initech","editable":false}}]}}`, req.Body)
	}
}

func TestCreateRequestV2ForSendsToTheFormsID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPost, `/v2/forms/frm-8f2c/requests`, 200, `{"requestUrl":"u","requestId":"r"}`)
	var r forms.PrefillRequestV2
	require.NoError(t, json.Unmarshal(fixture(t, "prefill_v2.json"), &r))
	_, err := e.Client.Forms.CreateRequestV2For(ctx(t), everyPropertyForm(), &r)
	require.NoError(t, err)
	jsonEq(t, string(fixture(t, "prefill_v2.json")), rec.last().Body)
}

func TestCreateRequestV2RefusesBeforeSending(t *testing.T) {
	t.Parallel()
	type answers = map[string][]map[string]forms.PrefillAnswer
	one := map[string]forms.PrefillAnswer{"employer": {Value: "x"}}
	six := []map[string]forms.PrefillAnswer{one, one, one, one, one, one}
	cases := []struct {
		name string
		req  *forms.PrefillRequestV2
		form *forms.Form // nil: CreateRequestV2, else CreateRequestV2For
		want []forms.Problem
	}{
		{"nil request", nil, nil, []forms.Problem{{Field: "answers", Message: "is empty"}}},
		{"no answers", &forms.PrefillRequestV2{}, nil, []forms.Problem{{Field: "answers", Message: "is empty"}}},
		{"empty slug and empty list", &forms.PrefillRequestV2{Answers: answers{"": {one}, "a": {}}}, nil, []forms.Problem{
			{Field: "answers", Message: "has an empty section slug"},
			{Field: "answers.a", Message: "has no instance: send a list of one for a section that is not repeatable"},
		}},
		{"empty field name", &forms.PrefillRequestV2{Answers: answers{"a": {{"": {}}}}}, nil, []forms.Problem{
			{Field: "answers.a[0]", Message: "has an empty field name"},
		}},
		{"unknown slug", &forms.PrefillRequestV2{Answers: answers{"nope": {one}}}, everyPropertyForm(), []forms.Problem{
			{Field: "answers.nope", Message: "names no section of the form"},
		}},
		{"two instances of a single section", &forms.PrefillRequestV2{Answers: answers{
			"personal-information": {{"full_name": {}}, {"full_name": {}}}}}, everyPropertyForm(), []forms.Problem{
			{Field: "answers.personal-information", Message: "has 2 instances but the section is not repeatable"},
		}},
		{"more instances than the maximum", &forms.PrefillRequestV2{Answers: answers{"previous-employment": six}}, everyPropertyForm(), []forms.Problem{
			{Field: "answers.previous-employment", Message: "has 6 instances, more than the section's maximum 5"},
		}},
		{"fields of another section, FILE", &forms.PrefillRequestV2{Answers: answers{
			"business-details": {{"registration": {}, "full_name": {}}}}}, everyPropertyForm(), []forms.Problem{
			{Field: "answers.business-details[0].full_name", Message: "names no field of the section"},
			{Field: "answers.business-details[0].registration", Message: "a FILE field cannot be prefilled"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t) // fails the test on any request
			var err error
			if tc.form == nil {
				_, err = e.Client.Forms.CreateRequestV2(ctx(t), "f1", tc.req)
			} else {
				_, err = e.Client.Forms.CreateRequestV2For(ctx(t), tc.form, tc.req)
			}
			var verr *forms.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, tc.want, verr.Problems)
			assert.ErrorIs(t, err, signkit.ErrValidation)
			assert.Zero(t, e.Tokens.Load())
		})
	}
}

func TestRequestAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, `/v1/forms/f1/requests/r%2F1/answers`, 200, string(fixture(t, "answers_instances.json")))
	a, err := e.Client.Forms.RequestAnswers(ctx(t), "f1", "r/1")
	require.NoError(t, err)
	assert.Equal(t, formsURL+"/v1/forms/f1/requests/r%2F1/answers", rec.last().URL)
	assert.Equal(t, int64(1042), a.SubmissionID)
	assert.Len(t, a.GetAll("employer"), 2)

	e = newEnv(t)
	e.reply(http.MethodGet, `/v1/forms/f1/requests/r1/answers`, 404, `{"statusCode":404,"error":"not_found","message":"no submission through this request"}`)
	_, err = e.Client.Forms.RequestAnswers(ctx(t), "f1", "r1")
	require.ErrorIs(t, err, signkit.ErrNotFound)

	e = newEnv(t) // fails the test on any request
	for _, ids := range [][2]string{{"", "r1"}, {"f1", ""}} {
		_, err = e.Client.Forms.RequestAnswers(ctx(t), ids[0], ids[1])
		require.ErrorIs(t, err, signkit.ErrValidation, ids)
	}
}
