package forms_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
)

// apiCall is one call of the forms client, as the failure paths see it.
type apiCall struct {
	name   string
	method string
	path   string // regexp of the path after the forms endpoint
	status int    // success status
	body   string // success body
	stream bool   // the answer is streamed, not decoded
	do     func(ctx context.Context, c *signkit.Client) error
}

const (
	formJSON        = `{"externalId":"f1","name":"Onboarding","status":"DRAFT","version":1,"sections":[]}`
	submissionsJSON = `{"items":[{"submissionId":1,"casefileId":9,"formVersion":1,"completedAt":"2026-01-02T03:04:05Z"}],"limit":10,"offset":0,"total":1}`
	answersJSON     = `{"submissionId":7,"externalId":"f1","version":1,"sections":[{"slug":"you","title":"You","answers":[{"name":"name","label":"Name","type":"TEXT","value":"Ada"}]}]}`
	filesJSON       = `[{"filename":"id.pdf","size":3,"contentType":"application/pdf","url":"` + formsURL + `/v1/files/abc"}]`
)

func validForm() *forms.Form {
	return &forms.Form{
		Name: "Onboarding",
		Sections: []forms.Section{{
			Title: "You",
			Fields: []forms.Field{
				{Name: "name", Type: forms.TypeText, MapTo: "primarySigner.name"},
				{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email"},
			},
		}},
	}
}

func drain(seq func(func(forms.Submission, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// allCalls lists every call of the forms client.
func allCalls() []apiCall {
	prefill := &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{"email": {Value: "a@example.com"}}}
	return []apiCall{
		{"Create", http.MethodPost, `/v1/forms`, 201, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Create(ctx, validForm())
			return err
		}},
		{"Get", http.MethodGet, `/v1/forms/f1`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Get(ctx, "f1")
			return err
		}},
		{"Update", http.MethodPut, `/v1/forms/f1`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Update(ctx, "f1", validForm())
			return err
		}},
		{"Publish", http.MethodPost, `/v1/forms/f1/publish`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Publish(ctx, "f1")
			return err
		}},
		{"Archive", http.MethodPost, `/v1/forms/f1/archive`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Archive(ctx, "f1")
			return err
		}},
		{"CreateRequest", http.MethodPost, `/v1/forms/f1/requests`, 201, `{"requestUrl":"https://forms.test/p/x","requestId":"r1"}`, false,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.Forms.CreateRequest(ctx, "f1", prefill)
				return err
			}},
		{"ListSubmissions", http.MethodGet, `/v1/forms/f1/submissions`, 200, submissionsJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.ListSubmissions(ctx, "f1", &forms.ListOptions{Limit: 10})
			return err
		}},
		{"AllSubmissions", http.MethodGet, `/v1/forms/f1/submissions`, 200, submissionsJSON, false, func(ctx context.Context, c *signkit.Client) error {
			return drain(c.Forms.AllSubmissions(ctx, "f1", nil))
		}},
		{"Answers", http.MethodGet, `/v1/forms/f1/submissions/7/answers`, 200, answersJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Answers(ctx, "f1", 7)
			return err
		}},
		{"Files", http.MethodGet, `/v1/casefiles/9/files`, 200, filesJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Files(ctx, 9)
			return err
		}},
		{"DownloadFile", http.MethodGet, `/v1/files/abc`, 200, "%PDF", true, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.DownloadFile(ctx, forms.File{Filename: "id.pdf", URL: formsURL + "/v1/files/abc"}, io.Discard)
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

// runFailurePaths runs the failure paths of one call: a 401 answered by
// renewing the token once, 404, 422 with details, 500, a malformed answer
// and a cancelled context.
func runFailurePaths(t *testing.T, c apiCall) {
	t.Run("401 renews the token once", func(t *testing.T) { renewsOn401(t, c) })
	t.Run("404", func(t *testing.T) {
		e := newEnv(t)
		e.reply(c.method, c.path, 404, `{"statusCode":404,"error":"not_found","message":"no such form"}`)
		err := c.do(ctx(t), e.client)
		require.ErrorIs(t, err, signkit.ErrNotFound)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "no such form", apiErr.Message)
	})
	t.Run("422 with details", func(t *testing.T) {
		e := newEnv(t)
		e.reply(c.method, c.path, 422, `{"statusCode":422,"error":"validation_failed","message":"invalid",
			"details":[{"field":"sections[0].fields[0].name","message":"is required"}]}`)
		err := c.do(ctx(t), e.client)
		require.ErrorIs(t, err, signkit.ErrValidation)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 422, apiErr.StatusCode)
		assert.Equal(t, "validation_failed", apiErr.Code)
		assert.Equal(t, []signkit.FieldError{{Field: "sections[0].fields[0].name", Message: "is required"}}, apiErr.Details)
	})
	t.Run("500", func(t *testing.T) {
		e := newEnv(t, 0) // the default retry policy
		rec := e.reply(c.method, c.path, 500, `{"statusCode":500,"error":"internal","message":"boom"}`)
		err := c.do(ctx(t), e.client)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 500, apiErr.StatusCode)
		if c.method == http.MethodPost {
			assert.Equal(t, 1, rec.count(), "a POST that may have had an effect is not retried")
		}
	})
	if !c.stream {
		t.Run("malformed JSON", func(t *testing.T) {
			e := newEnv(t)
			e.reply(c.method, c.path, c.status, `{not json`)
			err := c.do(ctx(t), e.client)
			var syntaxErr *json.SyntaxError
			require.ErrorAs(t, err, &syntaxErr)
			var apiErr *signkit.Error
			assert.False(t, errors.As(err, &apiErr), "a decode error is not an API error")
		})
	}
	t.Run("cancelled context", func(t *testing.T) {
		e := newEnv(t)
		rec := e.reply(c.method, c.path, c.status, c.body)
		cctx, cancel := context.WithCancel(ctx(t))
		cancel()
		require.ErrorIs(t, c.do(cctx, e.client), context.Canceled)
		assert.Equal(t, 0, rec.count())
	})
}

// renewsOn401 answers the first attempt 401 and checks that the call
// succeeds with a second token.
func renewsOn401(t *testing.T, c apiCall) {
	e := newEnv(t)
	rec := e.handle(c.method, c.path, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 1 {
			return jsonResponse(401, `{"statusCode":401,"error":"unauthorized","message":"token expired"}`), nil
		}
		return jsonResponse(c.status, c.body), nil
	})
	require.NoError(t, c.do(ctx(t), e.client))
	assert.Equal(t, 2, rec.count())
	assert.Equal(t, int32(2), e.tokens.Load(), "token requests")
	assert.Equal(t, "Bearer tok-2", rec.last().Auth)
}
