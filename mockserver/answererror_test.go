package mockserver

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go"
)

func TestAnswerError(t *testing.T) {
	tests := []struct {
		name       string
		status     int
		header     http.Header
		body       string
		want       signkit.Error
		sentinel   error
		notMatched error
	}{
		{
			name: "validation with details", status: http.StatusUnprocessableEntity,
			header: http.Header{signkit.RequestIDHeader: {"req-1"}},
			body: `{"statusCode":422,"error":"validation_failed","message":"validation failed: 2 Problems",` +
				`"details":[{"field":"name","message":"required"},{"field":"email","message":"not an email"}]}`,
			want: signkit.Error{StatusCode: 422, Code: "validation_failed", Message: "validation failed: 2 Problems",
				RequestID: "req-1", Details: []signkit.FieldError{{Field: "name", Message: "required"}, {Field: "email", Message: "not an email"}}},
			sentinel: signkit.ErrValidation, notMatched: signkit.ErrNotFound,
		},
		{
			name: "not found", status: http.StatusNotFound,
			body:     `{"statusCode":404,"error":"not_found","message":"form x not found","details":[]}`,
			want:     signkit.Error{StatusCode: 404, Code: "not_found", Message: "form x not found", Details: []signkit.FieldError{}},
			sentinel: signkit.ErrNotFound, notMatched: signkit.ErrValidation,
		},
		{
			name: "rate limited, Retry-After capped at a minute", status: http.StatusTooManyRequests,
			header:   http.Header{"Retry-After": {"600"}},
			body:     `{"statusCode":429,"error":"injected_fault","message":"fault"}`,
			want:     signkit.Error{StatusCode: 429, Code: "injected_fault", Message: "fault", RetryAfter: time.Minute},
			sentinel: signkit.ErrRateLimited, notMatched: signkit.ErrConflict,
		},
		{
			name: "a body that is not the mock's JSON stays in Body only", status: http.StatusConflict,
			header:   http.Header{"Retry-After": {"soon"}},
			body:     "<html>conflict</html>",
			want:     signkit.Error{StatusCode: 409},
			sentinel: signkit.ErrConflict, notMatched: signkit.ErrValidation,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, "http://user:pw@mock.test/public/forms/x", nil)
			if err != nil {
				t.Fatal(err)
			}
			header := tt.header
			if header == nil {
				header = http.Header{}
			}
			resp := &http.Response{StatusCode: tt.status, Header: header, Body: io.NopCloser(strings.NewReader(tt.body))}
			got := answerError(req, resp)
			if got.StatusCode != tt.want.StatusCode || got.Code != tt.want.Code || got.Message != tt.want.Message ||
				got.RequestID != tt.want.RequestID || got.RetryAfter != tt.want.RetryAfter {
				t.Errorf("answerError = %+v, want %+v", got, tt.want)
			}
			if len(got.Details) != len(tt.want.Details) {
				t.Fatalf("Details = %+v, want %+v", got.Details, tt.want.Details)
			}
			for i := range got.Details {
				if got.Details[i] != tt.want.Details[i] {
					t.Errorf("Details[%d] = %+v, want %+v", i, got.Details[i], tt.want.Details[i])
				}
			}
			if string(got.Body) != tt.body {
				t.Errorf("Body = %q, want %q", got.Body, tt.body)
			}
			if got.Method != http.MethodPost || got.URL != "http://mock.test/public/forms/x" {
				t.Errorf("the request is %s %s, want POST without user info", got.Method, got.URL)
			}
			var err2 error = got
			if !errors.Is(err2, tt.sentinel) || errors.Is(err2, tt.notMatched) {
				t.Errorf("errors.Is(%v) = %v, errors.Is(%v) = %v", tt.sentinel, errors.Is(err2, tt.sentinel), tt.notMatched, errors.Is(err2, tt.notMatched))
			}
		})
	}
}
