package subscriptions

import (
	"fmt"
	"log/slog"

	"github.com/signkit/signkit-go/internal/redact"
)

// String describes s without its secret.
func (s Subscription) String() string {
	return fmt.Sprintf("subscriptions.Subscription{ID:%q, CustomerID:%d, IsActive:%t, Secret:%s, Endpoint:%q, EventTypes:%v}",
		s.ID, s.CustomerID, s.IsActive, redact.Quoted(s.Secret), s.Endpoint, s.EventTypes)
}

// GoString is String, so that %#v does not print the secret either.
func (s Subscription) GoString() string { return s.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the secret never appears, whatever the verb, also when the
// subscription is printed inside another value. Its JSON encoding keeps the
// secret: programs store it to build a webhooks.Verifier.
func (s Subscription) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, s.String(), s.GoString())
}

// LogValue implements slog.LogValuer: the subscription without its secret,
// which shows as "[redacted]", for every handler, JSON included.
func (s Subscription) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("ID", s.ID),
		slog.Int64("CustomerID", s.CustomerID),
		slog.Bool("IsActive", s.IsActive),
		slog.String("Secret", redact.Value(s.Secret)),
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
