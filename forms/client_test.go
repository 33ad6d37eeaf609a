package forms_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
)

const activeFormJSON = `{"formId":"f1","name":"Onboarding","status":"ACTIVE","version":2,
	"publicUrl":"https://forms.test/p/f1","caseFileTitleTemplate":"{{formName}}",
	"sections":[{"slug":"you","title":"You","condition":null,"fields":[
		{"name":"kind","label":"Kind","type":"CHOICE","required":true,"options":[{"label":"Company","value":"company"}]},
		{"name":"email","type":"EMAIL","mapTo":"primarySigner.email","condition":{"rules":[{"field":"kind","operator":"EQUALS","value":"company"}]},
		 "validations":{"maxLength":80}}]}]}`

func wantActiveForm() *forms.Form {
	return &forms.Form{
		ExternalID: "f1", Name: "Onboarding", Status: forms.StatusActive, Version: 2,
		PublicURL: "https://forms.test/p/f1", CaseFileTitleTemplate: "{{formName}}",
		Sections: []forms.Section{{Slug: "you", Title: "You", Fields: []forms.Field{
			{Name: "kind", Label: "Kind", Type: forms.TypeChoice, Required: true, Options: []forms.Option{{Label: "Company", Value: "company"}}},
			{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email", Condition: forms.Equals("kind", "company"),
				Validations: &forms.Validations{MaxLength: 80}},
		}}},
	}
}

func TestCreateSendsTheDefinition(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPost, `/v1/forms`, 201, formJSON)
	f := validForm()
	f.ExternalID, f.Status, f.Version, f.PublicURL = "ignored", forms.StatusActive, 9, "https://ignored"
	f.CaseFileTitleTemplate = "{{formName}}"
	got, err := e.Client.Forms.Create(ctx(t), f)
	require.NoError(t, err)
	assert.Equal(t, &forms.Form{ExternalID: "f1", Name: "Onboarding", Status: forms.StatusDraft, Version: 1, Sections: []forms.Section{}}, got)
	req := rec.last()
	assert.Equal(t, formsURL+"/v1/forms", req.URL)
	assert.Equal(t, "Bearer tok-1", req.Auth)
	assert.Equal(t, "application/json", req.ContentType)
	jsonEq(t, `{"name":"Onboarding","caseFileTitleTemplate":"{{formName}}","sections":[{"title":"You","fields":[
		{"name":"name","type":"TEXT","mapTo":"primarySigner.name"},
		{"name":"email","type":"EMAIL","mapTo":"primarySigner.email"}]}]}`, req.Body)
}

func TestCreateRefusesNil(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := e.Client.Forms.Create(ctx(t), nil)
	require.ErrorIs(t, err, signkit.ErrValidation)
}

func TestGetDecodesFormIDAndEveryProperty(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, `/v1/forms/f1`, 200, activeFormJSON)
	got, err := e.Client.Forms.Get(ctx(t), "f1")
	require.NoError(t, err)
	assert.Equal(t, wantActiveForm(), got)
	assert.Equal(t, "application/json", rec.last().Accept)
}

func TestGetEscapesTheID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, `/v1/forms/a%2Fb%20c`, 200, formJSON)
	_, err := e.Client.Forms.Get(ctx(t), "a/b c")
	require.NoError(t, err)
	assert.Equal(t, 1, rec.count())
}

func TestEmptyIDIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := e.Client.Forms.Get(ctx(t), "")
	var verr *forms.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Equal(t, []forms.Problem{{Field: "externalID", Message: "is empty"}}, verr.Problems)
	_, err = e.Client.Forms.Publish(ctx(t), "")
	require.ErrorIs(t, err, signkit.ErrValidation)
	_, err = e.Client.Forms.ListSubmissions(ctx(t), "", nil)
	require.ErrorIs(t, err, signkit.ErrValidation)
}

func TestUpdatePutsTheDefinition(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPut, `/v1/forms/f1`, 200, `{"externalId":"f1","name":"Onboarding","status":"DRAFT","version":3,"sections":[]}`)
	got, err := e.Client.Forms.Update(ctx(t), "f1", validForm())
	require.NoError(t, err)
	assert.Equal(t, 3, got.Version)
	assert.Equal(t, forms.StatusDraft, got.Status)
	assert.Equal(t, http.MethodPut, rec.last().Method)
	jsonEq(t, mustJSON(t, map[string]any{"name": "Onboarding", "sections": validForm().Sections}), rec.last().Body)
}

func TestUpdateWithoutAnswerBodyFetchesTheForm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodPut, `/v1/forms/f1`, 200, ``)
	get := e.reply(http.MethodGet, `/v1/forms/f1`, 200, activeFormJSON)
	got, err := e.Client.Forms.Update(ctx(t), "f1", validForm())
	require.NoError(t, err)
	assert.Equal(t, wantActiveForm(), got)
	assert.Equal(t, 1, get.count())
}

func TestPublishAndArchive(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pub := e.reply(http.MethodPost, `/v1/forms/f1/publish`, 200, activeFormJSON)
	arc := e.reply(http.MethodPost, `/v1/forms/f1/archive`, 200, `{"externalId":"f1","name":"Onboarding","status":"ARCHIVED","version":2,"sections":[]}`)
	got, err := e.Client.Forms.Publish(ctx(t), "f1")
	require.NoError(t, err)
	assert.Equal(t, wantActiveForm(), got)
	assert.Empty(t, pub.last().Body, "publish sends no payload")
	got, err = e.Client.Forms.Archive(ctx(t), "f1")
	require.NoError(t, err)
	assert.Equal(t, forms.StatusArchived, got.Status)
	assert.Empty(t, got.PublicURL)
	assert.Equal(t, 1, arc.count())
}

func TestCreateRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPost, `/v1/forms/f1/requests`, 200, `{"requestUrl":"https://forms.test/p/f1?r=x","requestId":"r1"}`)
	link, err := e.Client.Forms.CreateRequest(ctx(t), "f1", &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{
		"email": {Value: "ada@example.com"},
		"kind":  {Value: "company", Editable: true},
	}})
	require.NoError(t, err)
	assert.Equal(t, &forms.PrefillLink{RequestURL: "https://forms.test/p/f1?r=x", RequestID: "r1"}, link)
	jsonEq(t, `{"answers":{"email":{"value":"ada@example.com","editable":false},"kind":{"value":"company","editable":true}}}`, rec.last().Body)
}

func TestCreateRequestRefusesBeforeSending(t *testing.T) {
	t.Parallel()
	form := wantActiveForm()
	form.Sections[0].Fields = append(form.Sections[0].Fields,
		forms.Field{Name: "id", Type: forms.TypeFile}, forms.Field{Name: "review", Type: forms.TypeHTML})
	cases := []struct {
		name string
		req  *forms.PrefillRequest
		form *forms.Form // nil: CreateRequest, else CreateRequestFor
		want []forms.Problem
	}{
		{"nil request", nil, nil, []forms.Problem{{Field: "answers", Message: "is empty"}}},
		{"no answers", &forms.PrefillRequest{}, nil, []forms.Problem{{Field: "answers", Message: "is empty"}}},
		{"empty key", &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{"": {}}}, nil,
			[]forms.Problem{{Field: "answers", Message: "has an empty field name"}}},
		{"keys that are not field names", &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{
			"email": {Value: "a@example.com"}, "Email": {}, "phone": {}}}, form,
			[]forms.Problem{
				{Field: "answers.Email", Message: "names no field of the form"},
				{Field: "answers.phone", Message: "names no field of the form"},
			}},
		{"file and HTML fields", &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{"id": {}, "review": {}}}, form,
			[]forms.Problem{
				{Field: "answers.id", Message: "a FILE field cannot be prefilled"},
				{Field: "answers.review", Message: "a HTML field cannot be prefilled"},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t) // fails the test on any request
			var err error
			if tc.form == nil {
				_, err = e.Client.Forms.CreateRequest(ctx(t), "f1", tc.req)
			} else {
				_, err = e.Client.Forms.CreateRequestFor(ctx(t), tc.form, tc.req)
				assert.Equal(t, err, tc.req.ValidateFor(tc.form))
			}
			var verr *forms.ValidationError
			require.ErrorAs(t, err, &verr)
			assert.Equal(t, "prefill request", verr.Subject)
			assert.Equal(t, tc.want, verr.Problems)
			assert.ErrorIs(t, err, signkit.ErrValidation)
		})
	}
}

func TestCreateRequestForSendsToTheFormsID(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPost, `/v1/forms/f1/requests`, 200, `{"requestUrl":"u","requestId":"r"}`)
	_, err := e.Client.Forms.CreateRequestFor(ctx(t), wantActiveForm(), &forms.PrefillRequest{
		Answers: map[string]forms.PrefillAnswer{"email": {Value: "a@example.com"}},
	})
	require.NoError(t, err)
	assert.Equal(t, 1, rec.count())
}
