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
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Hex answers n random bytes in hex.
func Hex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
