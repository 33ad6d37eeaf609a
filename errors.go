package signkit

import "github.com/signkit/signkit-go/internal/apierror"

// Error is a failure answered by the platform (a status outside 2xx): status,
// code, message, the request's method and URL, the request id (the answer's
// X-Penneo-Request-Id header, which the platform's support asks for), one detail per
// problem of a rejected request, and at most 64 KiB of the body. Every
// service call returns it as *Error; use errors.As to read it and errors.Is
// with the sentinels below to classify it.
type Error = apierror.Error

// FieldError is one problem of a rejected request.
type FieldError = apierror.FieldError

// Sentinels that errors.Is matches against any *Error by status code.
var (
	ErrNotFound     = apierror.ErrNotFound     // 404
	ErrUnauthorized = apierror.ErrUnauthorized // 401, or a 400 "Invalid JWT token" (Send)
	ErrForbidden    = apierror.ErrForbidden    // 403
	ErrConflict     = apierror.ErrConflict     // 409
	ErrValidation   = apierror.ErrValidation   // 400 or 422, unless the 400 refuses the token
	ErrRateLimited  = apierror.ErrRateLimited  // 429; Error.RetryAfter says how long to wait
)

// ErrOutcomeUnknown is matched (errors.Is) by the error of a POST that the
// SDK did not send again after a 502, 503 or 504 (an *Error) or after the
// connection was lost once the request was written (a transport error):
// the platform may have carried it out. List or get what it creates or
// changes before you send it again. Which requests the SDK re-sends, and
// why, is in docs/retries.md.
var ErrOutcomeUnknown = apierror.ErrOutcomeUnknown

// ValidationError is returned when the SDK refuses a request before sending
// it (a form, a case file or a subscription that the service would reject).
// It lists every problem; errors.Is(err, ErrValidation) holds for it.
type ValidationError = apierror.ValidationError

// Problem is one problem listed by a ValidationError.
type Problem = apierror.Problem

// RequestIDHeader is the answer header whose value Error.RequestID holds.
const RequestIDHeader = apierror.RequestIDHeader
