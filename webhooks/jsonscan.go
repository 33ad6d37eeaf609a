package webhooks

import (
	"bytes"
	"encoding/binary"
)

// A small JSON scanner for event bodies. It validates the whole body with the
// grammar that encoding/json's Valid uses (so Event.Raw is always valid JSON)
// and extracts the few fields an Event carries in one pass, without
// reflection and without allocating: Verify runs it on every delivery.

// maxDepth matches encoding/json's nesting limit.
const maxDepth = 10000

// scanError is a constant error of the scanner; decodeEvent wraps it in
// ErrInvalidPayload.
type scanError string

func (e scanError) Error() string { return string(e) }

const (
	errEOF       scanError = "unexpected end of JSON input"
	errSyntax    scanError = "invalid JSON"
	errDepth     scanError = "JSON nested too deeply"
	errTrailing  scanError = "data after the top-level JSON value"
	errNotObject scanError = "body is not a JSON object"
	errNotString scanError = "field is not a string"
	errNotInt    scanError = "field is not an integer"
	errNotObj    scanError = "field is not an object"
	errBadDate   scanError = "eventTime.date is not YYYY-MM-DD HH:MM:SS[.ffffff]"
	errBadZone   scanError = "eventTime.timezone is unknown"
)

type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// value validates and skips one value at s.i.
func (s *scanner) value(depth int) error {
	switch c := s.peek(); c {
	case 0:
		return errEOF
	case '{':
		return s.object(depth+1, nil)
	case '[':
		return s.array(depth + 1)
	case '"':
		_, _, _, err := s.str()
		return err
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	default:
		_, _, err := s.number()
		return err
	}
}

func (s *scanner) lit(word string) error {
	if len(s.b)-s.i < len(word) {
		return errEOF
	}
	if string(s.b[s.i:s.i+len(word)]) != word {
		return errSyntax
	}
	s.i += len(word)
	return nil
}

// null consumes a null literal when one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' && s.lit("null") == nil {
		return true
	}
	return false
}

// object scans the object whose '{' is next. For each member it calls member
// with the key (content between the quotes, and whether it holds escapes) and
// s.i at the value, which member must consume; a nil member skips values.
func (s *scanner) object(depth int, member func(key []byte, esc bool) error) error {
	if depth > maxDepth {
		return errDepth
	}
	if s.peek() != '{' {
		return errNotObj
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		if s.peek() != '"' {
			return errSyntax
		}
		start, end, esc, err := s.str()
		if err != nil {
			return err
		}
		if s.peek() != ':' {
			return errSyntax
		}
		s.i++
		if member != nil {
			err = member(s.b[start:end], esc)
		} else {
			err = s.value(depth)
		}
		if err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return nil
		case 0:
			return errEOF
		default:
			return errSyntax
		}
	}
}

func (s *scanner) array(depth int) error {
	if depth > maxDepth {
		return errDepth
	}
	s.i++ // '['
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for {
		if err := s.value(depth); err != nil {
			return err
		}
		switch s.peek() {
		case ',':
			s.i++
		case ']':
			s.i++
			return nil
		case 0:
			return errEOF
		default:
			return errSyntax
		}
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plain8 reports whether none of the 8 bytes in x is a backslash or a
// control character.
func plain8(x uint64) bool {
	ctl := (x - lsb*0x20) &^ x
	bs := x ^ (lsb * '\\')
	bslash := (bs - lsb) &^ bs
	return (ctl|bslash)&msb == 0
}

// plain reports whether b holds no backslash and no control character.
func plain(b []byte) bool {
	for len(b) >= 16 {
		x := binary.LittleEndian.Uint64(b)
		y := binary.LittleEndian.Uint64(b[8:])
		if !plain8(x) || !plain8(y) {
			return false
		}
		b = b[16:]
	}
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return true
}

// str scans the string whose '"' is at s.i and returns the bounds of its
// content and whether it contains escapes.
func (s *scanner) str() (start, end int, esc bool, err error) {
	b := s.b
	start = s.i + 1
	// Fast path: the next quote ends the string and nothing before it needs
	// a closer look.
	if q := bytes.IndexByte(b[start:], '"'); q >= 0 && plain(b[start:start+q]) {
		s.i = start + q + 1
		return start, start + q, false, nil
	}
	for i := start; ; {
		if i >= len(b) {
			return 0, 0, false, errEOF
		}
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return start, i, esc, nil
		case c == '\\':
			esc = true
			n, err := escapeLen(b[i:])
			if err != nil {
				return 0, 0, false, err
			}
			i += n
		case c < 0x20:
			return 0, 0, false, errSyntax
		default:
			i++
		}
	}
}

// escapeLen validates the escape sequence at the start of b.
func escapeLen(b []byte) (int, error) {
	if len(b) < 2 {
		return 0, errEOF
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, nil
	case 'u':
		if len(b) < 6 {
			return 0, errEOF
		}
		for _, c := range b[2:6] {
			if !isHex(c) {
				return 0, errSyntax
			}
		}
		return 6, nil
	}
	return 0, errSyntax
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// number scans a number and reports its bounds.
func (s *scanner) number() (start, end int, err error) {
	b, i := s.b, s.i
	start = i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return 0, 0, errEOF
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	default:
		return 0, 0, errSyntax
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return 0, 0, errSyntax
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, 0, errSyntax
		}
		for i < len(b) && isDigit(b[i]) {
			i++
		}
	}
	s.i = i
	return start, i, nil
}

// integer scans a JSON integer into *dst; null leaves *dst alone.
func (s *scanner) integer(dst *int64) error {
	if s.null() {
		return nil
	}
	if c := s.peek(); c != '-' && !isDigit(c) {
		return errNotInt
	}
	start, end, err := s.number()
	if err != nil {
		return err
	}
	n, ok := parseInt(s.b[start:end])
	if !ok {
		return errNotInt
	}
	*dst = n
	return nil
}

// parseInt parses an optionally negative decimal integer that fits int64.
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	switch {
	case neg && n <= 1<<63:
		return int64(-n), true
	case !neg && n < 1<<63:
		return int64(n), true
	}
	return 0, false
}
