// Package redacttest renders a value every way a caller might print or log
// it, for the tests that prove a secret never shows
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#tests-checks-and-examples).
// The types that hold a secret share their Format bodies through
// internal/redact; their tests share this.
package redacttest

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// Renderings formats v with every verb a caller might use, as a value and
// inside a struct and a slice, and logs it with slog's text and JSON
// handlers ("slog text", "slog json"), as an attribute, a With attribute
// and inside a group. It answers each rendering by how it was made.
func Renderings(v any) map[string]string {
	out := map[string]string{}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%10.40s"} {
		out[verb] = fmt.Sprintf(verb, v)
		out["field "+verb] = fmt.Sprintf(verb, struct{ V any }{v})
		out["slice "+verb] = fmt.Sprintf(verb, []any{v})
	}
	out["Sprint"] = fmt.Sprint(v)
	out["Sprintln"] = fmt.Sprintln(v)
	for name, h := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		var b bytes.Buffer
		l := slog.New(h(&b))
		l.Info("msg", "value", v)
		l.Info("msg", slog.Any("value", v))
		l.With("value", v).Info("msg")
		l.Info("msg", slog.Group("g", "value", v))
		out["slog "+name] = b.String()
	}
	return out
}

// AssertNoSecret fails the test for each rendering that shows one of the
// secrets as it is or hex-encoded (either case).
func AssertNoSecret(t testing.TB, renders map[string]string, secrets ...string) {
	t.Helper()
	for how, s := range renders {
		for _, secret := range secrets {
			for _, form := range []string{secret, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret)))} {
				if strings.Contains(s, form) {
					t.Errorf("%s shows a secret: %s", how, s)
				}
			}
		}
	}
}
