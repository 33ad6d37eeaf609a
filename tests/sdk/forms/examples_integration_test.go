package forms_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// The flows of package forms' examples (ExampleClient_Create,
// ExampleClient_AllSubmissions), which run against a small stand-in server
// there, run here against the mock in process, with the outputs the
// examples print.

// exampleMock is a client of an in-process mock at a base URL that is no
// real host, reached through the mock's in-process transport.
func exampleMock(t *testing.T) (*mockserver.Server, *signkit.Client) {
	t.Helper()
	s := mockserver.New(mockserver.WithBaseURL("http://mock.example"))
	t.Cleanup(s.Close)
	cfg := s.Config()
	cfg.HTTPClient = &http.Client{Transport: s.Transport()}
	client, err := signkit.NewClient(cfg)
	require.NoError(t, err)
	return s, client
}

func TestExampleCreateFlowAgainstTheMock(t *testing.T) {
	t.Parallel()
	_, client := exampleMock(t)
	form, err := client.Forms.Create(ctx(t), &forms.Form{
		Name:                  "Onboarding",
		CaseFileTitleTemplate: "{{formName}}: {{primarySigner.name}}",
		Sections: []forms.Section{{
			Title: "About you",
			Fields: []forms.Field{
				{Name: "name", Label: "Full name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
				{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
			},
		}},
	})
	require.NoError(t, err)
	assert.Equal(t, forms.StatusDraft, form.Status)

	form, err = client.Forms.Publish(ctx(t), form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, forms.StatusActive, form.Status)
	assert.True(t, strings.HasPrefix(form.PublicURL, "http"), form.PublicURL)

	link, err := client.Forms.CreateRequestFor(ctx(t), form, &forms.PrefillRequest{
		Answers: map[string]forms.PrefillAnswer{
			"email": {Value: "ada@example.com", Editable: false},
			"name":  {Value: "Ada", Editable: true},
		},
	})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(link.RequestURL, form.PublicURL), "%s is not under %s", link.RequestURL, form.PublicURL)
}

func TestExampleAllSubmissionsFlowAgainstTheMock(t *testing.T) {
	t.Parallel()
	s, client := exampleMock(t)
	form, err := client.Forms.Create(ctx(t), &forms.Form{Name: "Onboarding", Sections: []forms.Section{{Fields: []forms.Field{
		{Name: "name", Type: forms.TypeText, MapTo: "primarySigner.name"},
		{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email"},
	}}}})
	require.NoError(t, err)
	form, err = client.Forms.Publish(ctx(t), form.ExternalID)
	require.NoError(t, err)
	for i := 1; i <= 2; i++ { // two applicants post the public page
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		require.NoError(t, mw.WriteField("name", fmt.Sprint("Applicant ", i)))
		require.NoError(t, mw.WriteField("email", fmt.Sprintf("applicant%d@example.com", i)))
		require.NoError(t, mw.Close())
		req, err := http.NewRequest(http.MethodPost, form.PublicURL, &body)
		require.NoError(t, err)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Accept", "application/json")
		resp, err := s.Transport().RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusCreated, resp.StatusCode)
	}

	var got []string
	for sub, err := range client.Forms.AllSubmissions(ctx(t), form.ExternalID, nil) {
		require.NoError(t, err)
		answers, err := client.Forms.Answers(ctx(t), form.ExternalID, sub.SubmissionID)
		require.NoError(t, err)
		email, _ := answers.Get("email")
		got = append(got, fmt.Sprintf("submission %d: %s", sub.SubmissionID, email))
	}
	assert.Equal(t, []string{"submission 1: applicant1@example.com", "submission 2: applicant2@example.com"}, got)
}
