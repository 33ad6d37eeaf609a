package casefiles

import (
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// The platform's limits on a case file
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// caseFile fields).
const (
	maxTitle     = 1024 // case file and document titles, in characters
	minEmailText = 5    // each of a signer's six email texts, when set
	minURL       = 5    // successUrl and failUrl, when set
	minRole      = 3    // a signer's role, when set

	minSenderName, maxSenderName = 2, 255 // the case file's senderName, when set
)

// roleRx is the platform's pattern of a role.
var roleRx = regexp.MustCompile(`^[a-zA-Z0-9][a-zA-Z0-9 ,_-]*[a-zA-Z0-9,_-]$`)

// title checks a required title of at most maxTitle characters.
func (p *problems) title(field, v string) {
	switch n := utf8.RuneCountInString(v); {
	case strings.TrimSpace(v) == "":
		p.add(field, "is required")
	case n > maxTitle:
		p.add(field, "must be at most %d characters, got %d", maxTitle, n)
	}
}

// minLen checks an optional text of at least min characters.
func (p *problems) minLen(field, v string, min int) {
	if n := utf8.RuneCountInString(v); v != "" && n < min {
		p.add(field, "must be at least %d characters when set, got %d", min, n)
	}
}

// lenBetween checks an optional text of min to max characters.
func (p *problems) lenBetween(field, v string, min, max int) {
	if n := utf8.RuneCountInString(v); v != "" && (n < min || n > max) {
		p.add(field, "must be %d to %d characters when set, got %d", min, max, n)
	}
}

// role checks a signer's role against the platform's pattern.
func (p *problems) role(field, v string) {
	switch {
	case utf8.RuneCountInString(v) < minRole:
		p.add(field, "must be at least %d characters, got %q", minRole, v)
	case !roleRx.MatchString(v):
		p.add(field, "may hold only letters, digits, spaces, commas, underscores and hyphens, start with a letter or digit and not end with a space, got %q", v)
	}
}

// email checks that v is a bare email address.
func (p *problems) email(field, v string) {
	if a, err := mail.ParseAddress(v); err != nil || a.Address != v {
		p.add(field, "%q is not an email address", v)
	}
}

// url checks an optional absolute URL of at least minURL characters.
func (p *problems) url(field, v string) {
	if v == "" {
		return
	}
	if u, err := url.Parse(v); err != nil || !u.IsAbs() || u.Host == "" || len(v) < minURL {
		p.add(field, "must be an absolute URL of at least %d characters, got %q", minURL, v)
	}
}

// span checks an optional start and end time: each, when set, a time the
// platform's unix seconds can say (not before 1970), and the end after the
// start.
func (p *problems) span(startField string, start *time.Time, endField string, end *time.Time) {
	for _, t := range []struct {
		field string
		at    *time.Time
	}{{startField, start}, {endField, end}} {
		if t.at != nil && t.at.Unix() < 0 {
			p.add(t.field, "must not be before 1970-01-01 (unix seconds), got %s", t.at.UTC().Format(time.RFC3339))
		}
	}
	if start != nil && end != nil && !end.After(*start) {
		p.add(endField, "must be after %s", startField)
	}
}
