// Package ids makes the random identifiers the mock server hands out:
// UUIDs for forms, requests, events and subscriptions, hex for secrets.
package ids

import (
	"crypto/rand"
	"encoding/hex"
)

// UUID answers a random (version 4) UUID in lower case.
func UUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte // 8-4-4-4-12 hex digits; one allocation, for the string
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}

// Hex answers n random bytes in hex.
func Hex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
