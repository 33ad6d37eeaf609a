package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
)

// apiError is an error answer of the mock's services. Handlers return it
// (or wrap it); the router writes it as the platform's JSON error body
// (docs/platform.md, "Errors and request ids"):
// {"statusCode","error","message","details":[{"field","message"}]}.
type apiError struct {
	Status  int
	Code    string
	Message string
	Details []fieldError
	// Bare leaves "details" out, for answers the platform sends without it
	// (the Send service's "Invalid JWT token").
	Bare bool
}

// fieldError is one problem of a request, named by the field it concerns.
type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
}

func errBadRequest(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Code: "bad_request", Message: fmt.Sprintf(format, args...)}
}

func errUnauthorized(msg string) *apiError {
	return &apiError{Status: http.StatusUnauthorized, Code: "unauthorized", Message: msg}
}

func errForbidden(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusForbidden, Code: "forbidden", Message: fmt.Sprintf(format, args...)}
}

func errNotFound(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusNotFound, Code: "not_found", Message: fmt.Sprintf(format, args...)}
}

func errConflict(format string, args ...any) *apiError {
	return &apiError{Status: http.StatusConflict, Code: "conflict", Message: fmt.Sprintf(format, args...)}
}

func errTooLarge(limit int64) *apiError {
	return &apiError{Status: http.StatusRequestEntityTooLarge, Code: "payload_too_large",
		Message: fmt.Sprintf("request body exceeds %d bytes", limit)}
}

// errValidation is a 422 with one detail per problem.
func errValidation(details []fieldError) *apiError {
	msg := "validation failed"
	if len(details) == 1 {
		msg = "validation failed: " + details[0].Field + ": " + details[0].Message
	} else if len(details) > 1 {
		msg = fmt.Sprintf("validation failed: %d problems", len(details))
	}
	return &apiError{Status: http.StatusUnprocessableEntity, Code: "validation_failed", Message: msg, Details: details}
}

// problems collects validation details.
type problems []fieldError

func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, fieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// err is nil without problems, else a 422 apiError.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return errValidation(p)
}

// writeError writes err as a JSON error answer. An error that is not (and
// does not wrap) an *apiError is answered 500 without its text, which could
// hold anything.
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = &apiError{Status: http.StatusInternalServerError, Code: "internal_error", Message: "internal error"}
	}
	details := ae.Details
	if details == nil {
		details = []fieldError{}
	}
	if ae.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="signkit-mock"`)
	}
	body := map[string]any{"statusCode": ae.Status, "error": ae.Code, "message": ae.Message}
	if !ae.Bare {
		body["details"] = details
	}
	writeJSON(w, ae.Status, body)
}

// writeJSON writes v as a JSON answer with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"statusCode":500,"error":"internal_error","message":"encoding failed","details":[]}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// decodeJSON reads a JSON request body into v, bounded by limit. A body sent
// with a Content-Type other than application/json is a 415, a body that is
// too large a 413, malformed JSON a 400.
func decodeJSON(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	return decodeBody(w, r, limit, v)
}

// requireJSON answers 415 unless the request says its body is JSON.
func requireJSON(r *http.Request) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return &apiError{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
			Message: "send the body as Content-Type: application/json"}
	}
	return nil
}

// decodeBody reads a JSON body into v whatever its Content-Type says: the
// control API takes bodies from curl -d as well.
func decodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return fmt.Errorf("decode body: %w", errTooLarge(limit))
		}
		return fmt.Errorf("decode body: %w", errBadRequest("malformed JSON body: %v", err))
	}
	if dec.More() {
		return errBadRequest("malformed JSON body: more than one JSON value")
	}
	return nil
}
