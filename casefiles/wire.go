package casefiles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// unixTime is a time on the wire: the platform sends and takes integer unix
// seconds
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi
// and
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// The decoder is tolerant: it also reads a number in a string ("1412092744", as
// the .NET SDK's fixtures have it), an RFC 3339 string, and null, 0 or "" as no
// time.
type unixTime time.Time

// MarshalJSON implements json.Marshaler: integer unix seconds.
func (t unixTime) MarshalJSON() ([]byte, error) {
	return strconv.AppendInt(nil, time.Time(t).Unix(), 10), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *unixTime) UnmarshalJSON(data []byte) error {
	s := string(bytes.Trim(data, `"`))
	switch {
	case s == "null" || s == "" || s == "0":
		*t = unixTime{}
		return nil
	case len(data) > 0 && data[0] == '"':
		if tm, err := time.Parse(time.RFC3339Nano, s); err == nil {
			*t = unixTime(tm)
			return nil
		}
	}
	sec, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("casefiles: %.40s is not a unix time", data)
	}
	*t = unixTime(time.Unix(sec, 0).UTC())
	return nil
}

// time returns t as a time.Time (the zero time for nil).
func (t *unixTime) time() time.Time {
	if t == nil {
		return time.Time{}
	}
	return time.Time(*t)
}

// toUnix converts an optional time for the wire.
func toUnix(t *time.Time) *unixTime {
	if t == nil {
		return nil
	}
	u := unixTime(*t)
	return &u
}

// fromUnix converts an optional time from the wire (absent and zero: nil).
func fromUnix(u *unixTime) *time.Time {
	if u == nil || time.Time(*u).IsZero() {
		return nil
	}
	t := time.Time(*u)
	return &t
}

// flexBool decodes true, false, 1, 0, "true" and "false"; null is false.
type flexBool bool

// UnmarshalJSON implements json.Unmarshaler.
func (b *flexBool) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*b = false
		return nil
	}
	v, err := strconv.ParseBool(string(bytes.Trim(data, `"`)))
	if err != nil {
		return fmt.Errorf("casefiles: %.40s is not a boolean", data)
	}
	*b = flexBool(v)
	return nil
}

// flexInt decodes an integer or an integer in a string; null is 0.
type flexInt int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *flexInt) UnmarshalJSON(data []byte) error {
	s := string(bytes.Trim(data, `"`))
	if s == "null" || s == "" {
		*n = 0
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("casefiles: %.40s is not an integer", data)
	}
	*n = flexInt(v)
	return nil
}

// Interface checks.
var (
	_ json.Unmarshaler = (*unixTime)(nil)
	_ json.Marshaler   = unixTime{}
	_ json.Unmarshaler = (*flexBool)(nil)
	_ json.Unmarshaler = (*flexInt)(nil)
)
