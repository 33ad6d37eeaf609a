// Package apierror defines the error that every service call returns when the
// platform answers with a failure status, and decodes the platform's error
// bodies into it. Package signkit re-exports it as signkit.Error.
package apierror

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/signkit/signkit-go/internal/retry"
)

// MaxBody is the most of an error response body that is read and kept.
const MaxBody = 64 << 10

// Sentinels that errors.Is matches against any *Error by its status code.
var (
	ErrNotFound     = errors.New("signkit: not found")         // 404
	ErrUnauthorized = errors.New("signkit: unauthorized")      // 401, or a 400 "Invalid JWT token"
	ErrForbidden    = errors.New("signkit: forbidden")         // 403
	ErrConflict     = errors.New("signkit: conflict")          // 409
	ErrValidation   = errors.New("signkit: validation failed") // 400 or 422
	ErrRateLimited  = errors.New("signkit: rate limited")      // 429
)

// ErrOutcomeUnknown is matched (errors.Is) by the error of a request that
// changes something (a POST) and was not re-sent after an answer or a failure
// that leaves its effect in doubt: a 502, 503 or 504, or a connection lost
// after the request was written. The platform may have carried it out; look
// (list or get) before sending it again. The retry rules are in
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
var ErrOutcomeUnknown = errors.New("signkit: outcome unknown: the request may have been carried out; list or get what it creates or changes before you send it again")

// OutcomeHint is what the error text of a request whose outcome is unknown
// adds: how to check.
const OutcomeHint = "the request may have been carried out: list or get what it creates or changes before you send it again (docs/retries.md)"

// FieldError is one problem of a rejected request, naming the field (a JSON
// path such as "sections[0].fields[2].name") and what is wrong with it.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error is a failure answered by the platform: a status outside 2xx, or a
// 2xx whose body reports a failure (FromRefusal).
type Error struct {
	StatusCode int          // HTTP status of the answer
	Code       string       // machine-readable code, e.g. "validation_failed"
	Message    string       // human-readable explanation
	Method     string       // method of the failed request
	URL        string       // URL of the failed request, without user info
	RequestID  string       // X-Penneo-Request-Id of the answer, when present
	Details    []FieldError // one entry per problem of a rejected request
	Body       []byte       // at most MaxBody bytes of the response body
	// RetryAfter is the answer's Retry-After header as a duration (0 when
	// absent or unreadable), at most one minute: a longer one, however
	// large, reads as one minute, the longest the SDK's own retries wait.
	// Set on a 429 or 503, it says how long to wait before sending again.
	RetryAfter time.Duration
	// OutcomeUnknown is set when the request changes something, was not
	// re-sent, and the answer (502, 503, 504) leaves in doubt whether the
	// platform carried it out; errors.Is(e, ErrOutcomeUnknown) holds then.
	OutcomeUnknown bool
}

// Error describes the failure: status, code, message and the request.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "signkit: %s %s: %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Code != "" {
		b.WriteString(" (" + e.Code + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	for i, d := range e.Details {
		sep := "; "
		if i == 0 {
			sep = " ["
		}
		b.WriteString(sep + d.Field + ": " + d.Message)
		if i == len(e.Details)-1 {
			b.WriteString("]")
		}
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + e.RequestID + ")")
	}
	if e.RetryAfter > 0 {
		b.WriteString(" (retry after " + e.RetryAfter.String() + ")")
	}
	if e.OutcomeUnknown {
		b.WriteString(": " + OutcomeHint)
	}
	return b.String()
}

// RequestIDHeader is the answer header that carries the platform's id of a
// request; quote it when asking the platform's support about a failure (see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids).
const RequestIDHeader = "X-Penneo-Request-Id"

// invalidTokenPrefix starts the message of the Send service's 400 answer to a
// token it cannot parse (see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
const invalidTokenPrefix = "Invalid JWT token"

// TokenRejected reports whether e is the platform refusing the access token:
// a 401, or a 400 whose message starts with "Invalid JWT token" (the Send
// service's answer to a malformed token). Such a failure is cured by a new
// token; errors.Is(e, ErrUnauthorized) holds for it and ErrValidation does not.
func (e *Error) TokenRejected() bool {
	return e.StatusCode == http.StatusUnauthorized ||
		(e.StatusCode == http.StatusBadRequest && strings.HasPrefix(strings.TrimSpace(e.Message), invalidTokenPrefix))
}

// Is reports whether target is the sentinel that matches e's status code. A
// 400 that refuses the token (see TokenRejected) matches ErrUnauthorized,
// not ErrValidation.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrUnauthorized:
		return e.TokenRejected()
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrConflict:
		return e.StatusCode == http.StatusConflict
	case ErrValidation:
		return (e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity) && !e.TokenRejected()
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrOutcomeUnknown:
		return e.OutcomeUnknown
	}
	return false
}

// wireError holds every error body shape the platform sends:
// {"statusCode","error","message","details"}, OAuth's {"error","error_description"},
// and a bare {"message"}.
type wireError struct {
	StatusCode       int             `json:"statusCode"`
	Error            json.RawMessage `json:"error"`
	Code             string          `json:"code"`
	Message          string          `json:"message"`
	ErrorDescription string          `json:"error_description"`
	Details          []FieldError    `json:"details"`
}

// FromResponse builds the *Error of a failed answer. It reads at most MaxBody
// bytes of the body and closes it.
func FromResponse(resp *http.Response) *Error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, MaxBody))
	return fromBody(resp, body)
}

// FromRefusal builds the *Error of an answer whose status says success but
// whose body, already read, says the request failed: the Send service's
// {"status":"error","message"}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// Code is the body's "error", else "error"; Body keeps at most MaxBody bytes.
func FromRefusal(resp *http.Response, body []byte) *Error {
	e := fromBody(resp, body[:min(len(body), MaxBody)])
	if e.Code == "" {
		e.Code = "error"
	}
	if e.Message == "" {
		e.Message = "the platform reported an error without a message"
	}
	return e
}

// fromBody builds the *Error of an answer whose body was read.
func fromBody(resp *http.Response, body []byte) *Error {
	e := &Error{
		StatusCode: resp.StatusCode,
		RequestID:  requestID(resp.Header),
		Body:       body,
		RetryAfter: retryAfter(resp.Header.Get("Retry-After"), time.Now()),
	}
	if req := resp.Request; req != nil {
		e.Method = req.Method
		e.URL = redactURL(req.URL)
	}
	decode(e, body)
	return e
}

// retryAfter reads a Retry-After value as the SDK's retries wait it (the
// same parser, the same cut at retry.MaxRetryAfter); 0 when absent or
// unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	d, ok := retry.RetryAfter(v, now)
	if !ok {
		return 0
	}
	return min(d, retry.MaxRetryAfter)
}

// requestID reads the platform's request id header, or the generic
// X-Request-Id that proxies in front of it may set.
func requestID(h http.Header) string {
	if id := h.Get(RequestIDHeader); id != "" {
		return id
	}
	return h.Get("X-Request-Id")
}

func decode(e *Error, body []byte) {
	var w wireError
	if json.Unmarshal(body, &w) != nil {
		e.Message = strings.TrimSpace(string(body))
		if len(e.Message) > 200 || !isPrintable(e.Message) {
			e.Message = ""
		}
		return
	}
	var code string
	if json.Unmarshal(w.Error, &code) == nil {
		e.Code = code
	}
	if e.Code == "" {
		e.Code = w.Code
	}
	e.Message = w.Message
	if e.Message == "" {
		e.Message = w.ErrorDescription
	}
	e.Details = w.Details
}

func isPrintable(s string) bool {
	for _, r := range s {
		if r < ' ' && r != '\t' {
			return false
		}
	}
	return true
}

func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User = nil
	return c.String()
}
