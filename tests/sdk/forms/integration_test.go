package forms_test

import (
	"bytes"
	"encoding/json"
	"io"
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

// onboarding is the form of the integration test: who you are, your
// documents when you are a company, and a review of your answers.
func onboarding() *forms.Form {
	return &forms.Form{
		Name:                  "Onboarding",
		Language:              "en",
		CaseFileTitleTemplate: "{{formName}}: {{primarySigner.name}}",
		Sections: []forms.Section{
			{Slug: "you", Title: "About you", Fields: []forms.Field{
				{Name: "name", Label: "Full name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
				{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
				{Name: "kind", Label: "You are", Type: forms.TypeChoice, Required: true, Options: []forms.Option{
					{Label: "A person", Value: "person"}, {Label: "A company", Value: "company"},
				}},
			}},
			{Slug: "docs", Title: "Documents", Condition: forms.Equals("kind", "company"), Fields: []forms.Field{
				{Name: "registration", Label: "Registration", Type: forms.TypeFile, Required: true},
			}},
			{Slug: "review", Title: "Review", Fields: []forms.Field{
				{Name: "summary", Type: forms.TypeHTML, Content: "<p>{{name}} &lt;{{email}}&gt;</p>"},
			}},
		},
	}
}

// endUser submits a form page the way a browser does: it opens the page,
// then posts multipart/form-data with inputs named by field name to the
// page's own URL, asking for JSON.
type endUser struct {
	t  *testing.T
	hc *http.Client
}

// open fetches the page and answers its HTML.
func (u endUser) open(pageURL string) (int, string) {
	u.t.Helper()
	resp, err := u.hc.Get(pageURL)
	require.NoError(u.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(u.t, err)
	return resp.StatusCode, string(b)
}

// submit posts values and files and answers the status and JSON body.
func (u endUser) submit(pageURL string, values map[string]string, files map[string][]byte) (int, map[string]any) {
	u.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range values {
		require.NoError(u.t, mw.WriteField(k, v))
	}
	for k, data := range files {
		w, err := mw.CreateFormFile(k, k+".pdf")
		require.NoError(u.t, err)
		_, err = w.Write(data)
		require.NoError(u.t, err)
	}
	require.NoError(u.t, mw.Close())
	req, err := http.NewRequestWithContext(u.t.Context(), http.MethodPost, pageURL, &body)
	require.NoError(u.t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	resp, err := u.hc.Do(req)
	require.NoError(u.t, err)
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func TestIntegrationFormLifecycle(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	client, err := signkit.NewClient(s.Config())
	require.NoError(t, err)
	fc := client.Forms
	user := endUser{t: t, hc: &http.Client{}}

	// An invalid form is refused before sending; a valid one is created as a draft.
	bad := onboarding()
	bad.Sections[0].Fields[1].Type = forms.TypeText
	_, err = fc.Create(ctx(t), bad)
	require.ErrorIs(t, err, signkit.ErrValidation)
	var verr *forms.ValidationError
	require.ErrorAs(t, err, &verr)
	assert.Zero(t, countRequests(t, s, http.MethodPost, "/collect/api/v1/forms"), "an invalid form makes no request")

	form, err := fc.Create(ctx(t), onboarding())
	require.NoError(t, err)
	require.NotEmpty(t, form.ExternalID)
	assert.Equal(t, forms.StatusDraft, form.Status)
	assert.Empty(t, form.PublicURL)
	assert.Equal(t, 1, countRequests(t, s, http.MethodPost, "/collect/api/v1/forms"))

	// Publish: the page is live.
	live, err := fc.Publish(ctx(t), form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, forms.StatusActive, live.Status)
	require.NotEmpty(t, live.PublicURL)
	status, page := user.open(live.PublicURL)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, `name="email"`)

	live = updateAndRepublish(t, fc, user, live)
	submitThroughPrefilledLink(t, fc, user, live)
	readSubmissions(t, fc, live)

	// Archive: existing submissions stay, new ones are refused.
	archived, err := fc.Archive(ctx(t), form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, forms.StatusArchived, archived.Status)
	status, _ = user.submit(live.PublicURL, map[string]string{"name": "Late", "email": "late@example.com", "kind": "person"}, nil)
	assert.GreaterOrEqual(t, status, 400, "a submission after archiving is refused")
	assert.Less(t, status, 500)
	subs, err := fc.ListSubmissions(ctx(t), form.ExternalID, nil)
	require.NoError(t, err)
	assert.Len(t, subs, 1)
}

// updateAndRepublish adds a field: a new draft version, while the live
// version keeps serving until it is published.
func updateAndRepublish(t *testing.T, fc *forms.Client, user endUser, live *forms.Form) *forms.Form {
	t.Helper()
	form := live
	v2 := onboarding()
	v2.Sections[0].Fields = append(v2.Sections[0].Fields, forms.Field{Name: "phone", Label: "Phone", Type: forms.TypePhone})
	draft, err := fc.Update(ctx(t), form.ExternalID, v2)
	require.NoError(t, err)
	assert.Greater(t, draft.Version, live.Version)
	got, err := fc.Get(ctx(t), form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, forms.StatusActive, got.Status)
	assert.Equal(t, live.Version, got.Version)
	_, page := user.open(live.PublicURL)
	assert.NotContains(t, page, `name="phone"`, "the live version still serves")

	// Publish again: the new version is live.
	live, err = fc.Publish(ctx(t), form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, draft.Version, live.Version)
	_, page = user.open(live.PublicURL)
	assert.Contains(t, page, `name="phone"`)
	return live
}

// submitThroughPrefilledLink prefills the email, locked, and submits as a
// company with a file; a changed locked value is refused.
func submitThroughPrefilledLink(t *testing.T, fc *forms.Client, user endUser, form *forms.Form) {
	t.Helper()
	_, err := fc.CreateRequestFor(ctx(t), form, &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{"mail": {Value: "x"}}})
	require.ErrorIs(t, err, signkit.ErrValidation, "a key that is no field name is refused before sending")

	link, err := fc.CreateRequestFor(ctx(t), form, &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{
		"email": {Value: "ada@example.com", Editable: false},
		"name":  {Value: "Ada", Editable: true},
	}})
	require.NoError(t, err)
	require.NotEmpty(t, link.RequestURL)
	status, page := user.open(link.RequestURL)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "ada@example.com")
	assert.Contains(t, page, "readonly")

	values := map[string]string{"name": "Ada Lovelace", "email": "eve@example.com", "kind": "company", "phone": "+45 1234 5678"}
	pdf := []byte("%PDF-1.4 registration certificate")
	status, body := user.submit(link.RequestURL, values, map[string][]byte{"registration": pdf})
	assert.Equal(t, http.StatusUnprocessableEntity, status, "a locked field cannot be changed: %v", body)
	assert.Contains(t, mustJSON(t, body["details"]), `"field":"email"`)

	values["email"] = "ada@example.com"
	status, body = user.submit(link.RequestURL, values, map[string][]byte{"registration": pdf})
	require.Equal(t, http.StatusCreated, status, "%v", body)
	assert.NotZero(t, body["submissionId"])
	assert.NotZero(t, body["casefileId"])
}

// readSubmissions lists the one submission and reads its answers and file.
func readSubmissions(t *testing.T, fc *forms.Client, form *forms.Form) {
	t.Helper()
	subs, err := fc.ListSubmissions(ctx(t), form.ExternalID, &forms.ListOptions{Limit: 10})
	require.NoError(t, err)
	require.Len(t, subs, 1)
	sub := subs[0]
	assert.NotZero(t, sub.CaseFileID)
	assert.Equal(t, form.Version, sub.FormVersion)
	assert.False(t, sub.CompletedAt.IsZero())
	var all []forms.Submission
	for s, err := range fc.AllSubmissions(ctx(t), form.ExternalID, nil) {
		require.NoError(t, err)
		all = append(all, s)
	}
	assert.Equal(t, subs, all)

	answers, err := fc.Answers(ctx(t), form.ExternalID, sub.SubmissionID)
	require.NoError(t, err)
	assert.Equal(t, form.ExternalID, answers.ExternalID)
	for name, want := range map[string]string{"name": "Ada Lovelace", "email": "ada@example.com", "kind": "company"} {
		a, ok := answers.Get(name)
		require.True(t, ok, name)
		assert.Equal(t, want, a.String(), name)
	}

	files, err := fc.Files(ctx(t), sub.CaseFileID)
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, "registration.pdf", files[0].Filename)
	var buf bytes.Buffer
	n, err := fc.DownloadFile(ctx(t), files[0], &buf)
	require.NoError(t, err)
	assert.Equal(t, files[0].Size, n)
	assert.True(t, strings.HasPrefix(buf.String(), "%PDF-1.4 registration"))
}

// countRequests counts the requests of the mock's journal with method and path.
func countRequests(t *testing.T, s *mockserver.Server, method, path string) int {
	t.Helper()
	resp, err := http.Get(s.URL() + "/mock/requests")
	require.NoError(t, err)
	defer resp.Body.Close()
	var journal struct {
		Items []struct{ Method, Path string }
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&journal))
	n := 0
	for _, r := range journal.Items {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}
