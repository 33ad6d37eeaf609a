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

// redactValue is redacted for a set secret and "" for an empty one.
func redactValue(secret string) string {
	if secret == "" {
		return ""
	}
	return redacted
}

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the secret never appears, whatever the verb, also when the
// subscription is printed inside another value. Its JSON encoding keeps the
// secret: programs store it to build a Verifier.
func (s Subscription) Format(f fmt.State, verb rune) {
	formatRedacted(f, verb, s.String(), s.GoString())
}

// LogValue implements slog.LogValuer: the subscription without its secret,
// which shows as "[redacted]", for every handler, JSON included.
func (s Subscription) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("ID", s.ID),
		slog.Int64("CustomerID", s.CustomerID),
		slog.Bool("IsActive", s.IsActive),
		slog.String("Secret", redactValue(s.Secret)),
		slog.String("Endpoint", s.Endpoint),
		slog.Any("EventTypes", s.EventTypes),
	)
}

// Interface checks.
var (
	_ fmt.Formatter  = Subscription{}
	_ slog.LogValuer = Subscription{}
	_ fmt.Formatter  = (*Verifier)(nil)
	_ fmt.GoStringer = (*Verifier)(nil)
	_ slog.LogValuer = (*Verifier)(nil)
)
