package casefiles

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/signkit/signkit-go/internal/transport"
)

// Errors returns what the signing service says is wrong with a case file: why
// it failed (status CaseFileFailed), or the problems of its configuration
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Case file errors"). A case file without any gets an empty, non-nil slice. An
// unknown case file, or one the user may not read, is an error that matches
// signkit.ErrNotFound or signkit.ErrForbidden.
//
// The platform answers a JSON array of strings; an element that is an
// object is read liberally, as its "message", "error", "reason" or
// "description" member, else as its JSON text.
func (c *Client) Errors(ctx context.Context, caseFileID int64) ([]string, error) {
	if caseFileID <= 0 {
		return nil, invalid("request", Problem{Field: "caseFileID", Message: "must be positive"})
	}
	req := &transport.Request{
		Method: http.MethodGet,
		URL:    transport.JoinURL(c.sign(), "api", "v1", "casefiles", strconv.FormatInt(caseFileID, 10), "errors"),
		Auth:   transport.Bearer,
	}
	var reasons reasonList
	if err := c.t().Do(ctx, req, &reasons); err != nil {
		return nil, fmt.Errorf("casefiles: errors of case file %d: %w", caseFileID, err)
	}
	if reasons == nil {
		reasons = reasonList{}
	}
	return reasons, nil
}

// reasonList decodes the errors answer: an array of strings, or of objects
// with a message; null is no reason.
type reasonList []string

// UnmarshalJSON implements json.Unmarshaler.
func (l *reasonList) UnmarshalJSON(b []byte) error {
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return fmt.Errorf("casefiles: the errors answer is not a JSON array: %w", err)
	}
	out := make(reasonList, 0, len(items))
	for _, it := range items {
		if s, ok := reasonText(it); ok {
			out = append(out, s)
		}
	}
	*l = out
	return nil
}

// reasonText reads one element of the errors answer; null and "" are no
// reason.
func reasonText(raw json.RawMessage) (string, bool) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, s != ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) == nil && obj != nil {
		for _, k := range []string{"message", "error", "reason", "description"} {
			if json.Unmarshal(obj[k], &s) == nil && s != "" {
				return s, true
			}
		}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil || compact.String() == "null" {
		return "", false
	}
	return compact.String(), true
}

var _ json.Unmarshaler = (*reasonList)(nil)
