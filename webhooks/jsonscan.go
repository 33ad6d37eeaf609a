package webhooks

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// A small JSON scanner for event bodies. It validates the whole body with the
// grammar that encoding/json's Valid uses (so Event.Raw is always valid JSON)
// and extracts the few fields an Event carries in one pass, without
// reflection and without allocating: Verify runs it on every delivery.
//
// It is written for speed: strings are scanned 16 bytes per step for '"',
// '\\' and control characters together, white space is skipped only when
// there is some, and objects are walked with open, key and more in loops
// rather than with callbacks.

// maxDepth matches encoding/json's nesting limit: at most this many arrays
// and objects may be open at once.
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

// peek skips white space and returns the next byte, or 0 at the end.
func (s *scanner) peek() byte {
	if s.i < len(s.b) && s.b[s.i] > ' ' {
		return s.b[s.i]
	}
	return s.peekSlow()
}

func (s *scanner) peekSlow() byte {
	b, i := s.b, s.i
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			s.i = i
			return b[i]
		}
	}
	s.i = i
	return 0
}

// skip validates and skips one value after white space; depth is the
// number of containers open around it.
func (s *scanner) skip(depth int) error {
	switch c := s.peek(); c {
	case '"':
		_, _, err := s.str()
		return err
	case '{':
		return s.skipObject(depth + 1)
	case '[':
		return s.skipArray(depth + 1)
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	case 0:
		return errEOF
	default:
		_, err := s.number()
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

// open consumes the '{' that must come next (errNotObj otherwise) and
// reports whether the object has members; an empty object is consumed
// whole. depth counts the object itself.
func (s *scanner) open(depth int) (members bool, err error) {
	if depth > maxDepth {
		return false, errDepth
	}
	if s.peek() != '{' {
		return false, errNotObj
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return false, nil
	}
	return true, nil
}

// key reads a member name and its colon, leaving s.i before the value. The
// name is returned for comparison: the raw bytes, or the decoded name when
// it holds escapes.
func (s *scanner) key() ([]byte, error) {
	if s.peek() != '"' {
		return nil, errSyntax
	}
	start, esc, err := s.str()
	if err != nil {
		return nil, err
	}
	name := s.b[start : s.i-1]
	if s.peek() != ':' {
		return nil, errSyntax
	}
	s.i++
	if esc {
		u, err := unquote(name)
		return []byte(u), err
	}
	return name, nil
}

// more consumes the ',' or the closing byte (end) after a member or an
// element and reports whether another one follows.
func (s *scanner) more(end byte) (bool, error) {
	switch s.peek() {
	case ',':
		s.i++
		return true, nil
	case end:
		s.i++
		return false, nil
	case 0:
		return false, errEOF
	}
	return false, errSyntax
}

func (s *scanner) skipObject(depth int) error {
	more, err := s.open(depth)
	for more && err == nil {
		if _, err = s.key(); err != nil {
			break
		}
		if err = s.skip(depth); err != nil {
			break
		}
		more, err = s.more('}')
	}
	return err
}

func (s *scanner) skipArray(depth int) error {
	if depth > maxDepth {
		return errDepth
	}
	s.i++ // '['
	if s.peek() == ']' {
		s.i++
		return nil
	}
	for {
		if err := s.skip(depth); err != nil {
			return err
		}
		if more, err := s.more(']'); !more || err != nil {
			return err
		}
	}
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special8 marks with its high bit each byte of x that is '"', '\\' or a
// control character. Bits above the first marked byte may be spurious (a
// borrow); the lowest one is exact.
func special8(x uint64) uint64 {
	q := x ^ (lsb * '"')
	bs := x ^ (lsb * '\\')
	return ((q-lsb)&^q | (bs-lsb)&^bs | (x-lsb*0x20)&^x) & msb
}

// str scans the string whose '"' is at s.i, leaves s.i after its closing
// quote and returns where its content starts and whether it holds escapes.
// The content ends at s.i-1.
//
// The first 16 bytes are scanned 8 at a time for '"', '\\' and control
// characters together, which ends most strings of an event. Longer strings
// are scanned with bytes.IndexByte for the closing quote, which is
// vectorized, and then checked for '\\' and control characters 16 bytes per
// step without branches; only strings with escapes take the byte loop.
func (s *scanner) str() (start int, esc bool, err error) {
	b := s.b
	start = s.i + 1
	i := start
	if i+16 <= len(b) {
		m := special8(binary.LittleEndian.Uint64(b[i:]))
		if m == 0 {
			i += 8
			m = special8(binary.LittleEndian.Uint64(b[i:]))
		}
		if m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			if b[i] == '"' {
				s.i = i + 1
				return start, false, nil
			}
			return s.strSlow(start, i)
		}
		i += 8
		if q := bytes.IndexByte(b[i:], '"'); q >= 0 && plain(b[i:i+q]) {
			s.i = i + q + 1
			return start, false, nil
		}
	}
	return s.strSlow(start, i)
}

// strSlow finishes str byte by byte from i, where nothing before i needs a
// closer look.
func (s *scanner) strSlow(start, i int) (int, bool, error) {
	b, esc := s.b, false
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			s.i = i + 1
			return start, esc, nil
		case c == '\\':
			esc = true
			n, err := escapeLen(b[i:])
			if err != nil {
				return 0, false, err
			}
			i += n
		case c < 0x20:
			return 0, false, errSyntax
		default:
			i++
		}
	}
	return 0, false, errEOF
}

// plain reports whether b holds no backslash and no control character.
func plain(b []byte) bool {
	var acc, acc2 uint64
	for ; len(b) >= 16; b = b[16:] {
		x := binary.LittleEndian.Uint64(b)
		y := binary.LittleEndian.Uint64(b[8:])
		xs, ys := x^(lsb*'\\'), y^(lsb*'\\')
		acc |= (xs-lsb)&^xs | (x-lsb*0x20)&^x
		acc2 |= (ys-lsb)&^ys | (y-lsb*0x20)&^y
	}
	if (acc|acc2)&msb != 0 {
		return false
	}
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return true
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

func isDigit(c byte) bool { return c-'0' < 10 }

// digits returns the index of the first byte at or after i that is not a
// decimal digit.
func digits(b []byte, i int) int {
	for i < len(b) && b[i]-'0' < 10 {
		i++
	}
	return i
}

// number scans the number at s.i, leaves s.i after it and returns where it
// started.
func (s *scanner) number() (start int, err error) {
	b, i := s.b, s.i
	start = i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return 0, errEOF
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		i = digits(b, i+1)
	default:
		return 0, errSyntax
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return 0, errSyntax
		}
		i = digits(b, i+1)
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return 0, errSyntax
		}
		i = digits(b, i+1)
	}
	s.i = i
	return start, nil
}

// integer scans a JSON integer into *dst; null leaves *dst alone.
func (s *scanner) integer(dst *int64) error {
	if c := s.peek(); c != '-' && !isDigit(c) {
		if s.null() {
			return nil
		}
		return errNotInt
	}
	start, err := s.number()
	if err != nil {
		return err
	}
	n, ok := parseInt(s.b[start:s.i])
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
