package send

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// readJSONUpload reads the body of the JSON create route:
// {"caseFile":{...,"documents":[{...,"pdf":"<base64>"}]}}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// The body is read once, byte by byte through a buffer (jsonscan.go): each
// document's pdf is decoded to its own file on disk as it streams past and is
// left out of the definition, which is copied as sent into memory, bounded by
// MaxBodyBytes. Memory therefore holds the definition without the documents'
// content and a fixed buffer, whatever the size of the documents. The payload
// hash is SHA-256 over the body exactly as received.
func (svc *Service) readJSONUpload(r *http.Request) (*upload, error) {
	if r.Header.Get("Content-Type") != "" { // none is taken as JSON
		if err := wire.RequireJSON(r); err != nil {
			return nil, err // answered 400 by refusal, as the platform answers
		}
	}
	dir, err := svc.cfg.Temp.Mkdir("upload-")
	if err != nil {
		return nil, err
	}
	up := &upload{dir: dir, dataParts: 1, inline: true}
	h := sha256.New()
	sp := &jsonScanner{r: bufio.NewReaderSize(io.TeeReader(r.Body, h), 64<<10), up: up,
		out: boundedBuffer{max: svc.cfg.MaxBodyBytes}, pdfs: map[int]File{}, bad: map[int]bool{},
		max: svc.maxDocuments()}
	if err := sp.scanBody(); err != nil {
		up.remove()
		return nil, jsonBodyError(err, svc.cfg.MaxUploadBytes)
	}
	up.data = sp.out.Bytes()
	up.hash = hex.EncodeToString(h.Sum(nil))
	sp.nameFiles()
	return up, nil
}

// jsonBodyError maps a failure to read the JSON route's body: over the
// limit → 413, a failure of the server's disk → 500 disk_error, a refusal
// (*wire.Error) as it is, a body that ends too soon → 400; anything else
// is answered 500 without its text.
func jsonBodyError(err error, limit int64) error {
	var tooLarge *http.MaxBytesError
	var we *wire.Error
	var de *diskError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &de):
		return de.answer()
	case errors.As(err, &tooLarge):
		return fmt.Errorf("read upload: %w", wire.TooLarge(limit))
	case errors.As(err, &we):
		return err
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return wire.BadRequest("malformed JSON: the body ends before the JSON does")
	}
	return fmt.Errorf("read upload: %w", err)
}

// nameFiles lists the saved PDFs in the documents' order, each with its
// document's name when it has one, and reports every document without
// content. The names come from the definition (read again here, small
// now); a definition that does not decode is reported by validate.
func (sp *jsonScanner) nameFiles() {
	var def definition
	_ = json.Unmarshal(sp.up.data, &def)
	var docs []Document
	if def.CaseFile != nil {
		docs = def.CaseFile.Documents
	}
	for i := range sp.docs {
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

// pdfProblem records a problem of document i's pdf.
func (sp *jsonScanner) pdfProblem(i int, format string, args ...any) {
	sp.bad[i] = true
	sp.up.problems.Add(fmt.Sprintf("caseFile.documents[%d].pdf", i), format, args...)
}

// errDefinitionTooLarge is the 413 of a definition (the body without the
// documents' content) over MaxBodyBytes.
func errDefinitionTooLarge(limit int64) error {
	return &wire.Error{Status: http.StatusRequestEntityTooLarge, Code: "payload_too_large",
		Message: fmt.Sprintf("the case file without its documents' pdf exceeds %d bytes", limit)}
}

// syntaxError is a 400 for JSON that does not parse.
func syntaxError(format string, args ...any) error {
	return wire.BadRequest("malformed JSON: "+format, args...)
}

// boundedBuffer is the definition being copied, refused past max bytes.
type boundedBuffer struct {
	bytes.Buffer
	max int64
}
