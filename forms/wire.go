package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// This file holds the JSON helpers that let the form types give back, on
// Update, every property the service sent on Get, including properties this
// package does not model (see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1,
// every property is stored and given back as sent).

// flexString decodes a JSON string or number into a string; null and other
// kinds leave it empty.
type flexString string

func (s *flexString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0 || bytes.Equal(b, []byte("null")):
		return nil
	case b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = flexString(v)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("forms: want a string or a number, got %s", b)
		}
		*s = flexString(n.String())
	}
	return nil
}

// rawText returns a JSON value as text: a string as itself, null as "", and
// any other value (number, boolean, object, array) in its JSON spelling.
func rawText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return ""
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}
