package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
)

// Call is one SDK call as the failure paths see it.
type Call struct {
	Name       string
	Method     string
	URL        string // regexp of the whole URL without its query string
	Status     int    // success status
	Body       string // success body
	Stream     bool   // the answer is streamed, not decoded: no malformed-JSON path
	TokenCheck func(h http.Header, token string) bool
	Do         func(ctx context.Context, c *signkit.Client) error
}

// Bearer checks "Authorization: Bearer T" (forms and signing services).
func Bearer(h http.Header, tok string) bool { return h.Get("Authorization") == "Bearer "+tok }

// XAuthToken checks "X-Auth-Token: T" (case file creation).
func XAuthToken(h http.Header, tok string) bool { return h.Get("X-Auth-Token") == tok }

// JWT checks "Authorization: JWT T" and "X-Auth-Token: T" (webhook service).
func JWT(h http.Header, tok string) bool {
	return h.Get("Authorization") == "JWT "+tok && h.Get("X-Auth-Token") == tok
}

// RunFailurePaths runs the failure paths of c as subtests: a 401 answered by
// renewing the token once, 404, 422 with details, 500 (a POST sent once), a
// malformed answer and a cancelled context.
func RunFailurePaths(t *testing.T, c Call) {
	t.Run("401 renews the token once", func(t *testing.T) {
		e := NewEnv(t, -1)
		rec := e.Handle(c.Method, c.URL, func(_ *http.Request, n int) (*http.Response, error) {
			if n == 1 {
				return JSON(401, `{"statusCode":401,"error":"unauthorized","message":"token expired"}`), nil
			}
			return JSON(c.Status, c.Body), nil
		})
		require.NoError(t, c.Do(t.Context(), e.Client))
		assert.Equal(t, 2, rec.Count())
		assert.Equal(t, int32(2), e.Tokens.Load(), "token requests")
		if c.TokenCheck != nil {
			assert.True(t, c.TokenCheck(rec.Last().Header, "tok-2"), "the replay carries the new token: %v", rec.Last().Header)
		}
	})
	t.Run("404", func(t *testing.T) {
		e := NewEnv(t, -1)
		e.Reply(c.Method, c.URL, 404, `{"statusCode":404,"error":"not_found","message":"no such thing"}`)
		err := c.Do(t.Context(), e.Client)
		require.ErrorIs(t, err, signkit.ErrNotFound)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "no such thing", apiErr.Message)
	})
	t.Run("422 with details", func(t *testing.T) {
		e := NewEnv(t, -1)
		e.Reply(c.Method, c.URL, 422, `{"statusCode":422,"error":"validation_failed","message":"invalid",
			"details":[{"field":"endpoint","message":"is required"}]}`)
		err := c.Do(t.Context(), e.Client)
		require.ErrorIs(t, err, signkit.ErrValidation)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "validation_failed", apiErr.Code)
		assert.Equal(t, []signkit.FieldError{{Field: "endpoint", Message: "is required"}}, apiErr.Details)
	})
	t.Run("500", func(t *testing.T) {
		e := NewEnv(t, 0)
		rec := e.Reply(c.Method, c.URL, 500, `{"statusCode":500,"error":"internal","message":"boom"}`)
		err := c.Do(t.Context(), e.Client)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, 500, apiErr.StatusCode)
		assert.Equal(t, 1, rec.Count(), "a 500 is not retried: the request may have taken effect")
	})
	if !c.Stream && c.Body != "" {
		t.Run("malformed JSON", func(t *testing.T) {
			e := NewEnv(t, -1)
			e.Reply(c.Method, c.URL, c.Status, `{not json`)
			err := c.Do(t.Context(), e.Client)
			var syntaxErr *json.SyntaxError
			require.ErrorAs(t, err, &syntaxErr)
			assert.False(t, errors.As(err, new(*signkit.Error)), "a decode error is not an API error")
		})
	}
	t.Run("cancelled context", func(t *testing.T) {
		e := NewEnv(t, -1)
		rec := e.Reply(c.Method, c.URL, c.Status, c.Body)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		require.ErrorIs(t, c.Do(ctx, e.Client), context.Canceled)
		assert.Equal(t, 0, rec.Count())
	})
}
