package traffic

import (
	"errors"
	"io"
	"mime"
	"mime/multipart"
)

// dataPart is the name of the Send create route's JSON part, the one part of a
// multipart body that is recorded
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const dataPart = "data"

// errCutShort closes a parts tee whose body the handler did not read to
// its end: its parts are then not all known.
var errCutShort = errors.New("traffic: the body was not read to its end")

// partsTee reads a multipart/form-data body as the handler reads it and
// keeps the text of its data parts, never a file: what is read goes
// through a pipe to a parser that discards every other part as it comes.
type partsTee struct {
	r    io.ReadCloser
	pw   *io.PipeWriter
	eof  bool
	done chan partsResult
}

// partsResult is what the parser found: the data parts' texts, and
// whether it read the body to its closing boundary.
type partsResult struct {
	data     []string
	complete bool
}

// newPartsTee answers a tee of r, a multipart body of the given
// Content-Type, or nil when it has no boundary.
func newPartsTee(r io.ReadCloser, contentType string) *partsTee {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return nil
	}
	pr, pw := io.Pipe()
	t := &partsTee{r: r, pw: pw, done: make(chan partsResult, 1)}
	go func() {
		res := readDataParts(multipart.NewReader(pr, params["boundary"]))
		_, _ = io.Copy(io.Discard, pr) // the rest: the epilogue, or a body cut short
		t.done <- res
	}()
	return t
}

// readDataParts reads the parts to the closing boundary, keeping the
// data parts' texts (each up to maxBody).
func readDataParts(mr *multipart.Reader) partsResult {
	var res partsResult
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			res.complete = true
			return res
		}
		if err != nil {
			return res
		}
		if part.FormName() != dataPart || part.FileName() != "" {
			if _, err := io.Copy(io.Discard, part); err != nil {
				return res
			}
			continue
		}
		b, err := io.ReadAll(io.LimitReader(part, maxBody+1))
		if err != nil || len(b) > maxBody {
			return res
		}
		res.data = append(res.data, string(b))
	}
}

func (t *partsTee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		_, _ = t.pw.Write(p[:n]) // the parser reads everything until the pipe is closed
	}
	if errors.Is(err, io.EOF) {
		t.eof = true
	}
	return n, err
}

func (t *partsTee) Close() error { return t.r.Close() }

// finish ends the body and answers the data parts' texts, each redacted
// as a JSON body is, and whether the body's parts were all read.
func (t *partsTee) finish() ([]string, bool) {
	if t.eof {
		_ = t.pw.Close()
	} else {
		_ = t.pw.CloseWithError(errCutShort)
	}
	res := <-t.done
	for i, d := range res.data {
		if red, ok := redactJSON([]byte(d)); ok {
			res.data[i] = red
		}
	}
	return res.data, res.complete
}
