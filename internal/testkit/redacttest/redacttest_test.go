package redacttest

import (
	"testing"
)

// recorder counts the failures AssertNoSecret reports instead of failing.
type recorder struct {
	testing.TB
	failures int
}

func (r *recorder) Helper()               {}
func (r *recorder) Errorf(string, ...any) { r.failures++ }

func TestAssertNoSecretCatchesEveryForm(t *testing.T) {
	type leaky struct{ Secret string }
	for _, tc := range []struct {
		name  string
		value any
		want  bool // a failure expected
	}{
		{"plain field", leaky{"s3cret-value"}, true},
		{"hex only", []byte("s3cret-value"), true}, // %x and %X print it hex-encoded
		{"nothing secret", leaky{"other"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{TB: t}
			AssertNoSecret(r, Renderings(tc.value), "s3cret-value")
			if got := r.failures > 0; got != tc.want {
				t.Errorf("failures = %d, want a failure: %v", r.failures, tc.want)
			}
		})
	}
}

func TestRenderingsCoverVerbsAndHandlers(t *testing.T) {
	r := Renderings("x")
	for _, how := range []string{"%v", "%+v", "%#v", "%x", "field %v", "slice %q", "Sprint", "Sprintln", "slog text", "slog json"} {
		if _, ok := r[how]; !ok {
			t.Errorf("no %q rendering", how)
		}
	}
}
