package webhooks

import (
	"errors"
	"fmt"
	"strings"
)

// ErrHeaderMismatch: the signature is valid but the event headers do not
// agree with the body, or are not well formed: X-Event-Id is not a UUID,
// X-Event-Type is neither a known type nor of their form
// (lowercase.segments.camelCase), or its last two segments are not the
// body's topic and eventType. The signed string joins header values with
// ".", so only this check ties each value to its place (docs/webhooks.md).
var ErrHeaderMismatch = errors.New("webhooks: event headers do not match the body")

// checkBinding checks that the id and type headers of ev are well formed and
// name the event its body describes.
func checkBinding(ev *Event) error {
	if !isUUID(ev.ID) {
		return fmt.Errorf("%w: %s is not a UUID", ErrHeaderMismatch, EventIDHeader)
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

// isUUID reports whether s is 8-4-4-4-12 hex digits, of any version and
// either case.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return false
		}
	}
	return true
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
