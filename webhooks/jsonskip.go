package webhooks

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// The lexical half of the event scanner: validating and skipping values the
// Event does not carry, and the string, number and literal tokens. These are
// plain functions of (b, i) rather than methods, so that the position stays
// in a register across a whole skipped value.

// skipValue validates the JSON value at b[i] (after white space) and returns
// the index just after it. depth is the number of containers open around
// the value. Nested containers are walked in one loop that keeps their kinds
// in a bit stack, rather than by a call per value; only a value nested more
// than 64 levels inside the skipped one costs a recursive call.
func skipValue(b []byte, i, depth int) (int, error) {
	var objects uint64 // bit 0: the innermost open container is an object
	open := 0          // containers opened by this call
	var err error
	for {
		// A value starts at i.
		if i = space(b, i); i >= len(b) {
			return i, errEOF
		}
		switch c := b[i]; c {
		case '"':
			i, _, err = scanString(b, i)
		case '{', '[':
			if depth+open+1 > maxDepth {
				return i, errDepth
			}
			if open == 64 {
				i, err = skipValue(b, i, depth+open)
				break
			}
			if i = space(b, i+1); i < len(b) && b[i] == c+2 { // '}' and ']' follow '{' and '[' by 2
				i++
				break
			}
			objects <<= 1
			open++
			if c == '{' {
				objects |= 1
				if i, err = memberName(b, i); err != nil {
					return i, err
				}
			}
			continue
		case 't':
			i, err = literal(b, i, "true")
		case 'f':
			i, err = literal(b, i, "false")
		case 'n':
			i, err = literal(b, i, "null")
		default:
			i, err = scanNumber(b, i)
		}
		if err != nil {
			return i, err
		}
		// After a value: close the containers that end here, then move to
		// the next element or member.
		for {
			if open == 0 {
				return i, nil
			}
			if i = space(b, i); i >= len(b) {
				return i, errEOF
			}
			inObject := objects&1 != 0
			switch b[i] {
			case ',':
				if inObject {
					i, err = memberName(b, i+1)
				} else {
					i++
				}
				if err != nil {
					return i, err
				}
			case '}', ']':
				if inObject != (b[i] == '}') {
					return i, errSyntax
				}
				i++
				objects >>= 1
				open--
				continue
			default:
				return i, errSyntax
			}
			break
		}
	}
}

// memberName scans a member name and its colon at b[i] (after white space)
// and returns the index after the colon.
func memberName(b []byte, i int) (int, error) {
	if i = space(b, i); i >= len(b) {
		return i, errEOF
	}
	if b[i] != '"' {
		return i, errSyntax
	}
	i, _, err := scanString(b, i)
	if err != nil {
		return i, err
	}
	if i = space(b, i); i >= len(b) {
		return i, errEOF
	}
	if b[i] != ':' {
		return i, errSyntax
	}
	return i + 1, nil
}

// space returns the index of the first byte at or after i that is not JSON
// white space.
func space(b []byte, i int) int {
	if i < len(b) && b[i] > ' ' {
		return i
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return i
		}
	}
	return i
}

// literal checks that word (true, false or null) is at b[i] and returns
// the index after it.
func literal(b []byte, i int, word string) (int, error) {
	if len(b)-i < len(word) {
		return i, errEOF
	}
	if string(b[i:i+len(word)]) != word {
		return i, errSyntax
	}
	return i + len(word), nil
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

// scanString scans the string whose '"' is at b[q] and returns the index
// after its closing quote and whether it holds escapes. Its content is
// b[q+1 : end-1].
//
// The first 32 bytes are scanned 8 at a time for '"', '\\' and control
// characters together, which ends most strings of an event. Longer strings
// are scanned with bytes.IndexByte for the closing quote, which is
// vectorized, and then checked by plain; only strings with escapes take the
// byte loop.
func scanString(b []byte, q int) (end int, esc bool, err error) {
	i := q + 1
	if i+32 > len(b) {
		return stringTail(b, i)
	}
	for stop := i + 32; i < stop; i += 8 {
		if m := special8(binary.LittleEndian.Uint64(b[i:])); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			if b[i] == '"' {
				return i + 1, false, nil
			}
			return stringTail(b, i)
		}
	}
	if n := bytes.IndexByte(b[i:], '"'); n >= 0 && plain(b[i:i+n]) {
		return i + n + 1, false, nil
	}
	return stringTail(b, i)
}

// stringTail finishes scanString byte by byte from i, where nothing before
// i needs a closer look.
func stringTail(b []byte, i int) (int, bool, error) {
	esc := false
	for i < len(b) {
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			n, err := escapeLen(b[i:])
			if err != nil {
				return i, false, err
			}
			i += n
		case c < 0x20:
			return i, false, errSyntax
		default:
			i++
		}
	}
	return i, false, errEOF
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

// scanNumber scans the number at b[i] and returns the index after it.
func scanNumber(b []byte, i int) (int, error) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i >= len(b):
		return i, errEOF
	case b[i] == '0':
		i++
	case isDigit(b[i]):
		i = digits(b, i+1)
	default:
		return i, errSyntax
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || !isDigit(b[i]) {
			return i, errSyntax
		}
		i = digits(b, i+1)
	}
	if i < len(b) && b[i]|0x20 == 'e' {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || !isDigit(b[i]) {
			return i, errSyntax
		}
		i = digits(b, i+1)
	}
	return i, nil
}
