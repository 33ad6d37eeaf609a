package signkit

import "github.com/signkit/signkit-go/internal/apierror"

// Error is a failure answered by the platform: a status outside 2xx. Every
// service call returns it as *Error; use errors.As to read it and errors.Is
// with the sentinels below to classify it. Its fields:
//
//   - StatusCode int: the HTTP status of the answer.
//   - Code string: the machine-readable code, such as "validation_failed".
//   - Message string: the human-readable explanation.
//   - Method, URL string: the failed request (the URL without user info).
//   - RequestID string: the answer's X-Penneo-Request-Id header, which the
//     platform's support asks for.
//   - Details []FieldError: one entry (Field, Message) per problem of a
//     rejected request.
//   - Body []byte: at most 64 KiB of the response body.
//   - RetryAfter time.Duration: the answer's Retry-After header (0 when
//     absent), at most one minute: a longer one, however large, reads as
//     one minute, the longest the SDK's own retries wait; on a 429 or 503
//     it says how long to wait before sending again.
//   - OutcomeUnknown bool: set when the request changes something, was not
//     sent again, and the answer (502, 503, 504) leaves in doubt whether the
//     platform carried it out; errors.Is(err, ErrOutcomeUnknown) holds then.
//
// Its method TokenRejected reports whether the platform refused the access
// token (a 401, or Send's 400 "Invalid JWT token").
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

// ErrOutcomeUnknown is matched (errors.Is) by the error of a POST that the SDK
// did not send again after a 502, 503 or 504 (an *Error) or after the
// connection was lost once the request was written (a transport error): the
// platform may have carried it out. List or get what it creates or changes
// before you send it again. Which requests the SDK re-sends, and why, is in
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
var ErrOutcomeUnknown = apierror.ErrOutcomeUnknown

// ValidationError is returned when the SDK refuses a request before sending
// it (a form, a case file or a subscription that the service would reject).
// It lists every problem; errors.Is(err, ErrValidation) holds for it.
type ValidationError = apierror.ValidationError

// Problem is one problem listed by a ValidationError.
type Problem = apierror.Problem

// RequestIDHeader is the answer header whose value Error.RequestID holds.
const RequestIDHeader = apierror.RequestIDHeader
