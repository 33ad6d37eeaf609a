package mockserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/signkit/signkit-go"
)

// maxErrorBody is the most of an error answer's body that answerError
// reads and keeps, as much as the SDK keeps in signkit.Error.Body.
const maxErrorBody = 64 << 10

// maxRetryAfter caps Error.RetryAfter as the SDK caps it (signkit.Error).
const maxRetryAfter = time.Minute

// answerError builds the *signkit.Error of the mock's own failed answer to req,
// so that what a test gets from a call of the Go test API that goes through the
// mock's HTTP (SubmitForm) matches signkit's sentinels as the SDK's calls do.
// The mock writes one error body, the platform's
// {"statusCode","error","message","details"}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#errors-and-request-ids);
// this is the mock's own reading of it, so that the mock reaches the SDK only
// through its exported API.
func answerError(req *http.Request, resp *http.Response) *signkit.Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	u := *req.URL
	u.User = nil // as the SDK's errors: no user info
	e := &signkit.Error{StatusCode: resp.StatusCode, Method: req.Method, URL: u.String(),
		RequestID: resp.Header.Get(signkit.RequestIDHeader), Body: body}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
		e.RetryAfter = min(time.Duration(secs)*time.Second, maxRetryAfter)
	}
	var w struct {
		Code    string               `json:"error"`
		Message string               `json:"message"`
		Details []signkit.FieldError `json:"details"`
	}
	if json.Unmarshal(body, &w) == nil { // else not the mock's JSON: Body still holds it
		e.Code, e.Message, e.Details = w.Code, w.Message, w.Details
	}
	return e
}
