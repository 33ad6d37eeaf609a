package webhooks

import (
	"errors"
	"fmt"
	"strings"
)

// ErrHeaderMismatch: the signature is valid but the event headers do not agree
// with the body, or are not well formed: X-Event-Id is not 1 to
// MaxEventIDLength printable ASCII characters without a "." (a UUID, as the
// mock sends, is one; the platform promises only a unique id), X-Event-Type is
// neither a known type nor of their form (lowercase.segments.camelCase), or its
// last two segments are not the body's topic and eventType (a topic or
// eventType that is absent or not a JSON string is not them). The signed string
// joins header values with ".", so a dot inside the id is what would let the
// boundary between id and type move; only this check ties each value to its
// place (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md).
var ErrHeaderMismatch = errors.New("webhooks: event headers do not match the body")

// checkBinding checks that the id and type headers of ev are well formed and
// name the event its body describes.
func checkBinding(ev *Event) error {
	if err := checkEventID(ev.ID); err != nil {
		return fmt.Errorf("%w: %s %w", ErrHeaderMismatch, EventIDHeader, err)
	}
	if !ev.Type.IsKnown() && !wellFormedType(string(ev.Type)) {
		return fmt.Errorf("%w: %s %q is not an event type", ErrHeaderMismatch, EventTypeHeader, ev.Type)
	}
	s := string(ev.Type)
	i := strings.LastIndexByte(s, '.')
	j := strings.LastIndexByte(s[:i], '.')
	if s[j+1:i] != ev.Topic || s[i+1:] != ev.EventType {
		return fmt.Errorf("%w: %s %q, body topic %q and eventType %q",
			ErrHeaderMismatch, EventTypeHeader, ev.Type, ev.Topic, ev.EventType)
	}
	return nil
}

// MaxEventIDLength is the longest X-Event-Id a Verifier accepts.
const MaxEventIDLength = 200

// checkEventID accepts what the platform may send as an event id: 1 to
// MaxEventIDLength printable ASCII characters (0x21 to 0x7e), no ".". It
// says which rule id breaks, without quoting id.
func checkEventID(id string) error {
	switch {
	case id == "":
		return errors.New("is missing")
	case len(id) > MaxEventIDLength:
		return fmt.Errorf("is longer than %d characters", MaxEventIDLength)
	}
	for i := 0; i < len(id); i++ {
		switch c := id[i]; {
		case c == '.':
			return errors.New("holds a dot, which the signed string uses between header values")
		case c < 0x21 || c > 0x7e:
			return errors.New("holds a character that is not printable ASCII")
		}
	}
	return nil
}

// wellFormedType reports whether s has the form of the known event types:
// three or more dot-separated segments, each a lowercase letter followed by
// letters or digits, all of them lowercase except in the last segment
// (sign.signer.signedWithImageUploadAndNAP).
func wellFormedType(s string) bool {
	segs := strings.Split(s, ".")
	if len(segs) < 3 {
		return false
	}
	for k, seg := range segs {
		if seg == "" || seg[0] < 'a' || seg[0] > 'z' {
			return false
		}
		last := k == len(segs)-1
		for i := 1; i < len(seg); i++ {
			c := seg[i]
			ok := 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || last && 'A' <= c && c <= 'Z'
			if !ok {
				return false
			}
		}
	}
	return true
}
