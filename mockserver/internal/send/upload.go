package send

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// File is one uploaded document's content, saved to disk: a files part,
// or a document's pdf on the JSON route.
type File struct {
	Name  string // the part's filename; on the JSON route, the document's name if any
	Path  string
	Size  int64
	IsPDF bool // starts with %PDF- within its first 1024 bytes
	// Field names the content in problems: "" for files[j], else the
	// JSON route's caseFile.documents[i].pdf, where Doc is i.
	Field string
	Doc   int
}

// upload is a Send create request read from the wire: the data part in
// memory (bounded by the body limit), files on disk, and the payload hash.
type upload struct {
	dir       string
	data      []byte
	dataParts int
	files     []File
	unknown   []string // names of parts other than data and files
	rehash    bool     // a file came before the data part: hash from disk
	hash      string
	// inline marks the JSON route: each document carries its content,
	// files[i] being that of the document Doc, so names match nothing.
	inline bool
	// problems are found while reading, reported with validate's.
	problems problems
}

// remove deletes the upload's files.
func (u *upload) remove() {
	if u.dir != "" {
		_ = os.RemoveAll(u.dir)
	}
}

// readUpload streams a multipart Send body: each files part goes to its own
// file on disk through a fixed buffer; the data part is kept in memory. The
// payload hash is SHA-256 of the data part followed by each file in order:
// computed while streaming when data comes first, else re-read from disk.
func (svc *Service) readUpload(r *http.Request) (*upload, error) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "multipart/form-data" {
		return nil, &wire.Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
			Message: "send the case file as Content-Type: multipart/form-data with a data part and files parts"}
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, wire.BadRequest("the body must be multipart/form-data with a data part and files parts")
	}
	dir, err := svc.cfg.Temp.Mkdir("upload-")
	if err != nil {
		return nil, err
	}
	up := &upload{dir: dir}
	h := sha256.New()
	buf := make([]byte, 64<<10)
	if err := svc.readSendParts(mr, up, h, buf); err != nil {
		up.remove()
		return nil, err
	}
	if len(up.files) > 0 && up.dataParts == 0 || up.rehash {
		if err := up.rehashFromDisk(h, buf); err != nil {
			up.remove()
			return nil, err
		}
	}
	up.hash = hex.EncodeToString(h.Sum(nil))
	return up, nil
}

func (svc *Service) readSendParts(mr *multipart.Reader, up *upload, h hash.Hash, buf []byte) error {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return svc.bodyError(err)
		}
		switch name := part.FormName(); name {
		case "data":
			err = svc.readData(part, up, h)
		case "files", "files[]":
			if limit := svc.maxDocuments(); len(up.files) >= limit {
				err = errTooManyDocuments("files", limit) // before the part is read
			} else {
				err = up.saveFile(part, h, buf)
			}
		default:
			up.unknown = append(up.unknown, name)
			_, err = io.CopyBuffer(io.Discard, part, buf)
		}
		_ = part.Close()
		if err != nil {
			return svc.bodyError(err)
		}
	}
}

// readData keeps the data part in memory, bounded by the JSON body limit.
func (svc *Service) readData(part *multipart.Part, up *upload, h hash.Hash) error {
	b, err := io.ReadAll(io.LimitReader(part, svc.cfg.MaxBodyBytes+1))
	if err != nil {
		return fmt.Errorf("read data part: %w", err)
	}
	if int64(len(b)) > svc.cfg.MaxBodyBytes {
		return fmt.Errorf("data part: %w", wire.TooLarge(svc.cfg.MaxBodyBytes))
	}
	up.dataParts++
	if up.dataParts == 1 {
		up.data = b
		if len(up.files) == 0 {
			h.Write(b)
		} else {
			up.rehash = true
		}
	}
	return nil
}

// saveFile streams one files part to disk, hashing it on the way when the
// data part has been hashed already.
func (up *upload) saveFile(part *multipart.Part, h hash.Hash, buf []byte) error {
	f, err := os.CreateTemp(up.dir, "file-*")
	if err != nil {
		return &diskError{err}
	}
	defer f.Close()
	head := &headWriter{max: 1024}
	writers := []io.Writer{diskWriter{f}, head}
	if up.dataParts > 0 && !up.rehash {
		writers = append(writers, h)
	}
	n, err := io.CopyBuffer(io.MultiWriter(writers...), part, buf)
	if err != nil {
		return fmt.Errorf("save uploaded file: %w", err)
	}
	if err := f.Close(); err != nil {
		return &diskError{err}
	}
	up.files = append(up.files, File{Name: part.FileName(), Path: f.Name(), Size: n,
		IsPDF: isPDFHead(head.b)})
	return nil
}

// rehashFromDisk computes the payload hash again from the data part and
// the saved files, for bodies whose data part did not come first.
func (up *upload) rehashFromDisk(h hash.Hash, buf []byte) error {
	h.Reset()
	h.Write(up.data)
	for _, uf := range up.files {
		f, err := os.Open(uf.Path)
		if err != nil {
			return fmt.Errorf("hash uploaded file: %w", err)
		}
		_, err = io.CopyBuffer(h, f, buf)
		_ = f.Close()
		if err != nil {
			return fmt.Errorf("hash uploaded file: %w", err)
		}
	}
	return nil
}

// bodyError maps a failure to read the body: over the limit → 413, an
// wire.Error as it is, a failure of the server's disk → 500 disk_error
// (without its text, which names a path on the server's disk), anything
// else → 400.
func (svc *Service) bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	var ae *wire.Error
	var de *diskError
	switch {
	case errors.As(err, &de):
		return de.answer()
	case errors.As(err, &tooLarge):
		return fmt.Errorf("read upload: %w", wire.TooLarge(svc.cfg.MaxUploadBytes))
	case errors.As(err, &ae):
		return err
	}
	return fmt.Errorf("read upload: %w", wire.BadRequest("malformed multipart body: %v", err))
}

// headWriter keeps the first max bytes written to it.
type headWriter struct {
	b   []byte
	max int
}

func (w *headWriter) Write(p []byte) (int, error) {
	if room := w.max - len(w.b); room > 0 {
		w.b = append(w.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// diskError is a failure of the server's disk while it saves an upload:
// the server's fault, never the request's, and its text names a path that
// no answer may carry.
type diskError struct{ err error }

func (e *diskError) Error() string { return "save upload: " + e.err.Error() }
func (e *diskError) Unwrap() error { return e.err }

// answer is the Send answer to a disk failure: 500 with the code disk_error,
// naming no path (the text stays in the error chain, for the server's log). Its
// own code tells it apart from an internal error, which no answer should ever
// be
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func (e *diskError) answer() error {
	return fmt.Errorf("read upload: %w: %w", &wire.Error{Status: http.StatusInternalServerError, Code: "disk_error",
		Message: "the mock could not save the upload on its disk"}, e)
}

// diskWriter marks the failures of writing to an upload file as the
// disk's, apart from those of reading the body.
type diskWriter struct{ f *os.File }

func (w diskWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = &diskError{err}
	}
	return n, err
}
