// Package wire writes and reads the mock server's JSON on the wire: the
// platform's error body, JSON answers, and bounded JSON request bodies.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// Error is an error answer of the mock's services. Handlers return it (or wrap
// it); WriteError writes it as the platform's JSON error body
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids):
// {"statusCode","error","message","details":[{"field","message"}]}.
type Error struct {
	Status  int
	Code    string
	Message string
	Details []FieldError
	// Bare leaves "details" out, for answers the platform sends without it
	// (the Send service's "Invalid JWT token").
	Bare bool
}

// FieldError is one problem of a request, named by the field it concerns.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error implements error.
func (e *Error) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

// PlatformBadRequest is the "error" of the Send service's 400 answers, as the
// platform writes it
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const PlatformBadRequest = "Bad Request"

// BadRequest is a 400: the request is malformed.
func BadRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Code: "bad_request", Message: fmt.Sprintf(format, args...)}
}

// Unauthorized is a 401: the token is missing, malformed or expired.
func Unauthorized(msg string) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: "unauthorized", Message: msg}
}

// Forbidden is a 403: the caller may not touch the resource.
func Forbidden(format string, args ...any) *Error {
	return &Error{Status: http.StatusForbidden, Code: "forbidden", Message: fmt.Sprintf(format, args...)}
}

// NotFound is a 404.
func NotFound(format string, args ...any) *Error {
	return &Error{Status: http.StatusNotFound, Code: "not_found", Message: fmt.Sprintf(format, args...)}
}

// Conflict is a 409: the resource is in a state that refuses the request.
func Conflict(format string, args ...any) *Error {
	return &Error{Status: http.StatusConflict, Code: "conflict", Message: fmt.Sprintf(format, args...)}
}

// TooLarge is a 413: the body exceeds limit bytes.
func TooLarge(limit int64) *Error {
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: "payload_too_large",
		Message: fmt.Sprintf("request body exceeds %d bytes", limit)}
}

// Validation is a 422 with one detail per problem.
func Validation(details []FieldError) *Error {
	msg := "validation failed"
	if len(details) == 1 {
		msg = "validation failed: " + details[0].Field + ": " + details[0].Message
	} else if len(details) > 1 {
		msg = fmt.Sprintf("validation failed: %d Problems", len(details))
	}
	return &Error{Status: http.StatusUnprocessableEntity, Code: "validation_failed", Message: msg, Details: details}
}

// Problems collects validation details.
type Problems []FieldError

// Add records a problem of field.
func (p *Problems) Add(field, format string, args ...any) {
	*p = append(*p, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// BadQuery is nil without problems, else a 400 Error with one detail per
// problem: the answer of a journal under /mock/ to a query value that does not
// parse
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
func (p Problems) BadQuery() error {
	if len(p) == 0 {
		return nil
	}
	e := Validation(p)
	e.Status, e.Code = http.StatusBadRequest, "bad_request"
	return e
}

// Err is nil without problems, else a 422 Error.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return Validation(p)
}

// WriteError writes err as a JSON error answer. An error that is not (and
// does not wrap) an *Error is answered 500 without its text, which could
// hold anything.
func WriteError(w http.ResponseWriter, err error) {
	var ae *Error
	if !errors.As(err, &ae) {
		ae = &Error{Status: http.StatusInternalServerError, Code: "internal_error", Message: "internal error"}
	}
	details := ae.Details
	if details == nil {
		details = []FieldError{}
	}
	if ae.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="signkit-mock"`)
	}
	body := map[string]any{"statusCode": ae.Status, "error": ae.Code, "message": ae.Message}
	if !ae.Bare {
		body["details"] = details
	}
	WriteJSON(w, ae.Status, body)
}

// WriteJSON writes v as a JSON answer with the given status. A value that
// cannot be encoded is answered 500 instead: json.Encoder encodes the whole
// value before it writes anything, so nothing of it has been sent then.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	a := &jsonAnswer{w: w, status: status}
	enc := json.NewEncoder(a)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil && !a.started {
		a.status = http.StatusInternalServerError
		_, _ = a.Write([]byte(`{"statusCode":500,"error":"internal_error","message":"encoding failed","details":[]}` + "\n"))
	}
}

// jsonAnswer writes the head of a JSON answer with the first bytes of its
// body, so that the encoder can write straight to the connection.
type jsonAnswer struct {
	w       http.ResponseWriter
	status  int
	started bool
}

func (a *jsonAnswer) Write(b []byte) (int, error) {
	if !a.started {
		a.started = true
		a.w.Header()["Content-Type"] = []string{"application/json; charset=utf-8"} // canonical already
		a.w.WriteHeader(a.status)
	}
	return a.w.Write(b)
}

// DecodeJSON reads a JSON request body into v, bounded by limit. A body sent
// with a Content-Type other than application/json is a 415, a body that is
// too large a 413, malformed JSON a 400.
func DecodeJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	if err := RequireJSON(r); err != nil {
		return err
	}
	return DecodeBody(w, r, limit, v)
}

// RequireJSON answers 415 unless the request says its body is JSON.
func RequireJSON(r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
			Message: "send the body as Content-Type: application/json"}
	}
	return nil
}

// DecodeBody reads a JSON body into v whatever its Content-Type says: the
// control API takes bodies from curl -d as well.
func DecodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return fmt.Errorf("decode body: %w", TooLarge(limit))
		}
		return fmt.Errorf("decode body: %w", BadRequest("malformed JSON body: %v", err))
	}
	if dec.More() {
		return BadRequest("malformed JSON body: more than one JSON value")
	}
	return nil
}

// DecodeOptionalBody reads an optional JSON body into v, as DecodeBody
// does, and leaves v as it is when the body is empty, whether the request
// said so (Content-Length: 0) or sent an empty chunked body.
func DecodeOptionalBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	if r.ContentLength == 0 || r.Body == nil {
		return nil
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	err := dec.Decode(v)
	switch {
	case errors.Is(err, io.EOF):
		return nil // nothing but, at most, white space
	case err != nil:
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return fmt.Errorf("decode body: %w", TooLarge(limit))
		}
		return fmt.Errorf("decode body: %w", BadRequest("malformed JSON body: %v", err))
	case dec.More():
		return BadRequest("malformed JSON body: more than one JSON value")
	}
	return nil
}

// BaseURL answers the scheme and host a request reached the server at;
// links in answers (public form URLs, download URLs, signing links) use it.
func BaseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	return scheme + "://" + host
}

// RequestIDHeader names the id the platform gives every answer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids).
const RequestIDHeader = "X-Penneo-Request-Id"

// WithRequestID gives every answer that passes next, whatever produced it
// (a service, a public page, the control API, an error, a 404, an injected
// fault), a fresh X-Penneo-Request-Id.
func WithRequestID(next http.Handler) http.Handler { return &requestID{next} }

// requestID is the handler WithRequestID answers: a type of its own rather than
// a closure, so that it adds one small frame to every request's stack
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
type requestID struct{ next http.Handler }

func (h *requestID) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header()[RequestIDHeader] = []string{ids.UUID()} // the name is canonical already
	h.next.ServeHTTP(w, r)
}

// WantsJSON reports whether the client asked for JSON answers (Accept:
// application/json): a public page answers it JSON, and a person's
// browser HTML.
func WantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}
