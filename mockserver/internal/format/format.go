// Package format checks the value formats the mock's services accept: an
// email address, a phone number, a number and a date.
package format

import (
	"net/mail"
	"strconv"
	"strings"
	"time"
)

// Email accepts a bare address such as ann@example.com (no display name).
func Email(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	_, domain, _ := strings.Cut(s, "@")
	return strings.Contains(domain, ".") && !strings.HasSuffix(domain, ".")
}

// Phone accepts an optional leading +, then digits with spaces, dashes,
// dots or parentheses between them, 6 to 15 digits in all.
func Phone(s string) bool {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "+")
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return false
		}
	}
	return digits >= 6 && digits <= 15
}

// Number accepts a decimal number such as -12, 3.5 or 1e3.
func Number(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil && !strings.ContainsAny(s, "xXnNiI") // no hex, NaN or Inf
}

// Date accepts a calendar date written YYYY-MM-DD.
func Date(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
