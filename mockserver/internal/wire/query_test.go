package wire

import (
	"errors"
	"net/http/httptest"
	"testing"
)

func TestOnlyParams(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		query   string
		names   []string
		unknown []string
		message string
	}{
		{"after=2&customerId=1", []string{"customerId", "after"}, nil, ""},
		{"", nil, nil, ""},
		{"after=", []string{"customerId", "after"}, nil, ""},
		{"since=abc", []string{"customerId", "after"}, []string{"since"},
			`unknown query parameter "since": GET /mock/events takes customerId, after`},
		{"b=1&a=2&after=3", []string{"after"}, []string{"a", "b"}, "unknown query parameters a, b: GET /mock/events takes after"},
		{"x=1", nil, []string{"x"}, `unknown query parameter "x": GET /mock/events takes no query parameter`},
	} {
		err := OnlyParams(httptest.NewRequest("GET", "/mock/events?"+tt.query, nil), tt.names...)
		if tt.unknown == nil {
			if err != nil {
				t.Errorf("%q: %v, want nil", tt.query, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Status != 400 || e.Message != tt.message || len(e.Details) != len(tt.unknown) {
			t.Errorf("%q: %+v, want a 400 %q", tt.query, e, tt.message)
			continue
		}
		for i, d := range e.Details {
			if d.Field != tt.unknown[i] {
				t.Errorf("%q: detail %d names %q, want %q", tt.query, i, d.Field, tt.unknown[i])
			}
		}
	}
}
