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
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// builderForm is a form as the vendor's web form builder makes it: field types
// this package does not name (a personal id, a business id) and members it does
// not model at the form, section and field level
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
const builderForm = `{"name":"Know your customer","language":"en","storageFolderId":42,
 "sections":[{"slug":"identity","title":"Identity","columns":2,"fields":[
  {"name":"full_name","label":"Full name","type":"TEXT","required":true,"mapTo":"primarySigner.name"},
  {"name":"email","label":"Email","type":"EMAIL","required":true,"mapTo":"primarySigner.email"},
  {"name":"cpr","label":"CPR number","type":"NIN","required":true,"mask":"######-####"},
  {"name":"cvr","label":"CVR number","type":"BUSINESS_ID","country":"DK"}]}]}`

// rawForms talks to the mock's forms service as the vendor's builder does:
// raw JSON with a token, no SDK type in between.
type rawForms struct {
	t     *testing.T
	base  string // the forms service, {Forms}
	token string
}

func newRawForms(t *testing.T, cfg signkit.Config) rawForms {
	t.Helper()
	tok, err := auth.NewTokenSource(cfg.Endpoints.Auth, cfg.Credentials).Token(t.Context())
	require.NoError(t, err)
	return rawForms{t: t, base: cfg.Endpoints.Forms, token: tok.AccessToken}
}

// do sends body (nil: none) and answers the status and the body.
func (r rawForms) do(method, path string, body []byte) (int, []byte) {
	r.t.Helper()
	req, err := http.NewRequestWithContext(r.t.Context(), method, r.base+path, bytes.NewReader(body))
	require.NoError(r.t, err)
	req.Header.Set("Authorization", "Bearer "+r.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(r.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(r.t, err)
	return resp.StatusCode, b
}

// TestIntegrationFormBuiltElsewhereSurvives: a form made by the vendor's
// builder, with field types and members this package does not know, goes
// through Get → Update losing nothing, is answered on its public page, and
// its answers read as text with their type.
func TestIntegrationFormBuiltElsewhereSurvives(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	client, err := signkit.NewClient(s.Config())
	require.NoError(t, err)
	fc, raw := client.Forms, newRawForms(t, s.Config())

	st, b := raw.do(http.MethodPost, "/v1/forms", []byte(builderForm))
	require.Equal(t, http.StatusCreated, st, "%s", b)
	var created struct {
		FormID string `json:"formId"`
	}
	require.NoError(t, json.Unmarshal(b, &created))
	id := created.FormID

	got, err := fc.Get(ctx(t), id)
	require.NoError(t, err)
	assert.Equal(t, map[string]json.RawMessage{"storageFolderId": json.RawMessage(`42`)}, got.Extra)
	cpr := &got.Sections[0].Fields[2]
	assert.Equal(t, forms.FieldType("NIN"), cpr.Type)
	assert.False(t, cpr.Type.IsKnown())
	assert.Equal(t, json.RawMessage(`"######-####"`), cpr.Extra["mask"])

	cpr.Label = "Personal id (CPR)"
	_, err = fc.Update(ctx(t), id, got)
	require.NoError(t, err, "an unknown type passes Validate and the mock")

	st, b = raw.do(http.MethodGet, "/v1/forms/"+id, nil)
	require.Equal(t, http.StatusOK, st, "%s", b)
	want := strings.Replace(builderForm, `"label":"CPR number"`, `"label":"Personal id (CPR)"`, 1)
	assert.Equal(t, definitionOf(t, []byte(want)), definitionOf(t, b), "nothing lost: %s", b)

	live, err := fc.Publish(ctx(t), id)
	require.NoError(t, err)
	page := openPage(t, live.PublicURL)
	for _, name := range []string{"cpr", "cvr"} {
		assert.Regexp(t, `<input [^>]*type="text" name="`+name+`"`, page, "an unknown type is a text input")
	}

	// The page's own form, posted as a browser does (no JSON asked for)…
	status, html := postPage(t, live.PublicURL, [][2]string{{"full_name", "Ann Berg"}, {"email", "ann@example.com"},
		{"cpr", "010190-1234"}, {"cvr", "DK12345678"}})
	require.Equal(t, http.StatusCreated, status, html)
	// …and by a client asking for JSON.
	status, body := submitMultipart(t, live.PublicURL, [][2]string{{"full_name", "Bo Holm"}, {"email", "bo@example.com"},
		{"cpr", "020280-5678"}})
	require.Equal(t, http.StatusCreated, status, "%v", body)

	for i, want := range []string{"010190-1234", "020280-5678"} {
		answers, err := fc.Answers(ctx(t), id, int64(i+1))
		require.NoError(t, err)
		a, ok := answers.Get("cpr")
		require.True(t, ok, "%+v", answers)
		assert.Equal(t, forms.FieldType("NIN"), a.Type)
		assert.Equal(t, want, a.Value)
		assert.Equal(t, want, a.String())
	}
}

// definitionOf answers a form's JSON without what the service sets and
// without the empty members it gives back where none were sent, so that
// the definition sent and the one given back compare.
func definitionOf(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	for _, k := range []string{"formId", "externalId", "status", "version", "draftVersion", "publicUrl"} {
		delete(m, k)
	}
	dropEmpty(m)
	for _, sec := range m["sections"].([]any) {
		dropEmpty(sec.(map[string]any))
		for _, f := range sec.(map[string]any)["fields"].([]any) {
			dropEmpty(f.(map[string]any))
		}
	}
	return m
}

// dropEmpty deletes the members of m that are "" or false.
func dropEmpty(m map[string]any) {
	for k, v := range m {
		if v == "" || v == false {
			delete(m, k)
		}
	}
}

// openPage answers the HTML of a public page.
func openPage(t *testing.T, url string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	return string(b)
}

// postPage posts inputs as multipart/form-data to a public page as a
// browser's form post does (asking for HTML) and answers the status and the
// body.
func postPage(t *testing.T, url string, inputs [][2]string) (int, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, in := range inputs {
		require.NoError(t, mw.WriteField(in[0], in[1]))
	}
	require.NoError(t, mw.Close())
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, &buf)
	require.NoError(t, err)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}
