package forms_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/forms"
)

func TestAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, `/v1/forms/f1/submissions/7/answers`, 200, `{"submissionId":7,"formId":"f1","version":2,
		"sections":[{"slug":"you","title":"You","answers":[
			{"name":"name","label":"Name","type":"TEXT","value":"Ada"},
			{"name":"age","type":"NUMBER","value":36},
			{"name":"born","type":"DATE","value":"1815-12-10"},
			{"name":"agree","type":"TEXT","value":true},
			{"name":"tags","type":"CHOICE","value":["a","b"]},
			{"name":"empty","type":"TEXT","value":null}]}]}`)
	a, err := e.Client.Forms.Answers(ctx(t), "f1", 7)
	require.NoError(t, err)
	assert.Equal(t, formsURL+"/v1/forms/f1/submissions/7/answers", rec.last().URL)
	assert.Equal(t, int64(7), a.SubmissionID)
	assert.Equal(t, "f1", a.ExternalID, "formId is accepted")
	assert.Equal(t, 2, a.Version)

	name, ok := a.Get("name")
	require.True(t, ok)
	assert.Equal(t, forms.Answer{Name: "name", Label: "Name", Type: forms.TypeText, Value: "Ada"}, name)
	assert.Equal(t, "Ada", name.String())

	age, _ := a.Get("age")
	n, err := age.Int()
	require.NoError(t, err)
	assert.Equal(t, int64(36), n)
	f, err := age.Float()
	require.NoError(t, err)
	assert.Equal(t, 36.0, f)

	born, _ := a.Get("born")
	d, err := born.Time()
	require.NoError(t, err)
	assert.Equal(t, time.Date(1815, 12, 10, 0, 0, 0, 0, time.UTC), d)

	agree, _ := a.Get("agree")
	b, err := agree.Bool()
	require.NoError(t, err)
	assert.True(t, b)

	tags, _ := a.Get("tags")
	assert.Equal(t, []string{"a", "b"}, tags.Values)
	assert.Equal(t, "a, b", tags.String())

	empty, ok := a.Get("empty")
	require.True(t, ok)
	assert.True(t, empty.IsEmpty())

	_, ok = a.Get("missing")
	assert.False(t, ok)
	assert.Equal(t, "Ada", a.Map()["name"])
}

func TestAnswerAccessorErrors(t *testing.T) {
	t.Parallel()
	a := forms.Answer{Name: "x", Value: "maybe"}
	_, err := a.Int()
	require.ErrorContains(t, err, `answer "x" as an integer`)
	_, err = a.Float()
	require.Error(t, err)
	_, err = a.Bool()
	require.ErrorContains(t, err, `"maybe" is not yes or no`)
	_, err = a.Time()
	require.Error(t, err)
	for v, want := range map[string]bool{"on": true, "YES": true, "1": true, "off": false, "": false, "False": false} {
		got, err := forms.Answer{Value: v}.Bool()
		require.NoError(t, err)
		assert.Equal(t, want, got, v)
	}
	ts, err := forms.Answer{Value: "2026-01-02T03:04:05+01:00"}.Time()
	require.NoError(t, err)
	assert.True(t, ts.Equal(time.Date(2026, 1, 2, 2, 4, 5, 0, time.UTC)))
	var nilAnswers *forms.Answers
	_, ok := nilAnswers.Get("x")
	assert.False(t, ok)
}

func TestFiles(t *testing.T) {
	t.Parallel()
	want := []forms.File{{Filename: "id.pdf", Size: 3, ContentType: "application/pdf", URL: formsURL + "/v1/files/abc"}}
	for _, body := range []string{filesJSON, `{"items":` + filesJSON + `}`} {
		e := newEnv(t)
		rec := e.reply(http.MethodGet, `/v1/casefiles/9/files`, 200, body)
		got, err := e.Client.Forms.Files(ctx(t), 9)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		assert.Equal(t, formsURL+"/v1/casefiles/9/files", rec.last().URL)
	}
}

func TestDownloadFileStreams(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	content := bytes.Repeat([]byte("0123456789"), 100_000)
	rec := e.handle(http.MethodGet, `/v1/files/abc`, func(*http.Request, int) (*http.Response, error) {
		r := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/pdf"}},
			Body: readCloser{bytes.NewReader(content)}, ContentLength: int64(len(content))}
		return r, nil
	})
	var buf bytes.Buffer
	n, err := e.Client.Forms.DownloadFile(ctx(t), forms.File{Filename: "id.pdf", URL: formsURL + "/v1/files/abc"}, &buf)
	require.NoError(t, err)
	assert.Equal(t, int64(len(content)), n)
	assert.True(t, bytes.Equal(content, buf.Bytes()))
	assert.Equal(t, "Bearer tok-1", rec.last().Auth)
	assert.Equal(t, "*/*", rec.last().Accept)

	// A relative URL is resolved against the forms endpoint.
	_, err = e.Client.Forms.DownloadFile(ctx(t), forms.File{URL: "/base/collect/api/v1/files/abc"}, &buf)
	require.NoError(t, err)
	assert.Equal(t, formsURL+"/v1/files/abc", rec.last().URL)
}

func TestDownloadFileRefusesForeignURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"",
		"ftp://platform.test/base/collect/api/v1/files/abc",
		"file:///etc/passwd",
		"https://evil.test/collect/api/v1/files/abc",
		"https://platform.test:8443/v1/files/abc",
		"http://platform.test/base/collect/api/v1/files/abc",
		"//evil.test/x",
	} {
		e := newEnv(t) // fails the test on any request
		n, err := e.Client.Forms.DownloadFile(ctx(t), forms.File{URL: u}, &bytes.Buffer{})
		require.ErrorIs(t, err, forms.ErrFileURL, u)
		assert.Zero(t, n)
		assert.Zero(t, e.Tokens.Load())
	}
	e := newEnv(t)
	e.reply(http.MethodGet, `/v1/files/abc`, 200, "x")
	_, err := e.Client.Forms.DownloadFile(ctx(t), forms.File{URL: "HTTPS://PLATFORM.TEST:443/base/collect/api/v1/files/abc"}, &bytes.Buffer{})
	require.NoError(t, err, "the same host, spelled differently")
}

func TestDownloadFileReportsAFailingWriter(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, `/v1/files/abc`, 200, strings.Repeat("x", 10))
	_, err := e.Client.Forms.DownloadFile(ctx(t), forms.File{URL: formsURL + "/v1/files/abc"}, failingWriter{})
	require.ErrorIs(t, err, errDiskFull)
}

func TestFormJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := wantActiveForm()
	b, err := json.Marshal(in)
	require.NoError(t, err)
	var out forms.Form
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, in, &out)
	require.NoError(t, json.Unmarshal([]byte(`{"formId":42,"sections":[]}`), &out))
	assert.Equal(t, "42", out.ExternalID, "a numeric formId")
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

var errDiskFull = errors.New("disk full")

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }
