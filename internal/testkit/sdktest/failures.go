package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"

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
	// NoToken marks a call that sends no token (the queue status check):
	// a 401 is returned to the caller, with no token request.
	NoToken bool
	// AttemptsOn500 is how many requests a 500 gets (default 1: a 500 is
	// not retried; a polling call may check again).
	AttemptsOn500 int
	// Synctest runs the paths that may wait (401, 500) in a testing/synctest
	// bubble, so that a polling call's pauses take no real time.
	Synctest bool
	Do       func(ctx context.Context, c *signkit.Client) error
}

// Bearer checks "Authorization: Bearer T" and no X-Auth-Token (forms and
// signing services).
func Bearer(h http.Header, tok string) bool {
	return h.Get("Authorization") == "Bearer "+tok && h.Get("X-Auth-Token") == ""
}

// XAuthToken checks "X-Auth-Token: T" and no Authorization (case file creation).
func XAuthToken(h http.Header, tok string) bool {
	return h.Get("X-Auth-Token") == tok && h.Get("Authorization") == ""
}

// RunFailurePaths runs the failure paths of c as subtests: a 401 answered by
// renewing the token once, 404, 422 with details, 500 (a POST sent once), a
// malformed answer and a cancelled context.
func RunFailurePaths(t *testing.T, c Call) {
	t.Run("401", func(t *testing.T) { c.run(t, check401) })
	t.Run("404", func(t *testing.T) {
		e := NewEnv(t)
		e.Reply(c.Method, c.URL, 404, `{"statusCode":404,"error":"not_found","message":"no such thing"}`)
		err := c.Do(t.Context(), e.Client)
		require.ErrorIs(t, err, signkit.ErrNotFound)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "no such thing", apiErr.Message)
	})
	t.Run("422 with details", func(t *testing.T) {
		e := NewEnv(t)
		e.Reply(c.Method, c.URL, 422, `{"statusCode":422,"error":"validation_failed","message":"invalid",
			"details":[{"field":"endpoint","message":"is required"}]}`)
		err := c.Do(t.Context(), e.Client)
		require.ErrorIs(t, err, signkit.ErrValidation)
		var apiErr *signkit.Error
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, "validation_failed", apiErr.Code)
		assert.Equal(t, []signkit.FieldError{{Field: "endpoint", Message: "is required"}}, apiErr.Details)
	})
	t.Run("500", func(t *testing.T) { c.run(t, check500) })
	if !c.Stream && c.Body != "" {
		t.Run("malformed JSON", func(t *testing.T) {
			e := NewEnv(t)
			rec := e.Reply(c.Method, c.URL, c.Status, `{not json`)
			err := c.Do(t.Context(), e.Client)
			var syntaxErr *json.SyntaxError
			require.ErrorAs(t, err, &syntaxErr)
			assert.False(t, errors.As(err, new(*signkit.Error)), "a decode error is not an API error")
			assert.Equal(t, 1, rec.Count())
		})
	}
	t.Run("cancelled context", func(t *testing.T) {
		e := NewEnv(t)
		rec := e.Reply(c.Method, c.URL, c.Status, c.Body)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		require.ErrorIs(t, c.Do(ctx, e.Client), context.Canceled)
		assert.Equal(t, 0, rec.Count())
	})
}

// run runs check in a synctest bubble when c asks for one.
func (c Call) run(t *testing.T, check func(*testing.T, Call)) {
	if c.Synctest {
		synctest.Test(t, func(t *testing.T) { check(t, c) })
		return
	}
	check(t, c)
}

// check401: a call with a token renews it once after a 401 and succeeds
// with the new token; a call without one returns the 401.
func check401(t *testing.T, c Call) {
	e := NewEnv(t)
	rec := e.Handle(c.Method, c.URL, func(_ *http.Request, n int) (*http.Response, error) {
		if n == 1 {
			return JSON(401, `{"statusCode":401,"error":"unauthorized","message":"token expired"}`), nil
		}
		return JSON(c.Status, c.Body), nil
	})
	err := c.Do(t.Context(), e.Client)
	if c.NoToken {
		require.ErrorIs(t, err, signkit.ErrUnauthorized)
		assert.Equal(t, 1, rec.Count())
		assert.Equal(t, int32(0), e.Tokens.Load(), "no token is needed")
		h := rec.Last().Header
		assert.Empty(t, h.Get("Authorization")+h.Get("X-Auth-Token"))
		return
	}
	require.NoError(t, err)
	assert.Equal(t, 2, rec.Count())
	assert.Equal(t, int32(2), e.Tokens.Load(), "token requests")
	if c.TokenCheck != nil {
		assert.True(t, c.TokenCheck(rec.Last().Header, "tok-2"), "the replay carries the new token: %v", rec.Last().Header)
	}
}

// check500: a 500 is an *signkit.Error, not retried (a polling call may
// check again AttemptsOn500 times in all).
func check500(t *testing.T, c Call) {
	e := NewEnv(t, 0)
	rec := e.Reply(c.Method, c.URL, 500, `{"statusCode":500,"error":"internal","message":"boom"}`)
	err := c.Do(t.Context(), e.Client)
	var apiErr *signkit.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 500, apiErr.StatusCode)
	assert.Equal(t, max(c.AttemptsOn500, 1), rec.Count(), "a 500 is not retried: the request may have taken effect")
}
