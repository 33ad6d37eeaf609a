package casefiles

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/signkit/signkit-go/internal/multipart"
)

// Upload is a file to upload with a case file: the content of the Document
// whose Name equals the upload's Name.
//
// Open is called once per request attempt, when the request body reaches
// the file, and the reader it returns is closed when the file has been
// sent; a file is never held in memory by this package. Open must return
// exactly Size bytes each time; a file that yields fewer or more fails the
// request with an error (the body is cut short, so the service never
// receives a corrupt file).
type Upload struct {
	// Name is the file name sent with the file; Document.Name refers to it.
	Name string
	// Size is the exact length of the content in bytes.
	Size int64
	// Open opens a fresh reader of the content.
	Open func() (io.ReadCloser, error)
}

// FileUpload returns an Upload of the regular file at path, named by the
// path's last element, with its current size. The file is opened on each
// attempt; if it changes size before it is sent, the request fails.
func FileUpload(path string) (Upload, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Upload{}, fmt.Errorf("casefiles: upload: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return Upload{}, fmt.Errorf("casefiles: upload: %s is not a regular file", path)
	}
	return Upload{
		Name: filepath.Base(path),
		Size: fi.Size(),
		Open: func() (io.ReadCloser, error) { return os.Open(path) },
	}, nil
}

// BytesUpload returns an Upload of b named name. b is not copied; it must
// not change until the upload is done.
func BytesUpload(name string, b []byte) Upload {
	return Upload{
		Name: name,
		Size: int64(len(b)),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil },
	}
}

// pdfType is the Content-Type of every file part.
const pdfType = "application/pdf"

// createData is the JSON of the data part.
type createData struct {
	CaseFile *CaseFile `json:"caseFile"`
}

// newForm builds the multipart body of Create: the data part (a text field
// holding {"caseFile":{...}}), then one files part per document, in the order
// of cf.Documents whatever the order of uploads
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// the payloadHash covers the files in that order). Validate has matched
// documents and uploads one to one. Only the data part is held in memory.
func newForm(cf *CaseFile, uploads []Upload) (*multipart.Form, error) {
	data, err := json.Marshal(createData{CaseFile: cf})
	if err != nil {
		return nil, fmt.Errorf("encoding the case file: %w", err)
	}
	byName := make(map[string]Upload, len(uploads))
	for _, u := range uploads {
		byName[u.Name] = u
	}
	f := multipart.New()
	f.AddField("data", "", data) // a plain text field, as the vendor's collection sends it
	for _, d := range cf.Documents {
		u, ok := byName[d.Name]
		if !ok {
			return nil, fmt.Errorf("document %q has no upload", d.Name)
		}
		f.AddFile("files", u.Name, pdfType, u.Size, multipart.Opener(u.Open))
	}
	return f, nil
}
