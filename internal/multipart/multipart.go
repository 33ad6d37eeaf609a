// Package multipart builds multipart/form-data request bodies that are
// streamed rather than buffered: the part headers and boundaries are
// precomputed once, each file is opened only when the reader reaches it and
// closed right after, and the body's exact length is known before the first
// byte is sent. A Form can be opened any number of times, so that a request
// can be re-sent (after a 401 or a retry) without keeping its files in memory.
//
// The body of a form with parts P1 … Pn is
//
//	--B CRLF headers(P1) CRLF content(P1) CRLF --B CRLF … content(Pn) CRLF --B-- CRLF
//
// which the standard mime/multipart reader parses back.
package multipart

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"sort"
	"strings"
	"sync"
)

// ErrSizeMismatch is reported, wrapped, when a file yields fewer or more
// bytes than its declared size. The body is cut short at that point, so the
// server sees a truncated request rather than a corrupt one.
var ErrSizeMismatch = errors.New("multipart: file size differs from the declared size")

// Opener opens a fresh reader of a file part's content.
type Opener func() (io.ReadCloser, error)

// Form is a multipart/form-data body. Build it with New, AddField and
// AddFile; then Open it once per request attempt. The first Len or Open
// seals it: parts added later are lost. Len and Open are safe for
// concurrent use; building is not.
type Form struct {
	boundary string
	segs     []segment // static bytes and files, in body order
	pending  bytes.Buffer
	length   int64
	sealed   sync.Once // appends the closing boundary on the first Len or Open
}

// segment is a piece of the body: static bytes, or a file read from open.
type segment struct {
	static []byte
	name   string // the file part's form name and file name, for errors
	size   int64
	open   Opener
}

// New returns an empty Form with a random boundary.
func New() *Form {
	var b [24]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return NewWithBoundary("signkit-" + hex.EncodeToString(b[:]))
}

// NewWithBoundary returns an empty Form with the given boundary, for tests
// that need a deterministic body. The boundary must follow RFC 2046 (1 to
// 70 characters, none of which may appear in the content).
func NewWithBoundary(boundary string) *Form {
	return &Form{boundary: boundary}
}

// Boundary returns the form's boundary.
func (f *Form) Boundary() string { return f.boundary }

// ContentType returns the body's Content-Type header value.
func (f *Form) ContentType() string {
	b := f.boundary
	if strings.ContainsAny(b, `()<>@,;:\"/[]?= `) {
		b = `"` + b + `"`
	}
	return "multipart/form-data; boundary=" + b
}

// AddField adds a part with a form field name, an optional Content-Type
// (empty: none, meaning text/plain) and a value held in memory.
func (f *Form) AddField(name, contentType string, value []byte) {
	f.header(name, "", contentType)
	f.pending.Write(value)
}

// AddFile adds a file part with a form field name, a file name, a
// Content-Type, its exact size in bytes and an opener of its content. The
// opener is called once per Open of the form, when the body reader reaches
// the part.
func (f *Form) AddFile(name, filename, contentType string, size int64, open Opener) {
	f.header(name, filename, contentType)
	f.flush()
	f.segs = append(f.segs, segment{name: filename, size: size, open: open})
	f.length += size
}

// header writes the boundary line and the headers of a new part.
func (f *Form) header(name, filename, contentType string) {
	if f.pending.Len() > 0 || len(f.segs) > 0 {
		f.pending.WriteString("\r\n")
	}
	fmt.Fprintf(&f.pending, "--%s\r\n", f.boundary)
	h := textproto.MIMEHeader{}
	disp := `form-data; name="` + escapeQuotes(name) + `"`
	if filename != "" {
		disp += `; filename="` + escapeQuotes(filename) + `"`
	}
	h.Set("Content-Disposition", disp)
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range h[k] {
			fmt.Fprintf(&f.pending, "%s: %s\r\n", k, v)
		}
	}
	f.pending.WriteString("\r\n")
}

// flush moves the pending static bytes into a segment.
func (f *Form) flush() {
	if f.pending.Len() == 0 {
		return
	}
	b := bytes.Clone(f.pending.Bytes())
	f.segs = append(f.segs, segment{static: b})
	f.length += int64(len(b))
	f.pending.Reset()
}

// finish appends the closing boundary, once.
func (f *Form) finish() {
	f.sealed.Do(func() {
		if f.pending.Len() > 0 || len(f.segs) > 0 {
			f.pending.WriteString("\r\n")
		}
		fmt.Fprintf(&f.pending, "--%s--\r\n", f.boundary)
		f.flush()
	})
}

// Len returns the exact length of the body in bytes: the precomputed
// headers and boundaries plus the declared sizes of the files.
func (f *Form) Len() int64 {
	f.finish()
	return f.length
}

// Open returns a fresh reader of the whole body and its exact length. The
// reader opens each file when it reaches it and closes it when its content
// has been read; closing the reader closes a file that is still open. A file
// that fails to open, fails to read, or yields a size other than declared
// makes Read return an error (wrapping ErrSizeMismatch for a size).
// Open's signature matches retry.Body, so a request can send f.Open as its
// body opener.
func (f *Form) Open() (io.ReadCloser, int64, error) {
	n := f.Len()
	readers := make([]io.Reader, 0, len(f.segs))
	body := &body{}
	for i := range f.segs {
		s := &f.segs[i]
		if s.open == nil {
			readers = append(readers, bytes.NewReader(s.static))
			continue
		}
		lf := &lazyFile{seg: s}
		body.files = append(body.files, lf)
		readers = append(readers, lf)
	}
	body.r = io.MultiReader(readers...)
	return body, n, nil
}

// body is one opened copy of a Form's body.
type body struct {
	r     io.Reader
	files []*lazyFile
}

func (b *body) Read(p []byte) (int, error) { return b.r.Read(p) }

// Close closes every file that is still open and makes later reads fail.
func (b *body) Close() error {
	var errs []error
	for _, f := range b.files {
		errs = append(errs, f.Close())
	}
	return errors.Join(errs...)
}

// escapeQuotes makes s safe inside a quoted header parameter: backslash and
// double quote are backslash-escaped (as mime/multipart.Writer does), CR and
// LF percent-encoded so that no header can be injected.
func escapeQuotes(s string) string {
	if !strings.ContainsAny(s, "\\\"\r\n") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '"':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\r':
			b.WriteString("%0D")
		case '\n':
			b.WriteString("%0A")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
