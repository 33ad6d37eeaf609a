package send

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// place is where a JSON value sits in the body of the JSON create route,
// as far as the scanner cares.
type place int

const (
	elsewhere   place = iota
	atRoot            // the body
	atCaseFile        // body.caseFile
	atDocuments       // body.caseFile.documents
	atDocument        // body.caseFile.documents[i]
)

// maxNesting bounds the depth of the body's JSON; a case file needs 5.
const maxNesting = 64

// maxKey is the longest object key the scanner reads; a longer one is
// refused (no field of a case file comes near it).
const maxKey = 4 << 10

// errMalformed is a body that is not one JSON object.
var errMalformed = errors.New(`the body must be one JSON object: {"caseFile":{...}}`)

// jsonScanner reads the JSON create route's body once, byte by byte
// through r. It copies every value to out as sent, except the value of
// each caseFile.documents[i].pdf, which it decodes from base64 into a file
// of up as it reads it. It checks the JSON's structure; the copy is parsed
// again by validate, which reports what the structure does not show.
type jsonScanner struct {
	r    *bufio.Reader
	up   *upload
	out  boundedBuffer
	skip int          // > 0: values are read and not copied
	pdfs map[int]File // the documents' content, by document index
	bad  map[int]bool // documents whose pdf is reported already
	docs int          // documents seen (highest index + 1)
	max  int          // the most documents taken; the next is refused
}

// scanBody reads the whole body: one JSON object and nothing after it.
func (sp *jsonScanner) scanBody() error {
	c, err := sp.nextOrEOF()
	if errors.Is(err, io.EOF) {
		return syntaxError("the body is empty")
	}
	if err != nil {
		return err
	}
	if c != '{' {
		return wire.BadRequest("%v", errMalformed)
	}
	if err := sp.object(atRoot, 0, 1); err != nil {
		return err
	}
	switch _, err := sp.nextOrEOF(); {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return err
	}
	return wire.BadRequest("%v: something follows it", errMalformed)
}

// nextOrEOF reads the next byte that is not JSON whitespace; io.EOF at
// the end of the body.
func (sp *jsonScanner) nextOrEOF() (byte, error) {
	for {
		c, err := sp.r.ReadByte()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, nil
	}
}

// next is nextOrEOF inside a value, where the end of the body is too soon.
func (sp *jsonScanner) next() (byte, error) {
	c, err := sp.nextOrEOF()
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return c, err
}

// byte reads the next byte inside a value.
func (sp *jsonScanner) byte() (byte, error) {
	c, err := sp.r.ReadByte()
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return c, err
}

// emit copies b to the definition, unless a value is being skipped.
func (sp *jsonScanner) emit(b ...byte) error {
	if sp.skip > 0 {
		return nil
	}
	if int64(sp.out.Len()+len(b)) > sp.out.max {
		return errDefinitionTooLarge(sp.out.max)
	}
	sp.out.Write(b)
	return nil
}

// value reads the value whose first byte is c, found at place at (index:
// its position in an array).
func (sp *jsonScanner) value(c byte, at place, index, depth int) error {
	switch {
	case c == '{':
		return sp.object(at, index, depth+1)
	case c == '[':
		return sp.array(at, depth+1)
	case c == '"':
		return sp.copyString()
	case c == '-' || c >= '0' && c <= '9':
		return sp.scalar(c, func(b byte) bool {
			return b >= '0' && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' || b == '-'
		})
	case c == 't' || c == 'f' || c == 'n':
		return sp.scalar(c, func(b byte) bool { return b >= 'a' && b <= 'z' })
	}
	return syntaxError("unexpected %q", c)
}

// object reads an object whose "{" was read. In a document, the pdf's
// value goes to a file instead of the copy. A second caseFile, documents
// or pdf in one object is refused: which one counts would be a guess.
func (sp *jsonScanner) object(at place, index, depth int) error {
	if depth > maxNesting {
		return wire.BadRequest("the JSON is nested deeper than %d levels", maxNesting)
	}
	if at == atDocument {
		sp.docs = max(sp.docs, index+1)
	}
	if err := sp.emit('{'); err != nil {
		return err
	}
	var seen map[string]bool // caseFile or documents, where they count
	for read, wrote := 0, 0; ; read++ {
		c, err := sp.next()
		if err != nil {
			return err
		}
		if c == '}' && read == 0 {
			return sp.emit('}')
		}
		if read > 0 {
			if c == '}' {
				return sp.emit('}')
			}
			if c != ',' {
				return syntaxError("expected , or } after an object's member, got %q", c)
			}
			if c, err = sp.next(); err != nil {
				return err
			}
		}
		if c != '"' {
			return syntaxError("expected a key in quotes, got %q", c)
		}
		key, raw, err := sp.key()
		if err != nil {
			return err
		}
		if c, err = sp.next(); err != nil {
			return err
		}
		if c != ':' {
			return syntaxError("expected : after the key %.40q, got %q", key, c)
		}
		if c, err = sp.next(); err != nil {
			return err
		}
		if err := sp.checkStreamKey(at, index, key); err != nil {
			return err
		}
		child := elsewhere
		switch {
		case at == atRoot && key == "caseFile":
			child = atCaseFile
		case at == atCaseFile && key == "documents":
			child = atDocuments
		case at == atDocument && key == "pdf":
			if err := sp.pdf(c, index, depth); err != nil {
				return err
			}
			continue
		}
		if child != elsewhere {
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[key] {
				return keyRefusal(map[place]string{atCaseFile: "caseFile", atDocuments: "caseFile.documents"}[child], msgTwice)
			}
			seen[key] = true
		}
		if wrote > 0 {
			if err := sp.emit(','); err != nil {
				return err
			}
		}
		wrote++
		if err := sp.emit(append(raw, ':')...); err != nil {
			return err
		}
		if err := sp.value(c, child, 0, depth); err != nil {
			return err
		}
	}
}

// array reads an array whose "[" was read; the items of documents are
// documents, numbered by their position here and nowhere else.
func (sp *jsonScanner) array(at place, depth int) error {
	if depth > maxNesting {
		return wire.BadRequest("the JSON is nested deeper than %d levels", maxNesting)
	}
	if err := sp.emit('['); err != nil {
		return err
	}
	child := elsewhere
	if at == atDocuments {
		child = atDocument
	}
	for i := 0; ; i++ {
		c, err := sp.next()
		if err != nil {
			return err
		}
		if c == ']' && i == 0 {
			return sp.emit(']')
		}
		if i > 0 {
			if c == ']' {
				return sp.emit(']')
			}
			if c != ',' {
				return syntaxError("expected , or ] after an array's item, got %q", c)
			}
			if c, err = sp.next(); err != nil {
				return err
			}
			if err := sp.emit(','); err != nil {
				return err
			}
		}
		if child == atDocument && i >= sp.max {
			return errTooManyDocuments("caseFile.documents", sp.max) // before the item is read
		}
		if err := sp.value(c, child, i, depth); err != nil {
			return err
		}
	}
}

// key reads an object key whose opening quote was read, and answers it
// decoded and as sent (quotes included).
func (sp *jsonScanner) key() (string, []byte, error) {
	raw := []byte{'"'}
	for {
		c, err := sp.byte()
		if err != nil {
			return "", nil, err
		}
		if len(raw) > maxKey {
			return "", nil, wire.BadRequest("an object key is longer than %d bytes", maxKey)
		}
		raw = append(raw, c)
		switch {
		case c == '\\':
			e, err := sp.byte()
			if err != nil {
				return "", nil, err
			}
			raw = append(raw, e)
		case c < 0x20:
			return "", nil, syntaxError("a control character in a key")
		case c == '"':
			var key string
			if err := json.Unmarshal(raw, &key); err != nil {
				return "", nil, syntaxError("the key %.40s: %v", raw, err)
			}
			return key, raw, nil
		}
	}
}

// copyString copies a string whose opening quote was read, as sent.
func (sp *jsonScanner) copyString() error {
	buf := make([]byte, 0, 512)
	buf = append(buf, '"')
	for {
		c, err := sp.byte()
		if err != nil {
			return err
		}
		if c < 0x20 {
			return syntaxError("a control character in a string")
		}
		buf = append(buf, c)
		if c == '\\' {
			e, err := sp.byte()
			if err != nil {
				return err
			}
			buf = append(buf, e)
		}
		if c == '"' || len(buf) >= cap(buf)-1 {
			if err := sp.emit(buf...); err != nil {
				return err
			}
			if c == '"' {
				return nil
			}
			buf = buf[:0]
		}
	}
}

// scalar copies a number or a literal whose first byte is c; more reports
// the bytes it may go on with. What the bytes say is checked when the
// copy is parsed.
func (sp *jsonScanner) scalar(c byte, more func(byte) bool) error {
	b := []byte{c}
	for {
		n, err := sp.r.ReadByte()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if !more(n) {
			_ = sp.r.UnreadByte()
			break
		}
		if len(b) > 64 {
			return syntaxError("a number or literal longer than 64 characters")
		}
		b = append(b, n)
	}
	return sp.emit(b...)
}

// skipValue reads the value whose first byte is c without copying it.
func (sp *jsonScanner) skipValue(c byte, depth int) error {
	sp.skip++
	defer func() { sp.skip-- }()
	return sp.value(c, elsewhere, 0, depth)
}
