package auth

import (
	"testing"
	"time"
)

func TestParseCreatedAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-11-24T07:26:27Z", time.Date(2026, 11, 24, 7, 26, 27, 0, time.UTC), true},
		{"2026-11-24T07:26:27.123Z", time.Date(2026, 11, 24, 7, 26, 27, 123e6, time.UTC), true},
		{"2026-11-24T08:26:27+01:00", time.Date(2026, 11, 24, 7, 26, 27, 0, time.UTC), true},
		{"Tue Nov 24 2026 07:26:27 GMT+0000", time.Date(2026, 11, 24, 7, 26, 27, 0, time.UTC), true},
		{"Wed Nov 4 2026 07:26:27 GMT+0000", time.Date(2026, 11, 4, 7, 26, 27, 0, time.UTC), true},
		{"Tue Nov 24 2026 09:26:27 GMT+0200", time.Date(2026, 11, 24, 7, 26, 27, 0, time.UTC), true},
		{"Tue Nov 24 2026 07:26:27 GMT", time.Time{}, false},
		{"Tue Nov 24 2026 07:26:27 +0000", time.Time{}, false},
		{"2026-11-24 07:26:27", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tc := range tests {
		got, ok := parseCreatedAt(tc.in)
		if ok != tc.ok || !got.Equal(tc.want) {
			t.Errorf("parseCreatedAt(%q) = %v, %t; want %v, %t", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
