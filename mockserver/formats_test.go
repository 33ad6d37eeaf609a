package mockserver

import "testing"

func TestFormats(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		check func(string) bool
		in    string
		want  bool
	}{
		{"email", validEmail, "ann@example.com", true},
		{"email with name", validEmail, "Ann <ann@example.com>", false},
		{"email no domain dot", validEmail, "ann@localhost", false},
		{"email no at", validEmail, "ann.example.com", false},
		{"phone intl", validPhone, "+45 12 34 56 78", true},
		{"phone dashes", validPhone, "(555) 123-4567", true},
		{"phone letters", validPhone, "555-CALL-NOW", false},
		{"phone short", validPhone, "12345", false},
		{"number int", validNumber, "-12", true},
		{"number decimal", validNumber, "3.25", true},
		{"number word", validNumber, "twelve", false},
		{"number NaN", validNumber, "NaN", false},
		{"number hex", validNumber, "0x10", false},
		{"date", validDate, "2026-02-28", true},
		{"date impossible", validDate, "2026-02-30", false},
		{"date other format", validDate, "28/02/2026", false},
	}
	for _, tc := range tests {
		if got := tc.check(tc.in); got != tc.want {
			t.Errorf("%s: %q → %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
}
