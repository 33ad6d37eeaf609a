package testkit

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// APIError is the platform's JSON error body, as a client decodes it
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids).
type APIError struct {
	StatusCode int          `json:"statusCode"`
	Error      string       `json:"error"`
	Message    string       `json:"message"`
	Details    []FieldError `json:"details"`
}

// FieldError is one problem of a request in an APIError, named by the
// field it concerns.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ValidAnswers is a complete submission of SampleForm with a company: the
// public page's inputs by field name.
func ValidAnswers() map[string]string {
	return map[string]string{"fullName": "Ann Smith", "email": "ann@example.com", "phone": "+45 12345678",
		"hasCompany": "yes", "vat": "12345678", "companyName": "Ann ApS", "founded": "2020-01-31"}
}

// EditedForm answers a fresh copy of SampleForm with edit applied.
func EditedForm(edit func(m map[string]any)) map[string]any {
	return Edited(SampleForm(), edit)
}

// Edited deep-copies the form definition m through JSON and applies edit
// to the copy; m is left as it was.
func Edited(m map[string]any, edit func(m map[string]any)) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	edit(out)
	return out
}

// FieldOf reaches sections[si].fields[fi] of a decoded form definition.
func FieldOf(m map[string]any, si, fi int) map[string]any {
	return m["sections"].([]any)[si].(map[string]any)["fields"].([]any)[fi].(map[string]any)
}

// GetForm answers the raw GET answer of a form, failing the test unless
// the answer is 200.
func GetForm(t testing.TB, s Server, tok, id string) string {
	t.Helper()
	st, b := Call(t, s, "GET", "/collect/api/v1/forms/"+id, tok, nil, nil)
	if st != http.StatusOK {
		t.Fatalf("get form: %d %s", st, b)
	}
	return string(b)
}

// PublicPath is the path of a form's public page (its public URL without
// the mock's default base URL).
func PublicPath(f FormView) string { return strings.TrimPrefix(f.PublicURL, "http://signkit.mock") }

// PublicBody encodes the inputs of a public page as multipart/form-data,
// in order (a name may repeat, as "<field>[]" does), and the files by field
// name as {filename, content}. It answers the body and its Content-Type.
func PublicBody(t testing.TB, in [][2]string, files map[string][2]string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range in {
		if err := mw.WriteField(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	for k, f := range files {
		w, err := mw.CreateFormFile(k, f[0])
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(f[1]))
	}
	_ = mw.Close()
	return &buf, mw.FormDataContentType()
}

// PostPublic posts a submission of values (by input name) and files to a
// public page path, as PostPublicPairs does.
func PostPublic(t testing.TB, s Server, path string, values map[string]string, files map[string][2]string, jsonAccept bool, out any) (int, []byte) {
	t.Helper()
	in := make([][2]string, 0, len(values))
	for k, v := range values {
		in = append(in, [2]string{k, v})
	}
	return PostPublicPairs(t, s, path, in, files, jsonAccept, out)
}

// PostPublicPairs posts a submission to a public page path, as PublicBody
// encodes it, asking for JSON when jsonAccept is set (else the page's HTML
// answer); it decodes a JSON answer into out (when not nil) and answers
// the status and the raw body.
func PostPublicPairs(t testing.TB, s Server, path string, in [][2]string, files map[string][2]string, jsonAccept bool, out any) (int, []byte) {
	t.Helper()
	body, ct := PublicBody(t, in, files)
	req, err := http.NewRequest("POST", s.URL()+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if jsonAccept {
		req.Header.Set("Accept", "application/json")
	}
	return Do(t, s, req, out)
}
