package forms_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// definitionOnly clears what the service sets, leaving what a caller defines.
func definitionOnly(f *forms.Form) *forms.Form {
	c := *f
	c.ExternalID, c.Status, c.Version, c.PublicURL = "", "", 0, ""
	return &c
}

// TestIntegrationFidelity runs a form with every property of the platform's
// wire
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1)
// through the mock server: Create → Get → Update → Get loses nothing; a v2
// prefilled request; a submission through it with a repeated section and a
// repeated field; the request's answers with both instances.
func TestIntegrationFidelity(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	client, err := signkit.NewClient(s.Config())
	require.NoError(t, err)
	fc := client.Forms

	want := definitionOnly(everyPropertyForm(t))
	created, err := fc.Create(ctx(t), want)
	require.NoError(t, err)
	require.NotEmpty(t, created.ExternalID)
	id := created.ExternalID

	got, err := fc.Get(ctx(t), id)
	require.NoError(t, err)
	assert.Equal(t, want, definitionOnly(got), "Get gives back every property as sent")
	_, err = fc.Update(ctx(t), id, got)
	require.NoError(t, err)
	again, err := fc.Get(ctx(t), id)
	require.NoError(t, err)
	assert.Equal(t, definitionOnly(got), definitionOnly(again), "Get → Update → Get loses nothing")

	live, err := fc.Publish(ctx(t), id)
	require.NoError(t, err)
	require.Equal(t, forms.StatusActive, live.Status)

	var prefill forms.PrefillRequestV2
	require.NoError(t, json.Unmarshal(fixture(t, "prefill_v2.json"), &prefill))
	link, err := fc.CreateRequestV2For(ctx(t), live, &prefill)
	require.NoError(t, err)
	require.NotEmpty(t, link.RequestURL)
	require.NotEmpty(t, link.RequestID)

	_, err = fc.RequestAnswers(ctx(t), id, link.RequestID)
	require.ErrorIs(t, err, signkit.ErrNotFound, "no submission through the request yet")

	status, body := submitMultipart(t, link.RequestURL, [][2]string{
		{"full_name", "Jane Doe"},
		{"email_address", "jane.doe@example.com"},
		{"phone_numbers[]", "+4512345678"},
		{"phone_numbers[]", "+4587654321"},
		{"customer_type", "individual"},
		{"loan_purpose", "other"},
		{"loan_amount", "25000"},
		{"start_date", "2026-03-01"},
		{"additional_comments", "First line\nSecond line"},
		{"employer[0]", "Acme A/S"},
		{"job_title[0]", "Engineer"},
		{"employer[1]", "Initech ApS"},
		{"job_title[1]", "Architect"},
	})
	require.Equal(t, http.StatusCreated, status, "%v", body)
	assert.NotZero(t, body["submissionId"])
	assert.NotZero(t, body["casefileId"])

	answers, err := fc.RequestAnswers(ctx(t), id, link.RequestID)
	require.NoError(t, err)
	assert.Equal(t, id, answers.ExternalID)
	checkFidelityAnswers(t, answers)
}

// TestIntegrationPublishInTheSameCall creates and updates with
// ?publish=true: the form is live without a separate Publish.
func TestIntegrationPublishInTheSameCall(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	client, err := signkit.NewClient(s.Config())
	require.NoError(t, err)
	fc := client.Forms

	live, err := fc.CreateAndPublish(ctx(t), definitionOnly(everyPropertyForm(t)))
	require.NoError(t, err)
	assert.Equal(t, forms.StatusActive, live.Status)
	assert.NotEmpty(t, live.PublicURL)

	next := definitionOnly(everyPropertyForm(t))
	next.Name = "Job Application (Updated)"
	updated, err := fc.UpdateAndPublish(ctx(t), live.ExternalID, next)
	require.NoError(t, err)
	assert.Equal(t, forms.StatusActive, updated.Status)
	assert.Greater(t, updated.Version, live.Version)
	got, err := fc.Get(ctx(t), live.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, "Job Application (Updated)", got.Name, "the new version is live at once")
	assert.Equal(t, updated.Version, got.Version)
}

func checkFidelityAnswers(t *testing.T, answers *forms.Answers) {
	t.Helper()
	var employment *forms.AnswerSection
	for i := range answers.Sections {
		if answers.Sections[i].Slug == "previous-employment" {
			employment = &answers.Sections[i]
		}
	}
	require.NotNil(t, employment, "%+v", answers.Sections)
	assert.True(t, employment.MultipleEntries)
	require.Len(t, employment.Instances, 2)
	job, ok := employment.Instances[1].Get("job_title")
	require.True(t, ok)
	assert.Equal(t, "Architect", job.String())

	for field, want := range map[string][]string{
		"employer":  {"Acme A/S", "Initech ApS"},
		"job_title": {"Engineer", "Architect"},
		"full_name": {"Jane Doe"},
	} {
		var all []string
		for _, a := range answers.GetAll(field) {
			all = append(all, a.String())
		}
		assert.Equal(t, want, all, field)
		first, ok := answers.Get(field)
		require.True(t, ok, field)
		assert.Equal(t, want[0], first.String(), field)
	}
	phones, ok := answers.Get("phone_numbers")
	require.True(t, ok)
	assert.Equal(t, []string{"+4512345678", "+4587654321"}, phones.Values)
	comments, _ := answers.Get("additional_comments")
	assert.Equal(t, "First line\nSecond line", comments.String())
}

// submitMultipart posts the inputs, in order, as multipart/form-data to a
// public form page, as the page's own form does, asking for JSON.
func submitMultipart(t *testing.T, pageURL string, inputs [][2]string) (int, map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, in := range inputs {
		require.NoError(t, mw.WriteField(in[0], in[1]))
	}
	require.NoError(t, mw.Close())
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, pageURL, &buf)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}
