package redact

import (
	"fmt"
	"testing"
)

type secretful struct{ secret string }

func (s secretful) String() string   { return "S{" + Quoted(s.secret) + "}" }
func (s secretful) GoString() string { return "pkg.S{" + Quoted(s.secret) + "}" }
func (s secretful) Format(f fmt.State, verb rune) {
	Format(f, verb, s.String(), s.GoString())
}

func TestFormatNeverPrintsTheFields(t *testing.T) {
	s := secretful{secret: "hunter2"}
	for _, tc := range []struct{ format, want string }{
		{"%v", "S{[redacted]}"},
		{"%+v", "S{[redacted]}"},
		{"%s", "S{[redacted]}"},
		{"%#v", "pkg.S{[redacted]}"},
		{"%q", `"S{[redacted]}"`},
		{"%x", fmt.Sprintf("%x", "S{[redacted]}")},
		{"%16v", "   S{[redacted]}"},
		{"%d", "%!d(string=S{[redacted]})"},
	} {
		if got := fmt.Sprintf(tc.format, s); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.format, got, tc.want)
		}
	}
}

func TestEmptySecretStillShows(t *testing.T) {
	for _, tc := range []struct{ secret, quoted, value string }{
		{"", `""`, ""},
		{"x", Mark, Mark},
	} {
		if got := Quoted(tc.secret); got != tc.quoted {
			t.Errorf("Quoted(%q) = %q, want %q", tc.secret, got, tc.quoted)
		}
		if got := Value(tc.secret); got != tc.value {
			t.Errorf("Value(%q) = %q, want %q", tc.secret, got, tc.value)
		}
	}
}
