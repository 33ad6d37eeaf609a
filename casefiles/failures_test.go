package casefiles_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

// apiCall is one call of the casefiles client, as the failure paths see it.
type apiCall struct {
	name   string
	method string
	base   string // sendURL or signURL
	path   string // regexp of the path after base
	auth   string // the header that carries the token: "X-Auth-Token", "Authorization" or "" (none)
	status int    // success status
	body   string // success body
	stream bool   // the answer is streamed, not decoded
	// attemptsOn500 is how many requests a 500 gets: 1 for every POST (it
	// may have had an effect) and a single call; Wait tolerates 3 transient
	// failures of its status checks in a row and gives up on the fourth.
	attemptsOn500 int
	do            func(ctx context.Context, c *signkit.Client) error
}

const (
	createJSON    = `{"uuid":"u-1","payloadHash":"abc123","status":"handled","message":"Job created","jobs":[{"uuid":"u-1","payloadHash":"abc123","createdAt":"2026-01-01T00:00:00Z"}]}`
	completedJSON = `{"uuid":"u-1","type":"casefile_creation","jobStatus":"completed","result":{"data":{"caseFile":{"id":42},
		"signingLinks":[{"name":"Ada","role":"employee","email":"ada@example.com","signingLink":"https://sign.test/s/1"}]}}}`
	caseFileJSON = `{"id":42,"title":"Contract","status":5,"signers":[{"id":7,"name":"Ada","role":"employee","signOrder":0,
		"signingRequest":{"id":70,"status":4,"email":"ada@example.com"}}],
		"documents":[{"id":9,"documentId":"DOC-9","title":"Contract","signable":true,"status":5,"fileSize":1234,"format":"pdf"}]}`
	contentJSON = `{"content":"JVBERi0xLjcK","signed":true}`
)

var job = &casefiles.Job{UUID: "u-1", PayloadHash: "abc123"}

func validCaseFile() (*casefiles.CaseFile, []casefiles.Upload) {
	return &casefiles.CaseFile{
		Title:     "Contract",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com", Role: "employee"}},
		Documents: []casefiles.Document{{Name: "contract.pdf", Title: "Contract"}},
	}, []casefiles.Upload{casefiles.BytesUpload("contract.pdf", []byte("%PDF-1.7\n"))}
}

// allCalls lists every call of the casefiles client.
func allCalls() []apiCall {
	return []apiCall{
		{"Create", http.MethodPost, sendURL, createPath, "X-Auth-Token", 201, createJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				cf, up := validCaseFile()
				_, err := c.CaseFiles.Create(ctx, cf, up...)
				return err
			}},
		{"Status", http.MethodPost, sendURL, statusPath, "", 200, completedJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Status(ctx, job)
				return err
			}},
		{"Wait", http.MethodPost, sendURL, statusPath, "", 200, completedJSON, false, 4,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Wait(ctx, job)
				return err
			}},
		{"Get", http.MethodGet, signURL, `/api/v1/casefiles/42`, "Authorization", 200, caseFileJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Get(ctx, 42)
				return err
			}},
		{"DownloadDocument", http.MethodGet, signURL, `/api/v3/documents/DOC-9/content`, "Authorization", 200, "%PDF-1.7", true, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.DownloadDocument(ctx, "DOC-9", io.Discard)
				return err
			}},
		{"DocumentContent", http.MethodGet, signURL, `/api/v3/documents/DOC-9/content`, "Authorization", 200, contentJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.DocumentContent(ctx, "DOC-9", casefiles.Original())
				return err
			}},
	}
}

func TestFailurePaths(t *testing.T) {
	t.Parallel()
	for _, c := range allCalls() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			runFailurePaths(t, c)
		})
	}
}

// inBubble runs fn in a synctest bubble, so that Wait's pauses take no
// real time.
func inBubble(t *testing.T, fn func(t *testing.T)) {
	synctest.Test(t, fn)
}

// runFailurePaths runs the failure paths of one call: a 401 answered by
// renewing the token once (or returned, for the token-less status check),
// 404, 422 with details, 500, a malformed answer and a cancelled context.
func runFailurePaths(t *testing.T, c apiCall) {
	t.Run("401", func(t *testing.T) { inBubble(t, func(t *testing.T) { check401(t, c) }) })
	t.Run("404", func(t *testing.T) {
		e := newEnv(t)
		e.reply(c.method, c.base, c.path, 404, `{"statusCode":404,"error":"not_found","message":"no such thing"}`)
		err := c.do(ctx(t), e.client)
		require.ErrorIs(t, err, signkit.ErrNotFound)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "no such thing", apiErr.Message)
	})
	t.Run("422 with details", func(t *testing.T) {
		e := newEnv(t)
		e.reply(c.method, c.base, c.path, 422, `{"statusCode":422,"error":"validation_failed","message":"invalid",
			"details":[{"field":"documents[0].name","message":"matches no file"}]}`)
		err := c.do(ctx(t), e.client)
		require.ErrorIs(t, err, signkit.ErrValidation)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 422, apiErr.StatusCode)
		assert.Equal(t, "validation_failed", apiErr.Code)
		assert.Equal(t, []signkit.FieldError{{Field: "documents[0].name", Message: "matches no file"}}, apiErr.Details)
	})
	t.Run("500", func(t *testing.T) {
		inBubble(t, func(t *testing.T) {
			e := newEnv(t, 0) // the default retry policy
			rec := e.reply(c.method, c.base, c.path, 500, `{"statusCode":500,"error":"internal","message":"boom"}`)
			err := c.do(t.Context(), e.client)
			var apiErr *signkit.Error
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 500, apiErr.StatusCode)
			assert.Equal(t, c.attemptsOn500, rec.count(), "a POST that may have had an effect is not retried")
		})
	})
	if !c.stream {
		t.Run("malformed JSON", func(t *testing.T) {
			e := newEnv(t)
			rec := e.reply(c.method, c.base, c.path, c.status, `{not json`)
			err := c.do(ctx(t), e.client)
			var syntaxErr *json.SyntaxError
			require.ErrorAs(t, err, &syntaxErr)
			var apiErr *signkit.Error
			assert.False(t, errors.As(err, &apiErr), "a decode error is not an API error")
			assert.Equal(t, 1, rec.count())
		})
	}
	t.Run("cancelled context", func(t *testing.T) {
		e := newEnv(t)
		rec := e.reply(c.method, c.base, c.path, c.status, c.body)
		cctx, cancel := context.WithCancel(ctx(t))
		cancel()
		require.ErrorIs(t, c.do(cctx, e.client), context.Canceled)
		assert.Equal(t, 0, rec.count())
	})
}

// check401: a call with a token renews it once after a 401 and succeeds;
// the status check, which sends no token, returns the 401.
func check401(t *testing.T, c apiCall) {
	e := newEnv(t)
	rec := e.handle(c.method, c.base, c.path, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 1 {
			return jsonResponse(401, `{"statusCode":401,"error":"unauthorized","message":"token expired"}`), nil
		}
		return jsonResponse(c.status, c.body), nil
	})
	err := c.do(t.Context(), e.client)
	if c.auth == "" {
		require.ErrorIs(t, err, signkit.ErrUnauthorized)
		assert.Equal(t, 1, rec.count())
		assert.Equal(t, int32(0), e.tokens.Load(), "the status check needs no token")
		assert.Empty(t, rec.last().Auth+rec.last().XAuthToken)
		return
	}
	require.NoError(t, err)
	assert.Equal(t, 2, rec.count())
	assert.Equal(t, int32(2), e.tokens.Load(), "token requests")
	last := rec.last()
	switch c.auth {
	case "X-Auth-Token":
		assert.Equal(t, "tok-2", last.XAuthToken)
		assert.Empty(t, last.Auth)
	default:
		assert.Equal(t, "Bearer tok-2", last.Auth)
		assert.Empty(t, last.XAuthToken)
	}
}
