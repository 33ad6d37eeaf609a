package signkit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"time"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/redact"
)

// configFields has Config's fields and none of its methods, so that fmt
// prints it field by field; Credentials, printed through its own Format,
// shows its secrets as "[redacted]".
type configFields Config

// printable is c as fmt may print it: a TokenSource other than the SDK's own
// (which redacts itself) replaced by its type name.
func (c Config) printable() configFields {
	f := configFields(c)
	if _, own := c.TokenSource.(*auth.TokenSource); c.TokenSource != nil && !own {
		f.TokenSource = providerType(fmt.Sprintf("%T", c.TokenSource))
	}
	return f
}

// providerType stands in for a token provider of the user's
// (Config.TokenSource) when a Config or a Client is printed: its type name.
// fmt would otherwise print the provider's fields, or call its String
// method, and either may show a token or a secret.
type providerType string

// Token implements auth.TokenProvider; a providerType is only ever printed.
func (providerType) Token(context.Context) (auth.Token, error) {
	return auth.Token{}, errors.New("signkit: a printed token source has no token")
}

// Invalidate implements auth.TokenProvider; it does nothing.
func (providerType) Invalidate(auth.Token) {}

// Format implements fmt.Formatter: every verb prints the type name.
func (p providerType) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, string(p)) }

// providerString is how a token provider prints: the SDK's own
// *auth.TokenSource through its Format (token URL, client id, API key,
// secrets "[redacted]"), any other by its type.
func providerString(p auth.TokenProvider) string {
	if _, own := p.(*auth.TokenSource); own || p == nil {
		return fmt.Sprintf("%v", p)
	}
	return fmt.Sprintf("%T", p)
}

// providerLogValue is how a token provider is logged: through its own
// slog.LogValuer (*auth.TokenSource has one, which redacts), else by its type.
func providerLogValue(p auth.TokenProvider) slog.Value {
	if lv, ok := p.(slog.LogValuer); ok {
		return slog.AnyValue(lv)
	}
	if p == nil {
		return slog.StringValue("<nil>")
	}
	return slog.StringValue(fmt.Sprintf("%T", p))
}

// String describes the config field by field, the credentials' secrets as
// "[redacted]" and a TokenSource of the user's by its type.
func (c Config) String() string {
	return "signkit.Config" + fmt.Sprintf("%+v", c.printable())
}

// GoString is like String in Go syntax; the secrets show as "[redacted]".
func (c Config) GoString() string {
	return strings.Replace(fmt.Sprintf("%#v", c.printable()), "signkit.configFields", "signkit.Config", 1)
}

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the credentials' secrets never appear.
func (c Config) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.String(), c.GoString())
}

// LogValue implements slog.LogValuer: one attribute per exported field, the
// credentials as auth.Credentials.LogValue (secrets "[redacted]"), and
// durations as text ("30s"), pointers, functions and interfaces
// (HTTPClient, Logger, TokenSource) by their type unless they implement
// slog.LogValuer, so that a JSON handler neither prints a secret nor fails
// on an http.Client.
func (c Config) LogValue() slog.Value {
	return structLogValue(reflect.ValueOf(c))
}

// structLogValue is a group of the exported fields of the struct v.
func structLogValue(v reflect.Value) slog.Value {
	t := v.Type()
	attrs := make([]slog.Attr, 0, t.NumField())
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() {
			attrs = append(attrs, slog.Attr{Key: f.Name, Value: fieldLogValue(v.Field(i))})
		}
	}
	return slog.GroupValue(attrs...)
}

// fieldLogValue is how one Config field is logged.
func fieldLogValue(v reflect.Value) slog.Value {
	switch x := v.Interface().(type) {
	case slog.LogValuer:
		return slog.AnyValue(x)
	case time.Duration:
		return slog.StringValue(x.String()) // "1m0s" rather than nanoseconds
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return slog.StringValue("<nil>")
		}
		return slog.StringValue(v.Elem().Type().String()) // the type it holds
	case reflect.Pointer, reflect.Func, reflect.Chan, reflect.Map, reflect.Slice,
		reflect.UnsafePointer:
		if v.IsNil() {
			return slog.StringValue("<nil>")
		}
		return slog.StringValue(v.Type().String())
	case reflect.Struct:
		return structLogValue(v)
	}
	return slog.AnyValue(v.Interface())
}

// String describes the client by its token source (token URL, client id,
// API key; a Config.TokenSource by its type); the secrets and the token
// never show.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	return "signkit.Client{Auth:" + providerString(c.tokens) + "}"
}

// GoString is String, so that %#v does not print secrets either.
func (c *Client) GoString() string { return c.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString), never the fields, which hold the credentials and the token.
func (c *Client) Format(f fmt.State, verb rune) {
	redact.Format(f, verb, c.String(), c.GoString())
}

// LogValue implements slog.LogValuer: the client's token source (token URL,
// client id, API key), the secrets as "[redacted]"; a Config.TokenSource as
// its own slog.LogValuer answers, else by its type.
func (c *Client) LogValue() slog.Value {
	if c == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(slog.Attr{Key: "Auth", Value: providerLogValue(c.tokens)})
}

// Interface checks.
var (
	_ fmt.Formatter  = Config{}
	_ slog.LogValuer = Config{}
	_ fmt.Formatter  = (*Client)(nil)
	_ fmt.GoStringer = (*Client)(nil)
	_ slog.LogValuer = (*Client)(nil)

	_ auth.TokenProvider = providerType("")
	_ fmt.Formatter      = providerType("")
)
