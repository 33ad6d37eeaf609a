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

func (s *scanner) skipObject(depth int) error {
	more, err := s.open(depth)
	for more && err == nil {
		if _, err = s.key(); err != nil {
			break
		}
		if err = s.skip(depth); err != nil {
			break
		}
		if !s.comma() {
			more, err = s.more('}')
		}
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
		if s.comma() {
			continue
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
// The first 32 bytes are scanned 8 at a time for '"', '\\' and control
// characters together, which ends most strings of an event. Longer strings
// are scanned with bytes.IndexByte for the closing quote, which is
// vectorized, and then checked by plain; only strings with escapes take the
// byte loop.
func (s *scanner) str() (start int, esc bool, err error) {
	b := s.b
	start = s.i + 1
	i := start
	if i+32 > len(b) {
		return s.strSlow(start, i)
	}
	for end := i + 32; i < end; i += 8 {
		if m := special8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			if b[i] == '"' {
				s.i = i + 1
				return start, false, nil
			}
			return s.strSlow(start, i)
		}
	}
	if q := bytes.IndexByte(b[i:], '"'); q >= 0 && plain(b[i:i+q]) {
		s.i = i + q + 1
		return start, false, nil
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
// The backslash is looked for with bytes.IndexByte, which is vectorized,
// control characters 32 bytes per step without branches.
func plain(b []byte) bool {
	if bytes.IndexByte(b, '\\') >= 0 {
		return false
	}
	var a0, a1, a2, a3 uint64
	for ; len(b) >= 32; b = b[32:] {
		x0 := binary.LittleEndian.Uint64(b[0:8])
		x1 := binary.LittleEndian.Uint64(b[8:16])
		x2 := binary.LittleEndian.Uint64(b[16:24])
		x3 := binary.LittleEndian.Uint64(b[24:32])
		a0 |= (x0 - lsb*0x20) &^ x0
		a1 |= (x1 - lsb*0x20) &^ x1
		a2 |= (x2 - lsb*0x20) &^ x2
		a3 |= (x3 - lsb*0x20) &^ x3
	}
	if (a0|a1|a2|a3)&msb != 0 {
		return false
	}
	for _, c := range b {
		if c < 0x20 {
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
