package auth

import (
	"fmt"
	"log/slog"

	"github.com/signkit/signkit-go/internal/redact"
)

// Format implements fmt.Formatter so that every verb, not only %v and %s,
// prints String (and %#v GoString): the secrets never appear.
func (c Credentials) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.String(), c.GoString())
}

// LogValue implements slog.LogValuer: the client id and API key, and the
// secrets as "[redacted]" (or "" when empty), for every handler, JSON
// included.
func (c Credentials) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("ClientID", c.ClientID),
		slog.String("ClientSecret", redact.Value(c.ClientSecret)),
		slog.String("APIKey", c.APIKey),
		slog.String("APISecret", redact.Value(c.APISecret)),
	)
}

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the access token never appears.
func (t Token) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, t.String(), t.GoString())
}

// LogValue implements slog.LogValuer: the expiry, and the access token as
// "[redacted]".
func (t Token) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("AccessToken", redact.Value(t.AccessToken)),
		slog.Time("ExpiresAt", t.ExpiresAt),
	)
}

// String describes the token source by its token URL, client id and API
// key; the secrets and the cached token are never shown.
func (ts *TokenSource) String() string {
	if ts == nil {
		return "<nil>"
	}
	return fmt.Sprintf("auth.TokenSource{URL:%q, ClientID:%q, APIKey:%q, ClientSecret:%s, APISecret:%s}",
		ts.tokenURL, ts.creds.ClientID, ts.creds.APIKey, redact.Quoted(ts.creds.ClientSecret), redact.Quoted(ts.creds.APISecret))
}

// GoString is String, so that %#v does not print secrets either.
func (ts *TokenSource) GoString() string { return ts.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString), never the fields, which hold the credentials and the token.
func (ts *TokenSource) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, ts.String(), ts.GoString())
}

// LogValue implements slog.LogValuer: the token URL, client id and API key.
func (ts *TokenSource) LogValue() slog.Value {
	if ts == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(
		slog.String("URL", ts.tokenURL),
		slog.String("ClientID", ts.creds.ClientID),
		slog.String("APIKey", ts.creds.APIKey),
		slog.String("ClientSecret", redact.Value(ts.creds.ClientSecret)),
		slog.String("APISecret", redact.Value(ts.creds.APISecret)),
	)
}

// Interface checks.
var (
	_ fmt.Formatter  = Credentials{}
	_ slog.LogValuer = Credentials{}
	_ fmt.Formatter  = Token{}
	_ slog.LogValuer = Token{}
	_ fmt.Formatter  = (*TokenSource)(nil)
	_ fmt.GoStringer = (*TokenSource)(nil)
	_ slog.LogValuer = (*TokenSource)(nil)
)
