package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
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
	mac := hmac.New(sha256.New, []byte(secret))
	writeSigned(mac, nil, ts, signedHeaders, h, body)
	return "t=" + ts + ",h=" + signedHeaders + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// signature is a parsed X-Event-Signature value. Its strings share memory
// with the header value.
type signature struct {
	t    string // as sent, digits only
	unix int64
	h    string // as sent
	v1   [maxSignatures][sha256.Size]byte
	n    int // number of v1 values
}

// sigError is a reason a signature header is malformed; Verify wraps it in
// ErrMalformedSignature.
type sigError string

func (e sigError) Error() string { return string(e) }

// parseSignature parses an X-Event-Signature value strictly: comma-separated
// key=value pairs without white space, t (decimal seconds), h (signed header
// names separated by single spaces) and v1 (64 hex digits, several allowed)
// present and non-empty, t and h once each. Other keys of the form v<digits>
// are later signature schemes and are ignored; any other key is an error.
func parseSignature(value string, sig *signature) error {
	if value == "" {
		return sigError("header missing or empty")
	}
	*sig = signature{}
	for pair := range strings.SplitSeq(value, ",") {
		k, v, ok := strings.Cut(pair, "=")
		if !ok || v == "" {
			return sigError("pair without value")
		}
		if err := sig.pair(k, v); err != nil {
			return err
		}
	}
	switch {
	case sig.t == "":
		return sigError("t missing")
	case sig.h == "":
		return sigError("h missing")
	case sig.n == 0:
		return sigError("v1 missing")
	}
	return nil
}

func (sig *signature) pair(k, v string) error {
	switch {
	case k == "t":
		if sig.t != "" {
			return sigError("t repeated")
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || !allDigits(v) || len(v) > 18 { // far beyond any tolerance
			return sigError("t is not a decimal timestamp")
		}
		sig.t, sig.unix = v, n
	case k == "h":
		if sig.h != "" {
			return sigError("h repeated")
		}
		if v != signedHeaders && !validHeaderList(v) {
			return sigError("h is not a space-separated list of header names")
		}
		sig.h = v
	case k == "v1":
		if sig.n == maxSignatures {
			return sigError("too many v1 values")
		}
		if len(v) != 2*sha256.Size {
			return sigError("v1 is not 64 hex digits")
		}
		if _, err := hex.Decode(sig.v1[sig.n][:], []byte(v)); err != nil {
			return sigError("v1 is not 64 hex digits")
		}
		sig.n++
	case len(k) > 1 && k[0] == 'v' && allDigits(k[1:]):
		// A signature scheme this package does not know; v1 decides.
	default:
		return sigError("unknown key")
	}
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return len(s) > 0
}

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
	if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// headerValue returns the first value of the header name, matched
// case-insensitively, also among keys set on the map without
// canonicalizing them.
func headerValue(h http.Header, name string) (string, bool) {
	if vs := h[name]; len(vs) > 0 { // name is canonical already, as the constants are
		return vs[0], true
	}
	if vs := h[http.CanonicalHeaderKey(name)]; len(vs) > 0 {
		return vs[0], true
	}
	for k, vs := range h {
		if len(vs) > 0 && strings.EqualFold(k, name) {
			return vs[0], true
		}
	}
	return "", false
}

// writeSigned writes the signed string, t "." h "." values "." body, into
// mac, building its head in buf. It reports false when a header named in h
// is missing from the request (Sign signs it as empty).
func writeSigned(mac hash.Hash, buf []byte, t, names string, h http.Header, body []byte) bool {
	all := true
	buf = append(append(append(buf[:0], t...), '.'), names...)
	add := func(name string) {
		v, ok := headerValue(h, name)
		all = all && ok
		buf = append(append(buf, '.'), v...)
	}
	if names == signedHeaders { // what the platform sends: canonical names, no folding
		add("Content-Type")
		add(EventIDHeader)
		add(EventTypeHeader)
	} else {
		for name := range strings.SplitSeq(names, " ") {
			add(name)
		}
	}
	mac.Write(append(buf, '.'))
	mac.Write(body)
	return all
}
