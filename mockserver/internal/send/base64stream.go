package send

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
)

// base64Stream decodes base64 text fed to it one character at a time,
// writing the bytes to w through a fixed buffer, so a document of any size
// takes the same memory. It is liberal in what senders are known to do:
// whitespace and line breaks anywhere, missing padding, and a data URL's
// "data:...;base64," before the text. Text that is not base64 sets corrupt
// (a description) and the rest is ignored.
type base64Stream struct {
	w    io.Writer
	head *headWriter // the first decoded bytes, for the PDF check

	prefix  []byte // the first characters, while a data URL is possible
	state   int    // 0: looking for "data:", 1: skipping to ",", 2: decoding
	chunk   [4096]byte
	n       int
	out     [3072]byte
	fed     int64 // base64 characters fed
	size    int64 // bytes decoded
	corrupt string
}

// dataURL is the start of a data URL.
const dataURL = "data:"

// feed takes the next character of the text; it fails only when w does.
func (b *base64Stream) feed(c byte) error {
	if b.corrupt != "" {
		return nil
	}
	switch c {
	case ' ', '\t', '\r', '\n':
		return nil
	}
	switch b.state {
	case 0:
		b.prefix = append(b.prefix, c)
		if !bytes.HasPrefix([]byte(dataURL), b.prefix) {
			b.state = 2
			return b.replayPrefix()
		}
		if len(b.prefix) == len(dataURL) {
			b.state = 1
		}
		return nil
	case 1:
		if c == ',' {
			b.state = 2
		}
		return nil
	}
	b.chunk[b.n] = c
	b.n++
	b.fed++
	if b.n == len(b.chunk) {
		return b.decode(false)
	}
	return nil
}

// replayPrefix feeds the characters kept while a data URL was possible.
func (b *base64Stream) replayPrefix() error {
	p := b.prefix
	b.prefix = nil
	for _, c := range p {
		if err := b.feed(c); err != nil {
			return err
		}
	}
	return nil
}

// close decodes what is left, padding it as needed.
func (b *base64Stream) close() error {
	if b.state == 0 {
		b.state = 2
		if err := b.replayPrefix(); err != nil {
			return err
		}
	}
	if b.state == 1 && b.corrupt == "" {
		b.corrupt = "a data URL without a comma before the text"
		return nil
	}
	return b.decode(true)
}

// decode decodes the chunk; at the end of the text (last) a chunk whose
// length is not a multiple of 4 is padded.
func (b *base64Stream) decode(last bool) error {
	if b.corrupt != "" || b.n == 0 {
		return nil
	}
	in := b.chunk[:b.n]
	start := b.fed - int64(b.n)
	if last && b.n%4 != 0 {
		if b.n%4 == 1 || bytes.IndexByte(in, '=') >= 0 {
			b.corrupt = fmt.Sprintf("%d characters, which no base64 text ends with", b.fed)
			return nil
		}
		in = append(in, bytes.Repeat([]byte{'='}, 4-b.n%4)...)
	}
	b.n = 0
	k, err := base64.StdEncoding.Decode(b.out[:], in)
	var corrupt base64.CorruptInputError
	if errors.As(err, &corrupt) {
		b.corrupt = fmt.Sprintf("bad input at character %d", start+int64(corrupt))
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := b.head.Write(b.out[:k]); err != nil {
		return err
	}
	if _, err := b.w.Write(b.out[:k]); err != nil {
		return err
	}
	b.size += int64(k)
	return nil
}

// isPDFHead reports whether the first bytes of a file hold "%PDF-", as
// the PDF check of both create routes wants.
func isPDFHead(head []byte) bool { return bytes.Contains(head, []byte("%PDF-")) }
