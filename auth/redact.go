package auth

import (
	"fmt"
	"io"
	"log/slog"
)

// redacted stands in for a secret or a token wherever a value of this
// package is printed or logged.
const redacted = "[redacted]"

// redact is redacted for a set secret and "" for an empty one, so that a
// missing secret still shows.
func redact(secret string) string {
	if secret == "" {
		return `""`
	}
	return redacted
}

// formatRedacted is the body of the Format methods of types holding secrets:
// %#v prints goString, every other verb prints str with the verb's flags,
// width and precision (%q quotes it, %x hex-encodes it), so that fmt never
// prints the fields by reflection. str and goString are already free of
// secrets.
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

// Format implements fmt.Formatter so that every verb, not only %v and %s,
// prints String (and %#v GoString): the secrets never appear.
func (c Credentials) Format(f fmt.State, verb rune) {
	formatRedacted(f, verb, c.String(), c.GoString())
}

// LogValue implements slog.LogValuer: the client id and API key, and the
// secrets as "[redacted]" (or "" when empty), for every handler, JSON
// included.
func (c Credentials) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("ClientID", c.ClientID),
		slog.String("ClientSecret", redactValue(c.ClientSecret)),
		slog.String("APIKey", c.APIKey),
		slog.String("APISecret", redactValue(c.APISecret)),
	)
}

// redactValue is redacted for a set secret and "" for an empty one.
func redactValue(secret string) string {
	if secret == "" {
		return ""
	}
	return redacted
}

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the access token never appears.
func (t Token) Format(f fmt.State, verb rune) {
	formatRedacted(f, verb, t.String(), t.GoString())
}

// LogValue implements slog.LogValuer: the expiry, and the access token as
// "[redacted]".
func (t Token) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("AccessToken", redactValue(t.AccessToken)),
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
		ts.tokenURL, ts.creds.ClientID, ts.creds.APIKey, redact(ts.creds.ClientSecret), redact(ts.creds.APISecret))
}

// GoString is String, so that %#v does not print secrets either.
func (ts *TokenSource) GoString() string { return ts.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString), never the fields, which hold the credentials and the token.
func (ts *TokenSource) Format(f fmt.State, verb rune) {
	formatRedacted(f, verb, ts.String(), ts.GoString())
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
		slog.String("ClientSecret", redactValue(ts.creds.ClientSecret)),
		slog.String("APISecret", redactValue(ts.creds.APISecret)),
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
