package signkit

import (
	"fmt"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"time"
)

// formatRedacted is the body of the Format methods of types holding
// secrets: %#v prints goString, every other verb prints str with the verb's
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

// configFields has Config's fields and none of its methods, so that fmt
// prints it field by field; Credentials, printed through its own Format,
// shows its secrets as "[redacted]".
type configFields Config

// String describes the config field by field, the credentials' secrets as
// "[redacted]".
func (c Config) String() string {
	return "signkit.Config" + fmt.Sprintf("%+v", configFields(c))
}

// GoString is like String in Go syntax; the secrets show as "[redacted]".
func (c Config) GoString() string {
	return strings.Replace(fmt.Sprintf("%#v", configFields(c)), "signkit.configFields", "signkit.Config", 1)
}

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString): the credentials' secrets never appear.
func (c Config) Format(f fmt.State, verb rune) {
	formatRedacted(f, verb, c.String(), c.GoString())
}

// LogValue implements slog.LogValuer: one attribute per exported field, the
// credentials as auth.Credentials.LogValue (secrets "[redacted]"), and
// durations as text ("30s"), pointers, functions and interfaces
// (HTTPClient, Logger) by their type, so that a JSON handler neither prints a
// secret nor fails on an http.Client.
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
	case reflect.Pointer, reflect.Interface, reflect.Func, reflect.Chan, reflect.Map, reflect.Slice,
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
// API key); the secrets and the token never show.
func (c *Client) String() string {
	if c == nil {
		return "<nil>"
	}
	return fmt.Sprintf("signkit.Client{Auth:%v}", c.tokens)
}

// GoString is String, so that %#v does not print secrets either.
func (c *Client) GoString() string { return c.String() }

// Format implements fmt.Formatter so that every verb prints String (and %#v
// GoString), never the fields, which hold the credentials and the token.
func (c *Client) Format(f fmt.State, verb rune) {
	formatRedacted(f, verb, c.String(), c.GoString())
}

// LogValue implements slog.LogValuer: the client's token source (token URL,
// client id, API key), the secrets as "[redacted]".
func (c *Client) LogValue() slog.Value {
	if c == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(slog.Any("Auth", c.tokens))
}

// Interface checks.
var (
	_ fmt.Formatter  = Config{}
	_ slog.LogValuer = Config{}
	_ fmt.Formatter  = (*Client)(nil)
	_ fmt.GoStringer = (*Client)(nil)
	_ slog.LogValuer = (*Client)(nil)
)
