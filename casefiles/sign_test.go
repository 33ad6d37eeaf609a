package casefiles_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/casefiles"
)

func TestGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, `/api/v1/casefiles/42`, 200, `{"id":42,"title":"Contract","status":1,
		"userId":3,"customerId":1,"created":1767225600,"activated":1767225601,"updated":1767225602,
		"signers":[
			{"id":7,"name":"Ada","role":"employee","signOrder":0,"signingRequest":{"id":70,"status":4,"email":"ada@example.com"}},
			{"id":8,"name":"Bob","role":"employer","signOrder":1,"signingRequest":{"id":80,"status":0,"email":""}},
			{"id":9,"name":"Eve","email":"eve@example.com","status":5}],
		"documents":[
			{"id":11,"documentId":"DOC-11","title":"Contract","signable":true,"status":1,"fileSize":1234,"format":"pdf"},
			{"id":12,"documentId":"DOC-12","title":"Terms","signable":0,"fileSize":99},
			{"id":13,"documentId":"DOC-13","title":"Annex"}]}`)
	got, err := e.Client.CaseFiles.Get(ctx(t), 42)
	require.NoError(t, err)
	assert.Equal(t, &casefiles.Details{
		ID: 42, Title: "Contract", Status: casefiles.CaseFilePending,
		Signers: []casefiles.SignerDetails{
			{ID: 7, Name: "Ada", Role: "employee", Email: "ada@example.com", SignOrder: 0, Status: casefiles.SignerSigned},
			{ID: 8, Name: "Bob", Role: "employer", SignOrder: 1, Status: casefiles.SignerNew},
			{ID: 9, Name: "Eve", Email: "eve@example.com", Status: casefiles.SignerUndeliverable},
		},
		Documents: []casefiles.DocumentDetails{
			{ID: 11, DocumentID: "DOC-11", Title: "Contract", Signable: true, FileSize: 1234},
			{ID: 12, DocumentID: "DOC-12", Title: "Terms", Signable: false, FileSize: 99},
			{ID: 13, DocumentID: "DOC-13", Title: "Annex", Signable: true},
		},
	}, got)
	r := rec.last()
	assert.Equal(t, "Bearer tok-1", r.Auth)
	assert.Equal(t, "application/json", r.Accept)
}

func TestGetRejectsBadSignable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.reply(http.MethodGet, signURL, `/api/v1/casefiles/42`, 200, `{"id":42,"documents":[{"id":1,"signable":"maybe"}]}`)
	_, err := e.Client.CaseFiles.Get(ctx(t), 42)
	require.ErrorContains(t, err, "is not a boolean")
}

func TestDownloadDocument(t *testing.T) {
	t.Parallel()
	pdf := []byte("%PDF-1.7\nsigned\n%%EOF\n")
	for name, tc := range map[string]struct {
		opts      []casefiles.DocumentOption
		wantQuery string
	}{
		"signed":   {nil, ""},
		"original": {[]casefiles.DocumentOption{casefiles.Original()}, "?signed=false"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			rec := e.handle(http.MethodGet, signURL, `/api/v3/documents/DOC%2F9/content`, func(*http.Request, int) (*http.Response, error) {
				r := jsonResponse(200, string(pdf))
				r.Header.Set("Content-Type", "application/pdf")
				return r, nil
			})
			var buf bytes.Buffer
			n, err := e.Client.CaseFiles.DownloadDocument(ctx(t), "DOC/9", &buf, tc.opts...)
			require.NoError(t, err)
			assert.Equal(t, int64(len(pdf)), n)
			assert.Equal(t, pdf, buf.Bytes())
			r := rec.last()
			assert.Equal(t, signURL+"/api/v3/documents/DOC%2F9/content"+tc.wantQuery, r.URL, "the id is one escaped segment")
			assert.Equal(t, "application/pdf", r.Accept)
			assert.Equal(t, "Bearer tok-1", r.Auth)
		})
	}
}

func TestDocumentContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rec := e.reply(http.MethodGet, signURL, `/api/v3/documents/DOC-9/content`, 200, `{"content":"JVBERi0xLjcK","signed":false}`)
	got, err := e.Client.CaseFiles.DocumentContent(ctx(t), "DOC-9", casefiles.Original())
	require.NoError(t, err)
	assert.Equal(t, &casefiles.DocumentContent{Content: []byte("%PDF-1.7\n"), Signed: false}, got)
	r := rec.last()
	assert.Equal(t, "application/json", r.Accept)
	assert.Equal(t, signURL+"/api/v3/documents/DOC-9/content?signed=false", r.URL)

	e.reply(http.MethodGet, signURL, `/api/v3/documents/DOC-8/content`, 200, `{"content":"JVBERi0xLjcK","signed":true}`)
	got, err = e.Client.CaseFiles.DocumentContent(ctx(t), "DOC-8")
	require.NoError(t, err)
	assert.True(t, got.Signed)
}

func TestStatusStrings(t *testing.T) {
	t.Parallel()
	var cs []string
	for s := casefiles.CaseFileNew; s <= casefiles.CaseFileExpired+1; s++ {
		cs = append(cs, s.String())
	}
	assert.Equal(t, []string{"new", "pending", "rejected", "deleted", "signed", "completed", "failed", "expired", "CaseFileStatus(8)"}, cs)
	var ss []string
	for s := casefiles.SignerNew; s <= casefiles.SignerUndeliverable+1; s++ {
		ss = append(ss, s.String())
	}
	assert.Equal(t, []string{"new", "pending", "rejected", "deleted", "signed", "undeliverable", "SignerStatus(6)"}, ss)
	assert.Equal(t, "CaseFileStatus(-1)", casefiles.CaseFileStatus(-1).String())
}
