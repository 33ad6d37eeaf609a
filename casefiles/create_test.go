package casefiles_test

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	skmultipart "github.com/signkit/signkit-go/internal/multipart"
)

// part is one parsed part of a multipart body.
type part struct {
	FormName, FileName, ContentType string
	Content                         []byte
}

// parseMultipart parses a multipart/form-data body with mime/multipart.
func parseMultipart(t *testing.T, contentType string, body []byte) []part {
	t.Helper()
	mt, params, err := mime.ParseMediaType(contentType)
	require.NoError(t, err)
	require.Equal(t, "multipart/form-data", mt)
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	var parts []part
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts
		}
		require.NoError(t, err)
		content, err := io.ReadAll(p)
		require.NoError(t, err)
		parts = append(parts, part{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), content})
	}
}

// countingUpload wraps u so that opens are counted.
func countingUpload(u casefiles.Upload, opens *atomic.Int32) casefiles.Upload {
	open := u.Open
	u.Open = func() (io.ReadCloser, error) { opens.Add(1); return open() }
	return u
}

func threeDocCaseFile() (*casefiles.CaseFile, []casefiles.Upload) {
	cf := &casefiles.CaseFile{
		Title: "Employment",
		Signers: []casefiles.Signer{
			{Name: "Ada", Email: "ada@example.com", Role: "employee", EmailSubject: "Please sign", ReminderInterval: 2},
			{Name: "Bob", Role: "employer", SignOrder: 1, CompletedEmailText: "All done"},
		},
		Documents: []casefiles.Document{
			{Name: "contract.pdf", Title: "Contract", Roles: []string{"employee", "employer"}},
			{Name: "terms.pdf", Title: "Terms", Signable: signkit.Ptr(false)},
		},
	}
	return cf, []casefiles.Upload{
		casefiles.BytesUpload("contract.pdf", []byte("%PDF-1.7 contract\r\n--not-a-boundary\r\n")),
		casefiles.BytesUpload("terms.pdf", bytes.Repeat([]byte("%PDF terms "), 5000)),
	}
}

const wantData = `{"caseFile":{"title":"Employment",
	"signers":[
		{"name":"Ada","email":"ada@example.com","role":"employee","emailSubject":"Please sign","reminderInterval":2},
		{"name":"Bob","role":"employer","signOrder":1,"completedEmailText":"All done"}],
	"documents":[
		{"name":"contract.pdf","title":"Contract","roles":["employee","employer"]},
		{"name":"terms.pdf","title":"Terms","signable":false}]}}`

func TestCreateSendsMultipart(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodPost, sendURL, createPath, 200, createJSON) // the platform answers 200
	cf, uploads := threeDocCaseFile()
	before := time.Now()
	got, err := e.Client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	assert.Equal(t, casefiles.Job{UUID: "u-1", PayloadHash: "abc123"}, casefiles.Job{UUID: got.UUID, PayloadHash: got.PayloadHash})
	assert.False(t, got.Resent, "sent once")
	assert.Equal(t, cf.Title, got.Title)
	assert.False(t, got.SentAt.Before(before), "SentAt is when the create started")

	r := rec.last()
	require.NoError(t, r.BodyErr)
	assert.Equal(t, "tok-1", r.XAuthToken)
	assert.Empty(t, r.Auth)
	assert.Equal(t, int64(len(r.Body)), r.ContentLength, "Content-Length is exactly the bytes sent")
	parts := parseMultipart(t, r.ContentType, r.Body)
	require.Len(t, parts, 3)
	assert.Equal(t, "data", parts[0].FormName)
	assert.Empty(t, parts[0].FileName, "data is a text field, not a file")
	assert.Empty(t, parts[0].ContentType, "a plain text field, as the vendor's collection sends it")
	assert.JSONEq(t, wantData, string(parts[0].Content))
	for i, u := range uploads {
		p := parts[i+1]
		assert.Equal(t, "files", p.FormName)
		assert.Equal(t, u.Name, p.FileName)
		assert.Equal(t, "application/pdf", p.ContentType)
		rc, err := u.Open()
		require.NoError(t, err)
		want, _ := io.ReadAll(rc)
		assert.Equal(t, want, p.Content)
	}
}

func TestCreateAnswerShapes(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		body string
		want *casefiles.Job
	}{
		"top level":   {`{"uuid":"u-2","payloadHash":"h2"}`, &casefiles.Job{UUID: "u-2", PayloadHash: "h2"}},
		"jobs[0]":     {`{"status":"handled","jobs":[{"uuid":"u-3","payloadHash":"h3"}]}`, &casefiles.Job{UUID: "u-3", PayloadHash: "h3"}},
		"both":        {createJSON, &casefiles.Job{UUID: "u-1", PayloadHash: "abc123"}},
		"no job":      {`{"status":"handled","message":"Job created"}`, nil},
		"hash absent": {`{"uuid":"u-4"}`, nil},
	} {
		for _, status := range []int{200, 201, 202} { // any 2xx
			t.Run(fmt.Sprint(name, status), func(t *testing.T) {
				t.Parallel()
				e := newEnv(t)
				e.reply(http.MethodPost, sendURL, createPath, status, tc.body)
				cf, up := validCaseFile()
				got, err := e.Client.CaseFiles.Create(ctx(t), cf, up...)
				if tc.want == nil {
					require.ErrorContains(t, err, "no job uuid")
					return
				}
				require.NoError(t, err)
				assert.Equal(t, *tc.want, casefiles.Job{UUID: got.UUID, PayloadHash: got.PayloadHash})
			})
		}
	}
}

// After a 401 the whole upload is sent again: every file is opened again
// and the second body is complete.
func TestCreateRenewalResendsUpload(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.handle(http.MethodPost, sendURL, createPath, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 1 {
			return jsonResponse(401, `{"statusCode":401,"error":"unauthorized"}`), nil
		}
		return jsonResponse(201, createJSON), nil
	})
	cf, uploads := threeDocCaseFile()
	var opens atomic.Int32
	for i := range uploads {
		uploads[i] = countingUpload(uploads[i], &opens)
	}
	_, err := e.Client.CaseFiles.Create(ctx(t), cf, uploads...)
	require.NoError(t, err)
	assert.Equal(t, int32(4), opens.Load(), "each of 2 files opened once per attempt")
	reqs := rec.all()
	require.Len(t, reqs, 2)
	assert.Equal(t, "tok-1", reqs[0].XAuthToken)
	assert.Equal(t, "tok-2", reqs[1].XAuthToken)
	assert.Equal(t, reqs[0].Body, reqs[1].Body, "the same body (same boundary) is re-sent")
	assert.Equal(t, int64(len(reqs[1].Body)), reqs[1].ContentLength)
	assert.Len(t, parseMultipart(t, reqs[1].ContentType, reqs[1].Body), 3)
}

// A 503 (answered before any effect) is retried with a rebuilt body.
func TestCreateRetries503(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 0)
	rec := e.handle(http.MethodPost, sendURL, createPath, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 1 {
			r := jsonResponse(503, `{"statusCode":503,"error":"unavailable"}`)
			r.Header.Set("Retry-After", "0")
			return r, nil
		}
		return jsonResponse(201, createJSON), nil
	})
	cf, up := validCaseFile()
	var opens atomic.Int32
	up[0] = countingUpload(up[0], &opens)
	_, err := e.Client.CaseFiles.Create(ctx(t), cf, up...)
	require.NoError(t, err)
	assert.Equal(t, 2, rec.count())
	assert.Equal(t, int32(2), opens.Load())
	assert.Equal(t, rec.all()[0].Body, rec.all()[1].Body)
}

// realClient is a signkit client that talks to srv over a socket, with a
// token endpoint on srv's /auth/oauth/token.
func realClient(t *testing.T, srv *httptest.Server) *signkit.Client {
	t.Helper()
	c, err := signkit.NewClient(signkit.Config{
		Endpoints: signkit.LocalEndpoints(srv.URL + "/base"),
		Credentials: auth.Credentials{
			ClientID: "client", ClientSecret: "client-secret", APIKey: "key", APISecret: "api-secret",
		},
		HTTPClient: srv.Client(),
		MaxRetries: -1,
	})
	require.NoError(t, err)
	return c
}

func tokenOr(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/base/auth/oauth/token" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"access_token":"tok","token_type":"Bearer","expires_in":600}`)
			return
		}
		next(w, r)
	}
}

// Over a real connection the server receives exactly Content-Length bytes,
// which parse back into the parts.
func TestCreateOverSocket(t *testing.T) {
	t.Parallel()
	type seen struct {
		length int64
		body   []byte
		ct     string
	}
	got := make(chan seen, 1)
	srv := httptest.NewServer(tokenOr(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		assert.NoError(t, err)
		got <- seen{r.ContentLength, b, r.Header.Get("Content-Type")}
		w.WriteHeader(201)
		_, _ = io.WriteString(w, createJSON)
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "big.pdf")
	content := bytes.Repeat([]byte("%PDF-1.7 0123456789abcdef\n"), 100_000) // 2.6 MB
	require.NoError(t, os.WriteFile(path, content, 0o600))
	up, err := casefiles.FileUpload(path)
	require.NoError(t, err)
	cf := &casefiles.CaseFile{Title: "T", Signers: []casefiles.Signer{{Name: "A"}}, Documents: []casefiles.Document{{Name: "big.pdf", Title: "Big"}}}
	_, err = realClient(t, srv).CaseFiles.Create(ctx(t), cf, up)
	require.NoError(t, err)
	s := <-got
	assert.Equal(t, int64(len(s.body)), s.length)
	parts := parseMultipart(t, s.ct, s.body)
	require.Len(t, parts, 2)
	assert.Equal(t, content, parts[1].Content)
}

// A file that is shorter than its declared size fails the request; the
// server sees a truncated body, never a complete but corrupt one.
func TestCreateSizeMismatch(t *testing.T) {
	t.Parallel()
	var complete atomic.Int32
	srv := httptest.NewServer(tokenOr(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err == nil {
			complete.Add(1)
		}
		w.WriteHeader(201)
		_, _ = io.WriteString(w, createJSON)
	}))
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "shrinks.pdf")
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte("x"), 100_000), 0o600))
	up, err := casefiles.FileUpload(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, 50_000)) // changes after FileUpload took its size
	cf := &casefiles.CaseFile{Title: "T", Signers: []casefiles.Signer{{Name: "A"}}, Documents: []casefiles.Document{{Name: "shrinks.pdf", Title: "Shrinks"}}}
	_, err = realClient(t, srv).CaseFiles.Create(ctx(t), cf, up)
	require.Error(t, err)
	assert.ErrorIs(t, err, skmultipart.ErrSizeMismatch)
	srv.Close() // waits for the handler
	assert.Equal(t, int32(0), complete.Load(), "the server never read a complete body")
}

func TestFileUpload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.pdf")
	require.NoError(t, os.WriteFile(path, []byte("%PDF-abc"), 0o600))
	up, err := casefiles.FileUpload(path)
	require.NoError(t, err)
	assert.Equal(t, "a.pdf", up.Name)
	assert.Equal(t, int64(8), up.Size)
	for range 2 { // re-opens the file each time
		rc, err := up.Open()
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		assert.Equal(t, "%PDF-abc", string(b))
	}
	_, err = casefiles.FileUpload(filepath.Join(dir, "missing.pdf"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = casefiles.FileUpload(dir)
	assert.ErrorContains(t, err, "not a regular file")
}

// The platform's JobResponse allows a 2xx whose status is "error" (the
// connector's schema; the mock never answers so): Create returns the
// platform's message as a *signkit.Error, not a missing uuid.
func TestCreateStatusErrorCarriesThePlatformsMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, message string
		status              int
	}{
		{"200 with a message", `{"status":"error","message":"Folder 7 is not yours"}`, "Folder 7 is not yours", 200},
		{"201 with jobs beside", `{"status":"error","message":"Quota exceeded","jobs":[]}`, "Quota exceeded", 201},
		{"without a message", `{"status":"error"}`, "without a message", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(tokenOr(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				w.Header().Set("X-Penneo-Request-Id", "req-77")
				w.WriteHeader(tt.status)
				_, _ = io.WriteString(w, tt.body)
			}))
			t.Cleanup(srv.Close)
			cf := &casefiles.CaseFile{Title: "T", Signers: []casefiles.Signer{{Name: "A"}},
				Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}
			job, err := realClient(t, srv).CaseFiles.Create(ctx(t), cf, casefiles.BytesUpload("a.pdf", []byte("%PDF-1.4")))
			require.Error(t, err)
			assert.Nil(t, job)
			assert.Contains(t, err.Error(), tt.message)
			var apiErr *signkit.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.StatusCode)
			assert.Equal(t, "error", apiErr.Code)
			assert.Equal(t, "req-77", apiErr.RequestID)
			assert.Equal(t, http.MethodPost, apiErr.Method)
			assert.NotErrorIs(t, err, signkit.ErrValidation)
		})
	}
}
