package webhooks

import (
	"fmt"
	"io"
	"log/slog"
)

// redacted stands in for a webhook secret wherever a value of this package
// is printed or logged.
const redacted = "[redacted]"

// formatRedacted is the body of the Format methods of types holding a
// secret: %#v prints goString, every other verb prints str with the verb's
// flags, width and precision (%q quotes it, %x hex-encodes it), so that fmt
// never prints the fields by reflection. str and goString are already free
// of secrets.
func formatRedacted(f fmt.State, verb rune, str, goString string) {
	if verb == 'v' && f.Flag('#') {
		_, _ = io.WriteString(f, goString)
		return
	}
	if verb == 'v' || verb == 's' {
		verb = 's' // %+v is str as well: it already names the fields
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), str)
}

// Interface checks.
var (
	_ fmt.Formatter  = (*Verifier)(nil)
	_ fmt.GoStringer = (*Verifier)(nil)
	_ slog.LogValuer = (*Verifier)(nil)
)
