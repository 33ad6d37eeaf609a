package apierror

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func response(status int, body string, header http.Header) *http.Response {
	if header == nil {
		header = http.Header{}
	}
	u, _ := url.Parse("https://user:pw@forms.test/collect/api/v1/forms/f1?limit=5")
	return &http.Response{
		StatusCode: status,
		Header:     header,
		Body:       io.NopCloser(strings.NewReader(body)),
		Request:    &http.Request{Method: http.MethodPost, URL: u},
	}
}

func TestFromResponseShapes(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		code     string
		message  string
		details  []FieldError
		sentinel error
	}{
		{
			name:   "platform shape with details",
			status: 422,
			body: `{"statusCode":422,"error":"validation_failed","message":"form is invalid",` +
				`"details":[{"field":"sections[0].fields[1].name","message":"duplicate field name"}]}`,
			code: "validation_failed", message: "form is invalid",
			details:  []FieldError{{Field: "sections[0].fields[1].name", Message: "duplicate field name"}},
			sentinel: ErrValidation,
		},
		{
			name: "oauth shape", status: 401,
			body: `{"error":"invalid_client","error_description":"client authentication failed"}`,
			code: "invalid_client", message: "client authentication failed", sentinel: ErrUnauthorized,
		},
		{
			name: "bare message", status: 404, body: `{"message":"Job not found","statusCode":404}`,
			message: "Job not found", sentinel: ErrNotFound,
		},
		{
			name: "send malformed token", status: 400,
			body: `{"error":"Bad Request","message":"Invalid JWT token: Invalid token format","statusCode":400}`,
			code: "Bad Request", message: "Invalid JWT token: Invalid token format", sentinel: ErrUnauthorized,
		},
		{name: "malformed body", status: 400, body: `{"message":`, message: `{"message":`, sentinel: ErrValidation},
		{name: "plain text", status: 409, body: "form is ARCHIVED\n", message: "form is ARCHIVED", sentinel: ErrConflict},
		{name: "empty forbidden", status: 403, body: "", sentinel: ErrForbidden},
		{name: "rate limited", status: 429, body: `{"error":"too_many_requests"}`, code: "too_many_requests", sentinel: ErrRateLimited},
		{name: "server error object code", status: 500, body: `{"error":{"x":1},"code":"internal","message":"boom"}`, code: "internal", message: "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := FromResponse(response(tt.status, tt.body, http.Header{"X-Penneo-Request-Id": {"req-7"}}))
			assert.Equal(t, tt.status, e.StatusCode)
			assert.Equal(t, tt.code, e.Code)
			assert.Equal(t, tt.message, e.Message)
			assert.Equal(t, tt.details, e.Details)
			assert.Equal(t, "req-7", e.RequestID)
			assert.Equal(t, http.MethodPost, e.Method)
			assert.Equal(t, "https://forms.test/collect/api/v1/forms/f1?limit=5", e.URL, "user info is dropped")
			assert.Equal(t, tt.body, string(e.Body))
			wrapped := fmt.Errorf("outer: %w", e)
			var got *Error
			require.True(t, errors.As(wrapped, &got))
			if tt.sentinel != nil {
				assert.ErrorIs(t, wrapped, tt.sentinel)
			}
			for _, other := range []error{ErrNotFound, ErrUnauthorized, ErrForbidden, ErrConflict, ErrValidation, ErrRateLimited} {
				if other != tt.sentinel {
					assert.NotErrorIs(t, wrapped, other)
				}
			}
		})
	}
}

func TestRequestIDHeader(t *testing.T) {
	tests := []struct {
		name   string
		header http.Header
		want   string
	}{
		{"platform header", http.Header{"X-Penneo-Request-Id": {"p-1"}}, "p-1"},
		{"platform header wins", http.Header{"X-Penneo-Request-Id": {"p-1"}, "X-Request-Id": {"g-1"}}, "p-1"},
		{"generic header", http.Header{"X-Request-Id": {"g-1"}}, "g-1"},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := FromResponse(response(404, `{"message":"gone"}`, tt.header))
			assert.Equal(t, tt.want, e.RequestID)
			if tt.want != "" {
				assert.Contains(t, e.Error(), "(request id "+tt.want+")")
			}
		})
	}
}

func TestTokenRejected(t *testing.T) {
	tests := []struct {
		status int
		msg    string
		want   bool
	}{
		{401, "token expired", true},
		{400, "Invalid JWT token: Invalid token format", true},
		{400, "  Invalid JWT token", true},
		{400, "invalid body", false},
		{422, "Invalid JWT token", false},
		{403, "Invalid JWT token", false},
	}
	for _, tt := range tests {
		e := &Error{StatusCode: tt.status, Message: tt.msg}
		assert.Equal(t, tt.want, e.TokenRejected(), "%d %q", tt.status, tt.msg)
		assert.Equal(t, tt.want, errors.Is(e, ErrUnauthorized), "%d %q", tt.status, tt.msg)
		if tt.status == 400 {
			assert.Equal(t, !tt.want, errors.Is(e, ErrValidation), "%d %q", tt.status, tt.msg)
		}
	}
}

func TestErrorText(t *testing.T) {
	e := FromResponse(response(422, `{"error":"validation_failed","message":"bad","details":[{"field":"a","message":"x"},{"field":"b","message":"y"}]}`, nil))
	assert.Equal(t, "signkit: POST https://forms.test/collect/api/v1/forms/f1?limit=5: 422 Unprocessable Entity (validation_failed): bad [a: x; b: y]", e.Error())
}

func TestBodyIsLimited(t *testing.T) {
	big := strings.Repeat("x", MaxBody*2)
	e := FromResponse(response(500, big, nil))
	assert.Len(t, e.Body, MaxBody)
	assert.Empty(t, e.Message, "an oversized non-JSON body is not used as the message")
}
