package mockserver

import (
	"bytes"
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
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// DefaultMaxUploadBytes bounds one Send create request (the whole multipart
// body); WithMaxUploadBytes changes it.
const DefaultMaxUploadBytes int64 = 1 << 30

// sendCreatePath is the Send create endpoint under {Send}, with the
// platform's fixed version segment (docs/platform.md, "Send").
const sendCreatePath = "/api/v1/casefiles/20251022/create"

// WithMaxUploadBytes bounds the size of one Send create request (the whole
// multipart body, data and files); a larger one is answered 413 and nothing
// is kept. Values below 1 keep DefaultMaxUploadBytes (1 GiB). Uploads stream
// to a temporary directory, so memory does not grow with the limit.
func WithMaxUploadBytes(n int64) Option {
	return func(c *config) {
		if n > 0 {
			c.maxUploadBytes = n
		}
	}
}

func (s *Server) maxUploadBytes() int64 {
	if s.cfg.maxUploadBytes > 0 {
		return s.cfg.maxUploadBytes
	}
	return DefaultMaxUploadBytes
}

// tempDir is the server's temporary directory for uploaded files and signed
// PDFs. It is created on first use and removed (with everything in it) on
// reset and close.
type tempDir struct {
	mu   sync.Mutex
	root string
}

func (d *tempDir) rootLocked() (string, error) {
	if d.root == "" {
		root, err := os.MkdirTemp("", "signkit-mock-")
		if err != nil {
			return "", fmt.Errorf("create temporary directory: %w", err)
		}
		d.root = root
	}
	return d.root, nil
}

// mkdir makes a new directory under the root.
func (d *tempDir) mkdir(pattern string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	root, err := d.rootLocked()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(root, pattern)
	if err != nil {
		return "", fmt.Errorf("create upload directory: %w", err)
	}
	return dir, nil
}

// create makes a new file under the root.
func (d *tempDir) create(pattern string) (*os.File, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	root, err := d.rootLocked()
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(root, pattern)
	if err != nil {
		return nil, fmt.Errorf("create temporary file: %w", err)
	}
	return f, nil
}

// removeAll deletes the directory and everything in it.
func (d *tempDir) removeAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root != "" {
		_ = os.RemoveAll(d.root)
		d.root = ""
	}
}

// uploadedFile is one files part, saved to disk.
type uploadedFile struct {
	Name  string // the part's filename
	Path  string
	Size  int64
	IsPDF bool // starts with %PDF- within its first 1024 bytes
}

// sendUpload is a Send create request read from the wire: the data part in
// memory (bounded by the body limit), files on disk, and the payload hash.
type sendUpload struct {
	dir       string
	data      []byte
	dataParts int
	files     []uploadedFile
	unknown   []string // names of parts other than data and files
	rehash    bool     // a file came before the data part: hash from disk
	hash      string
}

// remove deletes the upload's files.
func (u *sendUpload) remove() {
	if u.dir != "" {
		_ = os.RemoveAll(u.dir)
	}
}

// readUpload streams a multipart Send body: each files part goes to its own
// file on disk through a fixed buffer; the data part is kept in memory. The
// payload hash is SHA-256 of the data part followed by each file in order:
// computed while streaming when data comes first, else re-read from disk.
func (s *Server) readUpload(r *http.Request) (*sendUpload, error) {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "multipart/form-data" {
		return nil, &wire.Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
			Message: "send the case file as Content-Type: multipart/form-data with a data part and files parts"}
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, wire.BadRequest("the body must be multipart/form-data with a data part and files parts")
	}
	dir, err := s.sign.uploads.mkdir("upload-")
	if err != nil {
		return nil, err
	}
	up := &sendUpload{dir: dir}
	h := sha256.New()
	buf := make([]byte, 64<<10)
	if err := s.readSendParts(mr, up, h, buf); err != nil {
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

func (s *Server) readSendParts(mr *multipart.Reader, up *sendUpload, h hash.Hash, buf []byte) error {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return s.bodyError(err)
		}
		switch name := part.FormName(); name {
		case "data":
			err = s.readData(part, up, h)
		case "files", "files[]":
			err = up.saveFile(part, h, buf)
		default:
			up.unknown = append(up.unknown, name)
			_, err = io.CopyBuffer(io.Discard, part, buf)
		}
		_ = part.Close()
		if err != nil {
			return s.bodyError(err)
		}
	}
}

// readData keeps the data part in memory, bounded by the JSON body limit.
func (s *Server) readData(part *multipart.Part, up *sendUpload, h hash.Hash) error {
	b, err := io.ReadAll(io.LimitReader(part, s.cfg.maxBodyBytes+1))
	if err != nil {
		return fmt.Errorf("read data part: %w", err)
	}
	if int64(len(b)) > s.cfg.maxBodyBytes {
		return fmt.Errorf("data part: %w", wire.TooLarge(s.cfg.maxBodyBytes))
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
func (up *sendUpload) saveFile(part *multipart.Part, h hash.Hash, buf []byte) error {
	f, err := os.CreateTemp(up.dir, "file-*")
	if err != nil {
		return fmt.Errorf("create upload file: %w", err)
	}
	defer f.Close()
	head := &headWriter{max: 1024}
	writers := []io.Writer{f, head}
	if up.dataParts > 0 && !up.rehash {
		writers = append(writers, h)
	}
	n, err := io.CopyBuffer(io.MultiWriter(writers...), part, buf)
	if err != nil {
		return fmt.Errorf("save uploaded file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save uploaded file: %w", err)
	}
	up.files = append(up.files, uploadedFile{Name: part.FileName(), Path: f.Name(), Size: n,
		IsPDF: bytes.Contains(head.b, []byte("%PDF-"))})
	return nil
}

// rehashFromDisk computes the payload hash again from the data part and
// the saved files, for bodies whose data part did not come first.
func (up *sendUpload) rehashFromDisk(h hash.Hash, buf []byte) error {
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
// wire.Error as it is, anything else → 400.
func (s *Server) bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	var ae *wire.Error
	switch {
	case errors.As(err, &tooLarge):
		return fmt.Errorf("read upload: %w", wire.TooLarge(s.maxUploadBytes()))
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

// handleSendCreate is POST {Send}/api/v1/casefiles/20251022/create: it
// streams the upload to disk, validates it (422, nothing kept), queues a
// job that runs after the job delay, and answers 200 (as the vendor's
// collection asserts; docs/platform.md, "Send") with the job's uuid and
// payloadHash, both at the top level and in jobs[0]. A duplicate payload is
// accepted the same way; its job ends aborted_duplicated (queue.go).
func (s *Server) handleSendCreate(w http.ResponseWriter, r *http.Request) error {
	u := userFrom(r)
	limit := s.maxUploadBytes()
	if r.ContentLength > limit {
		return wire.TooLarge(limit)
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	up, err := s.readUpload(r)
	if err != nil {
		return err
	}
	def, p := validateSend(up, s.Now())
	if err := p.Err(); err != nil {
		up.remove()
		return err
	}
	if err := takeAll(u.CustomerID, s.quotas.jobs, s.quotas.caseFiles); err != nil {
		up.remove()
		return err
	}
	j := s.queueJob(u, def, up)
	created := j.CreatedAt.UTC()
	wire.WriteJSON(w, http.StatusOK, map[string]any{
		"uuid": j.UUID, "payloadHash": j.PayloadHash, "status": "handled", "message": "Job created",
		"jobs": []map[string]any{{"uuid": j.UUID, "payloadHash": j.PayloadHash, "createdAt": created}},
	})
	return nil
}
