package vendorcheck

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrExceptionsFormat is wrapped by the errors of ParseExceptions.
var ErrExceptionsFormat = errors.New("vendorcheck: malformed exceptions table")

// Exception is one row of the table in
// https://github.com/signkit/signkit-go/blob/main/docs/vendor-exceptions.md: a
// vendor assertion that is allowed to fail, and why.
type Exception struct {
	Collection, Request, Assertion, Reason string
}

// Key identifies the assertion the exception is about.
func (e Exception) Key() ExceptionKey {
	return ExceptionKey{e.Collection, e.Request, e.Assertion}
}

// ExceptionKey identifies an assertion: the collection's label, the request's
// name and the assertion's name.
type ExceptionKey struct{ Collection, Request, Assertion string }

// LoadExceptions reads the exceptions table of a Markdown file.
func LoadExceptions(path string) ([]Exception, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("vendorcheck: read exceptions: %w", err)
	}
	return ParseExceptions(b)
}

// ParseExceptions reads the first Markdown table whose header is
// "| Collection | Request | Assertion | Reason |". Cells may quote their text
// in backticks; a row with another number of cells, an empty key cell or an
// empty reason, or a key listed twice is an error.
func ParseExceptions(md []byte) ([]Exception, error) {
	var out []Exception
	seen := map[ExceptionKey]bool{}
	inTable := false
	sc := bufio.NewScanner(bytes.NewReader(md))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(text, "|") {
			if inTable {
				break
			}
			continue
		}
		cells := splitRow(text)
		switch {
		case !inTable:
			if len(cells) == 4 && strings.EqualFold(strings.Join(cells, "|"), "collection|request|assertion|reason") {
				inTable = true
			}
			continue
		case isSeparator(cells):
			continue
		case len(cells) != 4:
			return nil, fmt.Errorf("%w: line %d has %d cells, want 4", ErrExceptionsFormat, line, len(cells))
		}
		e := Exception{Collection: cells[0], Request: cells[1], Assertion: cells[2], Reason: cells[3]}
		if e.Collection == "" || e.Request == "" || e.Assertion == "" || e.Reason == "" {
			return nil, fmt.Errorf("%w: line %d has an empty cell", ErrExceptionsFormat, line)
		}
		if seen[e.Key()] {
			return nil, fmt.Errorf("%w: line %d lists %q / %q / %q again", ErrExceptionsFormat, line, e.Collection, e.Request, e.Assertion)
		}
		seen[e.Key()] = true
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrExceptionsFormat, err)
	}
	if !inTable {
		return nil, fmt.Errorf("%w: no table with the header | Collection | Request | Assertion | Reason |", ErrExceptionsFormat)
	}
	return out, nil
}

// splitRow splits a Markdown table row into trimmed cells, without the
// backticks that quote a whole cell. A pipe escaped as \| stays in its cell.
func splitRow(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "|"), "|")
	row = strings.ReplaceAll(row, `\|`, "\x00")
	parts := strings.Split(row, "|")
	for i, p := range parts {
		p = strings.TrimSpace(strings.ReplaceAll(p, "\x00", "|"))
		if len(p) >= 2 && strings.HasPrefix(p, "`") && strings.HasSuffix(p, "`") {
			p = p[1 : len(p)-1]
		}
		parts[i] = p
	}
	return parts
}

func isSeparator(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":-") != "" || c == "" {
			return false
		}
	}
	return true
}
