package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// signedHeaders is the h value the platform sends: the headers it signs, in
// order.
const signedHeaders = "content-type x-event-id x-event-type"

// maxSignatures bounds the v1 values one header may carry (one per secret
// that is valid during a rotation).
const maxSignatures = 8

// Sign returns the X-Event-Signature value for a delivery of body with the
// headers h, signed with secret at time t, as the platform computes it:
//
//	t=<unix seconds>,h=content-type x-event-id x-event-type,v1=<hex>
//
// where v1 is the hex HMAC-SHA256, keyed with secret, of t, ".", the h value,
// ".", the values of the Content-Type, X-Event-Id and X-Event-Type headers
// joined by ".", ".", and the raw body. Set those three headers on h before
// signing: a header missing from h is signed as empty, and a Verifier rejects
// a delivery that lacks a signed header.
func Sign(secret string, t time.Time, h http.Header, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	sig := signature{t: ts, h: signedHeaders}
	w := macWriter{mac: hmac.New(sha256.New, []byte(secret))}
	_ = w.writeSigned(&sig, h, body, new(signedValues))
	sum := w.mac.Sum(nil)
	return "t=" + ts + ",h=" + signedHeaders + ",v1=" + hex.EncodeToString(sum)
}

// signature is a parsed X-Event-Signature value. Its strings share memory
// with the header value.
type signature struct {
	t    string // as sent, digits only
	unix int64
	h    string // as sent
	v1   [maxSignatures]string
	n    int // number of v1 values
}

// parseSignature parses an X-Event-Signature value strictly: comma-separated
// key=value pairs without white space, t (decimal seconds), h (signed header
// names separated by single spaces) and v1 (64 hex digits, several allowed)
// present and non-empty, t and h once each. Other keys of the form v<digits>
// are later signature schemes and are ignored; any other key is an error.
// Errors are constant strings; Verify wraps them in ErrMalformedSignature.
func parseSignature(value string, sig *signature) error {
	if value == "" {
		return scanError("header missing or empty")
	}
	*sig = signature{}
	for i := 0; ; i++ {
		k := i
		for i < len(value) && value[i] != '=' && value[i] != ',' {
			i++
		}
		if i == len(value) || value[i] == ',' {
			return scanError("pair without value")
		}
		key := value[k:i]
		i++
		end := strings.IndexByte(value[i:], ',')
		if end < 0 {
			end = len(value) - i
		}
		if err := sig.pair(key, value[i:i+end]); err != nil {
			return err
		}
		if i += end; i == len(value) {
			break
		}
	}
	switch {
	case sig.t == "":
		return scanError("t missing")
	case sig.h == "":
		return scanError("h missing")
	case sig.n == 0:
		return scanError("v1 missing")
	}
	return nil
}

func (sig *signature) pair(k, v string) error {
	if v == "" {
		return scanError("pair without value")
	}
	switch {
	case k == "t":
		if sig.t != "" {
			return scanError("t repeated")
		}
		n, ok := parseUnix(v)
		if !ok {
			return scanError("t is not a decimal timestamp")
		}
		sig.t, sig.unix = v, n
	case k == "h":
		if sig.h != "" {
			return scanError("h repeated")
		}
		if v != signedHeaders && !validHeaderList(v) {
			return scanError("h is not a space-separated list of header names")
		}
		sig.h = v
	case k == "v1":
		if len(v) != 2*sha256.Size || !allHex(v) {
			return scanError("v1 is not 64 hex digits")
		}
		if sig.n == maxSignatures {
			return scanError("too many v1 values")
		}
		sig.v1[sig.n] = v
		sig.n++
	case len(k) > 1 && k[0] == 'v' && allDigits(k[1:]):
		// A signature scheme this package does not know; v1 decides.
	default:
		return scanError("unknown key")
	}
	return nil
}

// parseUnix parses 1 to 18 decimal digits (which cannot overflow int64).
func parseUnix(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, false
		}
		n = n*10 + int64(c)
	}
	return n, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return len(s) > 0
}

func allHex(s string) bool {
	for ; len(s) >= 8; s = s[8:] {
		if !hex8(uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56) {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if hexValue[s[i]] > 15 {
			return false
		}
	}
	return true
}

// hex8 reports whether all 8 bytes of x are hex digits. Each byte is
// compared in its low 7 bits, where adding up to 0x7f carries into no other
// byte.
func hex8(x uint64) bool {
	const l7 = 0x7f7f7f7f7f7f7f7f
	y := x & l7
	low := y | lsb*0x20 // 'A'-'F' as 'a'-'f'
	digit := (y + lsb*(0x80-'0')) &^ (y + lsb*(0x80-'9'-1))
	letter := (low + lsb*(0x80-'a')) &^ (low + lsb*(0x80-'f'-1))
	return (digit|letter)&msb == msb && x&msb == 0
}

// hexValue maps hex digits to their value and every other byte to 0xff.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i, c := range "0123456789abcdef" {
		t[c] = byte(i)
		if c >= 'a' {
			t[c-'a'+'A'] = byte(i)
		}
	}
	return t
}()

// validHeaderList accepts header names (HTTP token characters) separated by
// single spaces.
func validHeaderList(s string) bool {
	for name := range strings.SplitSeq(s, " ") {
		if name == "" {
			return false
		}
		for i := 0; i < len(name); i++ {
			if !isTokenChar(name[i]) {
				return false
			}
		}
	}
	return true
}

func isTokenChar(c byte) bool {
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || isDigit(c) {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// headerValue returns the first value of the header name, matched
// case-insensitively, without allocating in the common case.
func headerValue(h http.Header, name string) (string, bool) {
	var buf [64]byte
	if len(name) <= len(buf) {
		b := buf[:len(name)]
		upper := true
		for i := 0; i < len(name); i++ {
			c := name[i]
			if upper && 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			} else if !upper && 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b[i] = c
			upper = c == '-'
		}
		if vs, ok := h[string(b)]; ok && len(vs) > 0 {
			return vs[0], true
		}
	}
	for k, vs := range h { // keys set on the map without canonicalizing
		if len(vs) > 0 && strings.EqualFold(k, name) {
			return vs[0], true
		}
	}
	return "", false
}

// canonicalValue is headerValue for a name in canonical form, such as the
// package's header name constants: one map lookup in the common case.
func canonicalValue(h http.Header, name string) (string, bool) {
	if vs, ok := h[name]; ok && len(vs) > 0 {
		return vs[0], true
	}
	return headerValue(h, name)
}

// macWriter feeds strings into a MAC through a fixed buffer, so that no
// string is converted (and copied) into a new byte slice.
type macWriter struct {
	mac hash.Hash
	buf [256]byte
	n   int
	sum [sha256.Size]byte
}

func (w *macWriter) str(s string) {
	for len(s) > 0 {
		if w.n == len(w.buf) {
			w.flush()
		}
		c := copy(w.buf[w.n:], s)
		w.n += c
		s = s[c:]
	}
}

func (w *macWriter) byte(c byte) {
	if w.n == len(w.buf) {
		w.flush()
	}
	w.buf[w.n] = c
	w.n++
}

func (w *macWriter) flush() {
	w.mac.Write(w.buf[:w.n])
	w.n = 0
}

// missingHeader is returned by writeSigned when a header named in h is not
// in the request.
const missingHeader = scanError("a header named in h is missing")

// signedValues are the values of the headers that events carry, found
// while writing the signed headers into the MAC.
type signedValues struct {
	id, typ       string
	haveID, haveT bool
}

// writeSigned writes t "." h "." values "." body into the MAC. It stops with
// missingHeader when a named header is absent (Sign signs it as empty). It
// records in hv the event id and type when h names them.
func (w *macWriter) writeSigned(sig *signature, h http.Header, body []byte, hv *signedValues) error {
	var err error
	w.str(sig.t)
	w.byte('.')
	w.str(sig.h)
	if sig.h == signedHeaders { // what the platform sends: no name to fold
		ct, ok1 := canonicalValue(h, "Content-Type")
		hv.id, hv.haveID = canonicalValue(h, EventIDHeader)
		hv.typ, hv.haveT = canonicalValue(h, EventTypeHeader)
		if !ok1 || !hv.haveID || !hv.haveT {
			err = missingHeader
		}
		w.byte('.')
		w.str(ct)
		w.byte('.')
		w.str(hv.id)
		w.byte('.')
		w.str(hv.typ)
	} else {
		for name := range strings.SplitSeq(sig.h, " ") {
			w.byte('.')
			v, ok := headerValue(h, name)
			if !ok {
				err = missingHeader
			}
			w.str(v)
		}
	}
	w.byte('.')
	w.flush()
	w.mac.Write(body)
	return err
}

// decodeHex decodes 64 hex digits (checked by parseSignature) into dst,
// 8 digits per step: a digit's value is its low nibble, plus 9 for a
// letter (bit 6 set), and the nibbles of each pair are then packed into
// one byte.
func decodeHex(dst *[sha256.Size]byte, s string) {
	_ = s[2*sha256.Size-1]
	for k := 0; k < len(dst); k += 4 {
		j := 2 * k
		x := uint64(s[j]) | uint64(s[j+1])<<8 | uint64(s[j+2])<<16 | uint64(s[j+3])<<24 |
			uint64(s[j+4])<<32 | uint64(s[j+5])<<40 | uint64(s[j+6])<<48 | uint64(s[j+7])<<56
		v := x&(lsb*0x0f) + (x>>6)&lsb*9
		v = (v<<4 | v>>8) & 0x00ff00ff00ff00ff
		v = (v | v>>8) & 0x0000ffff0000ffff
		binary.LittleEndian.PutUint32(dst[k:], uint32(v|v>>16))
	}
}
