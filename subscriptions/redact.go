package subscriptions

import (
	"fmt"
	"io"
	"log/slog"
)

// redacted stands in for a webhook secret wherever a Subscription is
// printed or logged.
const redacted = "[redacted]"

// String describes s without its secret.
func (s Subscription) String() string {
	secret := `""`
	if s.Secret != "" {
		secret = redacted
	}
	return fmt.Sprintf("subscriptions.Subscription{ID:%q, CustomerID:%d, IsActive:%t, Secret:%s, Endpoint:%q, EventTypes:%v}",
		s.ID, s.CustomerID, s.IsActive, secret, s.Endpoint, s.EventTypes)
}

// GoString is String, so that %#v does not print the secret either.
func (s Subscription) GoString() string { return s.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the secret never appears, whatever the verb, also when the
// subscription is printed inside another value. Its JSON encoding keeps the
// secret: programs store it to build a webhooks.Verifier.
func (s Subscription) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = io.WriteString(f, s.GoString())
		return
	}
	if verb == 'v' || verb == 's' {
		verb = 's' // %+v is String as well: it already names the fields
	}
	// With the verb's flags, width and precision: %q quotes String, %x
	// hex-encodes it; fmt never prints the fields by reflection.
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), s.String())
}

// LogValue implements slog.LogValuer: the subscription without its secret,
// which shows as "[redacted]", for every handler, JSON included.
func (s Subscription) LogValue() slog.Value {
	secret := ""
	if s.Secret != "" {
		secret = redacted
	}
	return slog.GroupValue(
		slog.String("ID", s.ID),
		slog.Int64("CustomerID", s.CustomerID),
		slog.Bool("IsActive", s.IsActive),
		slog.String("Secret", secret),
		slog.String("Endpoint", s.Endpoint),
		slog.Any("EventTypes", s.EventTypes),
	)
}

// Interface checks.
var (
	_ fmt.Formatter  = Subscription{}
	_ fmt.Stringer   = Subscription{}
	_ fmt.GoStringer = Subscription{}
	_ slog.LogValuer = Subscription{}
)
