package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/apierror"
	"github.com/signkit/signkit-go/internal/retry"
)

// TestResendClasses checks what Send makes of each class under the answers of
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md: attempts,
// Resent, and the error's kind.
func TestResendClasses(t *testing.T) {
	type want struct {
		attempts int32
		resent   bool
		unknown  bool // errors.Is(err, apierror.ErrOutcomeUnknown)
		limited  bool // errors.Is(err, apierror.ErrRateLimited)
		ok       bool
	}
	tests := []struct {
		name     string
		method   string
		class    retry.Class
		statuses []int
		want     want
	}{
		{"POST 503 not re-sent", "POST", retry.ByMethod, []int{503, 201}, want{attempts: 1, unknown: true}},
		{"POST 502 not re-sent", "POST", retry.NotWritten, []int{502, 201}, want{attempts: 1, unknown: true}},
		{"POST 504 not re-sent", "POST", retry.ByMethod, []int{504, 201}, want{attempts: 1, unknown: true}},
		{"POST 429 not re-sent", "POST", retry.ByMethod, []int{429, 201}, want{attempts: 1, limited: true}},
		{"POST 500 not re-sent, no doubt flagged", "POST", retry.ByMethod, []int{500, 201}, want{attempts: 1}},
		{"duplicate-safe 503 then 201", "POST", retry.DuplicateSafe, []int{503, 201}, want{attempts: 2, resent: true, ok: true}},
		{"duplicate-safe 503 every time", "POST", retry.DuplicateSafe, []int{503}, want{attempts: 3, resent: true, unknown: true}},
		{"conflict-safe 429 then 409", "POST", retry.ConflictSafe, []int{429, 409}, want{attempts: 2, resent: true}},
		{"conflict-safe 409 at once", "POST", retry.ConflictSafe, []int{409}, want{attempts: 1}},
		{"always 503 every time: no doubt", "POST", retry.Always, []int{503}, want{attempts: 3, resent: true}},
		{"GET 503 every time: no doubt", "GET", retry.ByMethod, []int{503}, want{attempts: 3, resent: true}},
		{"GET 429 every time", "GET", retry.ByMethod, []int{429}, want{attempts: 3, resent: true, limited: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var n atomic.Int32
			p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
				i := int(n.Add(1)) - 1
				_, _ = io.Copy(io.Discard, r.Body)
				st := tt.statuses[min(i, len(tt.statuses)-1)]
				if st == 429 || st == 503 {
					w.Header().Set("Retry-After", "0")
				}
				w.WriteHeader(st)
			})
			c := newClient(p, nil)
			req := &Request{Method: tt.method, URL: p.URL + "/api/x", Auth: Bearer, JSON: map[string]int{"a": 1}, Resend: tt.class}
			err := c.Do(context.Background(), req, nil)
			assert.Equal(t, tt.want.attempts, n.Load(), "attempts seen by the server")
			assert.Equal(t, int(tt.want.attempts), req.Attempts, "Request.Attempts")
			assert.Equal(t, tt.want.resent, req.Resent, "Request.Resent")
			if tt.want.ok {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tt.want.unknown, errors.Is(err, apierror.ErrOutcomeUnknown), "ErrOutcomeUnknown: %v", err)
			assert.Equal(t, tt.want.limited, errors.Is(err, apierror.ErrRateLimited), "ErrRateLimited: %v", err)
			if tt.want.unknown {
				assert.Contains(t, err.Error(), "list or get")
			}
		})
	}
}

// TestRateLimitedCarriesRetryAfter: a 429 to a POST is returned at once,
// with the wait the platform asked for.
func TestRateLimitedCarriesRetryAfter(t *testing.T) {
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "42")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	err := newClient(p, nil).Do(context.Background(), &Request{Method: "POST", URL: p.URL + "/api/x", Auth: Bearer}, nil)
	var e *apierror.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 42*time.Second, e.RetryAfter)
	assert.ErrorIs(t, err, apierror.ErrRateLimited)
	assert.NotErrorIs(t, err, apierror.ErrOutcomeUnknown)
}

// TestReplayAfterRefusedTokenIsNotADoubt: the replay after a 401 counts as
// an attempt but not as a re-send after a possible effect.
func TestReplayAfterRefusedTokenIsNotADoubt(t *testing.T) {
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) })
	c := newClient(p, nil)
	ctx := context.Background()
	require.NoError(t, c.Do(ctx, &Request{Method: "GET", URL: p.URL + "/api/warm", Auth: Bearer}, nil))
	p.expire()
	req := &Request{Method: "POST", URL: p.URL + "/api/x", Auth: Bearer, Resend: retry.ConflictSafe}
	require.NoError(t, c.Do(ctx, req, nil))
	assert.Equal(t, 2, req.Attempts)
	assert.False(t, req.Resent)
}

// TestLostConnectionOfAPost: a POST whose connection is lost after it was
// written is not re-sent and its error matches ErrOutcomeUnknown while
// still being the transport's *url.Error; a GET is re-sent.
func TestLostConnectionOfAPost(t *testing.T) {
	var n atomic.Int32
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	})
	c := newClient(p, nil)
	err := c.Do(context.Background(), &Request{Method: "POST", URL: p.URL + "/api/x", Auth: Bearer, JSON: struct{}{}}, nil)
	assert.Equal(t, int32(1), n.Load())
	assert.ErrorIs(t, err, apierror.ErrOutcomeUnknown)
	var ue *url.Error
	assert.ErrorAs(t, err, &ue)
	assert.True(t, strings.Contains(err.Error(), "list or get"), err.Error())

	n.Store(0)
	err = c.Do(context.Background(), &Request{Method: "GET", URL: p.URL + "/api/x", Auth: Bearer}, nil)
	assert.Equal(t, int32(3), n.Load(), "a GET is re-sent")
	assert.NotErrorIs(t, err, apierror.ErrOutcomeUnknown)
}

// TestRefusedConnectionOfAPostIsRetried: a POST that never left (the dial
// failed) is re-sent and its final error is no doubt.
func TestRefusedConnectionOfAPostIsRetried(t *testing.T) {
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {})
	c := newClient(p, nil)
	ctx := context.Background()
	dead := "http://127.0.0.1:1/api/x"
	err := c.Do(ctx, &Request{Method: "POST", URL: dead, Auth: NoAuth, JSON: struct{}{}}, nil)
	require.Error(t, err)
	assert.NotErrorIs(t, err, apierror.ErrOutcomeUnknown, "nothing was written: the outcome is known")
}
