package format

import "testing"

func TestFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		check func(string) bool
		in    string
		want  bool
	}{
		{"email", Email, "ann@example.com", true},
		{"email with name", Email, "Ann <ann@example.com>", false},
		{"email no domain dot", Email, "ann@localhost", false},
		{"email no at", Email, "ann.example.com", false},
		{"phone intl", Phone, "+45 12 34 56 78", true},
		{"phone dashes", Phone, "(555) 123-4567", true},
		{"phone letters", Phone, "555-CALL-NOW", false},
		{"phone short", Phone, "12345", false},
		{"number int", Number, "-12", true},
		{"number decimal", Number, "3.25", true},
		{"number word", Number, "twelve", false},
		{"number NaN", Number, "NaN", false},
		{"number hex", Number, "0x10", false},
		{"date", Date, "2026-02-28", true},
		{"date impossible", Date, "2026-02-30", false},
		{"date other format", Date, "28/02/2026", false},
	}
	for _, tc := range tests {
		if got := tc.check(tc.in); got != tc.want {
			t.Errorf("%s: %q → %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}
