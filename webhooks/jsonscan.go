package webhooks

import (
	"encoding/binary"
	"math/bits"
)

// A small JSON scanner for event bodies. It extracts the few fields an Event
// carries in one pass, without reflection and without allocating, and checks
// everything it reads with the grammar that encoding/json's Valid uses;
// decode (decode.go) decides how far it reads. Verify runs it on every
// delivery.
//
// It is written for speed: the fields an Event carries are found with open,
// key and more in loops rather than with callbacks, member names are
// identified from one or two loaded words, and every other value is
// validated by skipValue (jsonskip.go) in a single loop.

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
	i := space(s.b, s.i)
	s.i = i
	if i < len(s.b) {
		return s.b[i]
	}
	return 0
}

// skip validates and skips one value after white space; depth is the
// number of containers open around it.
func (s *scanner) skip(depth int) error {
	i, err := skipValue(s.b, s.i, depth)
	s.i = i
	return err
}

// null consumes a null literal when one comes next.
func (s *scanner) null() bool {
	if s.peek() == 'n' {
		if i, err := literal(s.b, s.i, "null"); err == nil {
			s.i = i
			return true
		}
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

// members walks the members of one object. s.object opens it; each call
// of next(s) reads the next member's name into key and leaves s.i before its
// value, which the caller reads, storing the outcome in err. next reports
// false at the object's end or once err is set. (It holds no *scanner, so
// that returning err does not make the scanner escape.)
type members struct {
	key   keyword
	err   error
	more  bool // another member follows
	begun bool // next has read a member name
}

// object opens the object that must come next; depth counts the object
// itself.
func (s *scanner) object(depth int) members {
	var m members
	m.more, m.err = s.open(depth)
	return m
}

// next moves past the ',' or '}' after the previous member's value and
// reads the next member's name.
func (m *members) next(s *scanner) bool {
	if m.err != nil {
		return false
	}
	if m.begun && !s.comma() {
		if m.more, m.err = s.more('}'); m.err != nil {
			return false
		}
	}
	m.begun = true
	if !m.more {
		return false
	}
	m.key, m.err = s.key()
	return m.err == nil
}

// keyword identifies a member name the decoder looks for; kwOther is any
// other name.
type keyword uint8

const (
	kwOther keyword = iota
	kwTopic
	kwEventType
	kwEventTime
	kwPayload
	kwID
	kwCaseFile
	kwStatus
	kwDate
	kwTimezoneType
	kwTimezone
	kwMessage
)

// Member names as little-endian words: w8 holds the first 8 bytes, w the
// rest (or the whole name when it is shorter), zero-padded.
const (
	wID       = 'i' | 'd'<<8
	wDate     = 'd' | 'a'<<8 | 't'<<16 | 'e'<<24
	wTopic    = 't' | 'o'<<8 | 'p'<<16 | 'i'<<24 | 'c'<<32
	wStatus   = 's' | 't'<<8 | 'a'<<16 | 't'<<24 | 'u'<<32 | 's'<<40
	wPayload  = 'p' | 'a'<<8 | 'y'<<16 | 'l'<<24 | 'o'<<32 | 'a'<<40 | 'd'<<48
	wMessage  = 'm' | 'e'<<8 | 's'<<16 | 's'<<24 | 'a'<<32 | 'g'<<40 | 'e'<<48
	w8Case    = 'c' | 'a'<<8 | 's'<<16 | 'e'<<24 | 'F'<<32 | 'i'<<40 | 'l'<<48 | 'e'<<56
	w8Zone    = 't' | 'i'<<8 | 'm'<<16 | 'e'<<24 | 'z'<<32 | 'o'<<40 | 'n'<<48 | 'e'<<56
	w8EvTyp   = 'e' | 'v'<<8 | 'e'<<16 | 'n'<<24 | 't'<<32 | 'T'<<40 | 'y'<<48 | 'p'<<56
	w8EvTim   = 'e' | 'v'<<8 | 'e'<<16 | 'n'<<24 | 't'<<32 | 'T'<<40 | 'i'<<48 | 'm'<<56
	wE        = 'e'
	wZoneType = '_' | 't'<<8 | 'y'<<16 | 'p'<<24 | 'e'<<32
)

// shortKeyword identifies a name of fewer than 8 bytes from its word.
func shortKeyword(w uint64) keyword {
	switch w {
	case wID:
		return kwID
	case wDate:
		return kwDate
	case wTopic:
		return kwTopic
	case wStatus:
		return kwStatus
	case wPayload:
		return kwPayload
	case wMessage:
		return kwMessage
	}
	return kwOther
}

// longKeyword identifies a name of 8 to 15 bytes from its two words.
func longKeyword(w8, w uint64) keyword {
	switch {
	case w8 == w8Case && w == 0:
		return kwCaseFile
	case w8 == w8Zone && w == 0:
		return kwTimezone
	case w8 == w8Zone && w == wZoneType:
		return kwTimezoneType
	case w8 == w8EvTyp && w == wE:
		return kwEventType
	case w8 == w8EvTim && w == wE:
		return kwEventTime
	}
	return kwOther
}

// nameKeyword identifies a name by comparison; the slow path of key.
func nameKeyword(name string) keyword {
	switch name {
	case "topic":
		return kwTopic
	case "eventType":
		return kwEventType
	case "eventTime":
		return kwEventTime
	case "payload":
		return kwPayload
	case "id":
		return kwID
	case "caseFile":
		return kwCaseFile
	case "status":
		return kwStatus
	case "date":
		return kwDate
	case "timezone_type":
		return kwTimezoneType
	case "timezone":
		return kwTimezone
	case "message":
		return kwMessage
	}
	return kwOther
}

// key reads a member name and its colon, leaving s.i before the value, and
// identifies the name. Names of up to 15 bytes without escapes, followed
// by their colon, are read as one or two words and identified without a
// byte loop or a string comparison.
func (s *scanner) key() (keyword, error) {
	b, i := s.b, s.i
	if i+18 <= len(b) && b[i] == '"' {
		w0 := binary.LittleEndian.Uint64(b[i+1:])
		w1 := binary.LittleEndian.Uint64(b[i+9:])
		if m := special8(w0); m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			if quoteColon(w0, w1, n) {
				s.i = i + 3 + n
				return shortKeyword(w0 & (1<<(8*n) - 1)), nil
			}
		} else if m := special8(w1); m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			if quoteColon(w1, uint64(b[i+17]), n) {
				s.i = i + 11 + n
				return longKeyword(w0, w1&(1<<(8*n)-1)), nil
			}
		}
	}
	return s.keySlow()
}

// quoteColon reports whether byte n of w (0 to 7) is '"' and the byte after
// it, in w or else the first byte of next, is ':'; it reads the bytes from
// the registers rather than from memory again. (A shift by 64 gives 0.)
func quoteColon(w, next uint64, n int) bool {
	return uint16(w>>(8*n)|next<<(64-8*n)) == '"'|':'<<8
}

// keySlow is key for names with escapes, long names, white space before the
// colon and the end of the body.
func (s *scanner) keySlow() (keyword, error) {
	if s.peek() != '"' {
		return kwOther, errSyntax
	}
	start, esc, err := s.str()
	if err != nil {
		return kwOther, err
	}
	name := s.b[start : s.i-1]
	if s.peek() != ':' {
		return kwOther, errSyntax
	}
	s.i++
	if esc {
		u, err := unquote(name)
		return nameKeyword(u), err
	}
	return nameKeyword(string(name)), nil
}

// comma consumes a ',' that comes next without white space.
func (s *scanner) comma() bool {
	if i := s.i; i < len(s.b) && s.b[i] == ',' {
		s.i = i + 1
		return true
	}
	return false
}

// more consumes the ',' or the closing byte (end) after a member or an
// element and reports whether another one follows.
// Loops call comma first, which is inlined and consumes the ',' that
// usually follows directly.
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

// str scans the string whose '"' is at s.i, leaves s.i after its closing
// quote and returns where its content starts and whether it holds escapes.
// The content ends at s.i-1.
func (s *scanner) str() (start int, esc bool, err error) {
	start = s.i + 1
	end, esc, err := scanString(s.b, s.i)
	if err != nil {
		return 0, false, err
	}
	s.i = end
	return start, esc, nil
}

// number scans the number at s.i, leaves s.i after it and returns where it
// started.
func (s *scanner) number() (start int, err error) {
	start = s.i
	end, err := scanNumber(s.b, s.i)
	if err != nil {
		return 0, err
	}
	s.i = end
	return start, nil
}

// integer scans a JSON integer into *dst; null leaves *dst alone. A
// positive integer of up to 18 digits is read in one pass.
func (s *scanner) integer(dst *int64) error {
	if b, i := s.b, s.i; i < len(b) && b[i]-'1' < 9 {
		var n uint64
		j := i
		for ; j < len(b) && j-i < 18 && b[j]-'0' < 10; j++ {
			n = n*10 + uint64(b[j]-'0')
		}
		if j < len(b) && b[j]-'0' >= 10 && b[j] != '.' && b[j]|0x20 != 'e' {
			s.i = j
			*dst = int64(n)
			return nil
		}
	}
	return s.integerSlow(dst)
}

func (s *scanner) integerSlow(dst *int64) error {
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
