package send

import (
	"fmt"
	"os"
	"strconv"
)

// The JSON create route's pdf values: each is base64 text decoded into a file
// of the upload as the body streams, never held whole in memory
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#send-signing-simulation-events-and-emails).

// pdf reads the value of document i's pdf, whose first byte is c: a
// string is decoded from base64 into a file as it is read; anything else,
// or a second pdf, is a problem of that document and is skipped.
func (sp *jsonScanner) pdf(c byte, i, depth int) error {
	if c != '"' {
		sp.pdfProblem(i, "must be a string: the document's PDF, base64-encoded")
		return sp.skipValue(c, depth)
	}
	if _, dup := sp.pdfs[i]; dup || sp.bad[i] {
		sp.pdfProblem(i, "is given twice")
		return sp.skipValue(c, depth)
	}
	f, err := os.CreateTemp(sp.up.dir, "file-*")
	if err != nil {
		return &diskError{fmt.Errorf("create upload file: %w", err)}
	}
	defer f.Close()
	head := &headWriter{max: 1024}
	dec := &base64Stream{w: diskWriter{f}, head: head}
	if err := sp.pdfString(dec); err != nil {
		return err
	}
	if err := dec.close(); err != nil {
		return fmt.Errorf("save uploaded file: %w", err)
	}
	if err := f.Close(); err != nil {
		return &diskError{fmt.Errorf("save uploaded file: %w", err)}
	}
	switch {
	case dec.corrupt != "":
		sp.pdfProblem(i, "is not base64 (the standard alphabet): %s", dec.corrupt)
	case dec.size == 0:
		sp.pdfProblem(i, "is empty: it must hold the document's PDF, base64-encoded")
	default:
		sp.pdfs[i] = File{Path: f.Name(), Size: dec.size, IsPDF: isPDFHead(head.b),
			Field: fmt.Sprintf("caseFile.documents[%d].pdf", i)}
		return nil
	}
	return os.Remove(f.Name())
}

// pdfString feeds the characters of a string whose opening quote was read
// to dec, with JSON's escapes undone.
func (sp *jsonScanner) pdfString(dec *base64Stream) error {
	for {
		c, err := sp.byte()
		if err != nil {
			return err
		}
		switch {
		case c == '"':
			return nil
		case c < 0x20:
			return syntaxError("a control character in a string")
		case c == '\\':
			if c, err = sp.escape(); err != nil {
				return err
			}
		}
		if err := dec.feed(c); err != nil {
			return fmt.Errorf("save uploaded file: %w", err)
		}
	}
}

// escape reads the rest of an escape sequence and answers its character;
// one past ASCII answers 0xFF, which no base64 text holds.
func (sp *jsonScanner) escape() (byte, error) {
	e, err := sp.byte()
	if err != nil {
		return 0, err
	}
	switch e {
	case '"', '\\', '/':
		return e, nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		var hex [4]byte
		for k := range hex {
			if hex[k], err = sp.byte(); err != nil {
				return 0, err
			}
		}
		n, err := strconv.ParseUint(string(hex[:]), 16, 16)
		if err != nil {
			return 0, syntaxError("the escape \\u%s", hex[:])
		}
		if n < 0x80 {
			return byte(n), nil
		}
		return 0xFF, nil
	}
	return 0, syntaxError("the escape \\%c", e)
}
