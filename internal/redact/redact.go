// Package redact holds what the SDK's types that carry a secret share to
// print and log it as "[redacted]": the mark itself, the body of their
// Format methods, and the two ways an empty secret still shows.
package redact

import (
	"fmt"
	"io"
)

// Mark stands in for a secret, a token or personal data wherever a value is
// printed or logged.
const Mark = "[redacted]"

// Format is the body of the Format methods of types holding a secret: %#v
// prints goString, every other verb prints str with the verb's flags, width
// and precision (%q quotes it, %x hex-encodes it), so that fmt never prints
// the fields by reflection. str and goString are already free of secrets.
func Format(f fmt.State, verb rune, str, goString string) {
	if verb == 'v' && f.Flag('#') {
		_, _ = io.WriteString(f, goString)
		return
	}
	if verb == 'v' || verb == 's' {
		verb = 's' // %+v is str as well: it already names the fields
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), str)
}

// Quoted is Mark for a set secret and `""` for an empty one, for String
// methods: a missing secret still shows.
func Quoted(secret string) string {
	if secret == "" {
		return `""`
	}
	return Mark
}

// Value is Mark for a set secret and "" for an empty one, for LogValue
// methods.
func Value(secret string) string {
	if secret == "" {
		return ""
	}
	return Mark
}
