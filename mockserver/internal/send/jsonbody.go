package send

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// readJSONUpload reads the body of the JSON create route:
// {"caseFile":{...,"documents":[{...,"pdf":"<base64>"}]}}
// (docs/platform.md, "Send"). The body is read once, as a stream of JSON
// tokens: each document's pdf is decoded to its own file on disk and left
// out of the definition, so the data the job keeps (and validate reads) is
// the case file without its documents' content. Memory holds the
// definition and one document's base64 text at a time, never the whole
// body. The payload hash is SHA-256 over the body exactly as received.
func (svc *Service) readJSONUpload(r *http.Request) (*upload, error) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, wire.BadRequest("send the case file as Content-Type: application/json, " +
				`{"caseFile":{...}} with each document's PDF base64-encoded in documents[].pdf`)
		}
	}
	dir, err := svc.cfg.Temp.Mkdir("upload-")
	if err != nil {
		return nil, err
	}
	up := &upload{dir: dir, dataParts: 1, inline: true}
	h := sha256.New()
	sp := &pdfSplitter{dec: json.NewDecoder(io.TeeReader(r.Body, h)), up: up, pdfs: map[int]File{}, bad: map[int]bool{}}
	sp.dec.UseNumber()
	if err := sp.split(); err != nil {
		up.remove()
		return nil, svc.bodyError(err)
	}
	if int64(sp.out.Len()) > svc.cfg.MaxBodyBytes {
		up.remove()
		return nil, fmt.Errorf("caseFile without its documents: %w", wire.TooLarge(svc.cfg.MaxBodyBytes))
	}
	up.data = sp.out.Bytes()
	up.hash = hex.EncodeToString(h.Sum(nil))
	sp.nameFiles()
	return up, nil
}

// pdfSplitter copies a JSON value token by token, taking the content of
// the documents out (see readJSONUpload).
type pdfSplitter struct {
	dec  *json.Decoder
	up   *upload
	out  bytes.Buffer
	pdfs map[int]File // by document index
	bad  map[int]bool // documents whose pdf is reported already
	docs int          // documents seen
}

// maxNesting bounds the depth of the body's JSON; a case file needs 5.
const maxNesting = 64

// errMalformed is a body that is not one JSON object.
var errMalformed = errors.New("the body must be one JSON object: {\"caseFile\":{...}}")

// split reads the whole body: one JSON object and nothing after it.
func (sp *pdfSplitter) split() error {
	tok, err := sp.dec.Token()
	if err != nil {
		return sp.malformed(err)
	}
	if tok != json.Delim('{') {
		return wire.BadRequest("%v", errMalformed)
	}
	if err := sp.value(nil, tok); err != nil {
		return err
	}
	if _, err := sp.dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return sp.malformed(err)
		}
		return wire.BadRequest("%v", errMalformed)
	}
	return nil
}

// malformed maps a decoding error: a body over the limit or a failed read
// as it is, anything else as a 400 naming the JSON error.
func (sp *pdfSplitter) malformed(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return err
	}
	var syn *json.SyntaxError
	if errors.As(err, &syn) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return wire.BadRequest("malformed JSON: %v", err)
	}
	return err
}

// value writes the value that starts with tok; path names where it is
// ("caseFile", "documents", "[0]").
func (sp *pdfSplitter) value(path []string, tok json.Token) error {
	switch t := tok.(type) {
	case json.Delim:
		// json.Decoder.Token bounds no nesting: without this, a body of
		// "[" would recurse until the goroutine's stack overflows.
		if len(path) >= maxNesting {
			return wire.BadRequest("the JSON is nested deeper than %d levels", maxNesting)
		}
		if t == '{' {
			return sp.object(path)
		}
		return sp.array(path)
	case string:
		return sp.writeString(t)
	case json.Number:
		sp.out.WriteString(t.String())
	case bool:
		sp.out.WriteString(strconv.FormatBool(t))
	case nil:
		sp.out.WriteString("null")
	}
	return nil
}

// object writes an object whose "{" was read; a document's pdf is saved
// to disk instead.
func (sp *pdfSplitter) object(path []string) error {
	doc := documentIndex(path)
	if doc >= 0 {
		sp.docs = max(sp.docs, doc+1)
	}
	sp.out.WriteByte('{')
	n := 0
	for sp.dec.More() {
		ktok, err := sp.dec.Token()
		if err != nil {
			return sp.malformed(err)
		}
		key, _ := ktok.(string)
		vtok, err := sp.dec.Token()
		if err != nil {
			return sp.malformed(err)
		}
		if doc >= 0 && key == "pdf" {
			if err := sp.savePDF(doc, vtok); err != nil {
				return err
			}
			continue
		}
		if n > 0 {
			sp.out.WriteByte(',')
		}
		n++
		if err := sp.writeString(key); err != nil {
			return err
		}
		sp.out.WriteByte(':')
		if err := sp.value(append(path, key), vtok); err != nil {
			return err
		}
	}
	if _, err := sp.dec.Token(); err != nil {
		return sp.malformed(err)
	}
	sp.out.WriteByte('}')
	return nil
}

// array writes an array whose "[" was read.
func (sp *pdfSplitter) array(path []string) error {
	sp.out.WriteByte('[')
	for i := 0; sp.dec.More(); i++ {
		tok, err := sp.dec.Token()
		if err != nil {
			return sp.malformed(err)
		}
		if i > 0 {
			sp.out.WriteByte(',')
		}
		if err := sp.value(append(path, "["+strconv.Itoa(i)+"]"), tok); err != nil {
			return err
		}
	}
	if _, err := sp.dec.Token(); err != nil {
		return sp.malformed(err)
	}
	sp.out.WriteByte(']')
	return nil
}

// writeString writes s as a JSON string.
func (sp *pdfSplitter) writeString(s string) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	sp.out.Write(b)
	return nil
}

// documentIndex answers i when path is caseFile.documents[i], else -1.
func documentIndex(path []string) int {
	if len(path) != 3 || path[0] != "caseFile" || path[1] != "documents" || !strings.HasPrefix(path[2], "[") {
		return -1
	}
	i, err := strconv.Atoi(strings.Trim(path[2], "[]"))
	if err != nil {
		return -1
	}
	return i
}

// savePDF decodes a document's base64 content to a file of the upload. A
// value that is not base64 text is a problem of that document, reported
// with the others by validate.
func (sp *pdfSplitter) savePDF(doc int, tok json.Token) error {
	field := fmt.Sprintf("caseFile.documents[%d].pdf", doc)
	s, ok := tok.(string)
	switch {
	case !ok:
		if d, isDelim := tok.(json.Delim); isDelim {
			// Skip the object or array, keeping the stream in step.
			if err := (&pdfSplitter{dec: sp.dec}).value(nil, d); err != nil {
				return err
			}
		}
		sp.up.problems.Add(field, "must be a string: the document's PDF, base64-encoded")
		sp.bad[doc] = true
		return nil
	case strings.TrimSpace(s) == "":
		sp.up.problems.Add(field, "is empty: it must hold the document's PDF, base64-encoded")
		sp.bad[doc] = true
		return nil
	}
	if _, dup := sp.pdfs[doc]; dup {
		sp.up.problems.Add(field, "is given twice")
		sp.bad[doc] = true
		return nil
	}
	f, err := os.CreateTemp(sp.up.dir, "file-*")
	if err != nil {
		return fmt.Errorf("create upload file: %w", err)
	}
	defer f.Close()
	head := &headWriter{max: 1024}
	n, err := io.Copy(io.MultiWriter(f, head), base64.NewDecoder(base64.StdEncoding, strings.NewReader(padBase64(s))))
	if err != nil {
		var corrupt base64.CorruptInputError
		if errors.As(err, &corrupt) {
			sp.up.problems.Add(field, "is not base64 (the standard alphabet): bad input at byte %d", int64(corrupt))
			sp.bad[doc] = true
			return nil
		}
		return fmt.Errorf("save uploaded file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save uploaded file: %w", err)
	}
	sp.pdfs[doc] = File{Path: f.Name(), Size: n, IsPDF: bytes.Contains(head.b, []byte("%PDF-")), Field: field}
	return nil
}

// padBase64 takes a data URL's prefix off s and adds the padding that a
// sender may have left out.
func padBase64(s string) string {
	if i := strings.Index(s, ";base64,"); i >= 0 && strings.HasPrefix(s, "data:") {
		s = s[i+len(";base64,"):]
	}
	s = strings.TrimSpace(s)
	if r := len(s) % 4; r != 0 && !strings.HasSuffix(s, "=") {
		s += strings.Repeat("=", 4-r)
	}
	return s
}

// nameFiles lists the saved PDFs in the documents' order, each with its
// document's name when it has one, and reports every document without
// content. The names come from the definition (read again here, small
// now); a definition that does not decode is reported by validate.
func (sp *pdfSplitter) nameFiles() {
	var def definition
	_ = json.Unmarshal(sp.up.data, &def)
	var docs []Document
	if def.CaseFile != nil {
		docs = def.CaseFile.Documents
	}
	for i := range max(sp.docs, len(docs)) {
		f, ok := sp.pdfs[i]
		if !ok {
			if !sp.bad[i] {
				sp.up.problems.Add(fmt.Sprintf("caseFile.documents[%d].pdf", i), "is required: the document's PDF, base64-encoded")
			}
			continue
		}
		if i < len(docs) {
			f.Name = docs[i].Name
		}
		f.Doc = i
		sp.up.files = append(sp.up.files, f)
	}
}
