// Package traffic records what a mock exchanges, for the test that checks it
// against the mock's OpenAPI description
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
// It is a maintainer's tool: a mock records only when the environment variable
// DirEnv names a directory, and then writes one JSON line per exchange into a
// file of its own there. Secrets stay out: of the request headers it keeps
// Content-Type, Accept and x-paginate only; in bodies the values of secret keys
// (credentials, digests, tokens, webhook secrets) are replaced by "redacted",
// and so is the token of a signing link in a path. The shapes stay what they
// were.
package traffic

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// DirEnv names the directory a mock records its exchanges into.
const DirEnv = "SIGNKIT_MOCK_TRAFFIC_DIR"

// maxBody is the largest body kept; a larger one is marked incomplete.
const maxBody = 8 << 20

// Exchange is one request and the answer the mock gave it.
type Exchange struct {
	Method   string            `json:"method"`
	Path     string            `json:"path"`
	RawQuery string            `json:"rawQuery,omitempty"`
	Header   map[string]string `json:"header,omitempty"`
	// Body is the request body when it is JSON or a form and was read to
	// its end; BodyKept says so.
	Body     string `json:"body,omitempty"`
	BodyKept bool   `json:"bodyKept"`
	// Data are the texts of the parts named data of a multipart/form-data
	// body (the Send create route's definition), in order, when the
	// handler read the body to its closing boundary; DataKept says so.
	// No other part, and never a file, is kept.
	Data     []string `json:"data,omitempty"`
	DataKept bool     `json:"dataKept,omitempty"`
	Status   int      `json:"status"`
	// ContentType is the answer's Content-Type.
	ContentType string `json:"contentType,omitempty"`
	// Answer is the answer's body when it is JSON; AnswerKept says so.
	Answer     string `json:"answer,omitempty"`
	AnswerKept bool   `json:"answerKept"`
}

// recorder writes exchanges to one file, created on first use.
type recorder struct {
	dir  string
	mu   sync.Mutex
	file *os.File
	err  error
}

// Record answers next, recording every exchange into a new file under dir.
// A request that a fault drops is not recorded: it has no answer.
func Record(dir string, next http.Handler) http.Handler {
	rec := &recorder{dir: dir}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ex := Exchange{Method: r.Method, Path: redactPath(r.URL.EscapedPath()), RawQuery: r.URL.RawQuery, Header: map[string]string{}}
		for _, h := range []string{"Content-Type", "Accept", "X-Paginate"} {
			if v := r.Header.Get(h); v != "" {
				ex.Header[h] = v
			}
		}
		reqType := mediaType(r.Header.Get("Content-Type"))
		var body *tee
		if (isJSON(reqType) || reqType == "application/x-www-form-urlencoded") && r.Body != nil {
			body = &tee{r: r.Body}
			r.Body = body
		}
		var parts *partsTee
		if reqType == "multipart/form-data" && r.Body != nil {
			if parts = newPartsTee(r.Body, r.Header.Get("Content-Type")); parts != nil {
				r.Body = parts
			}
		}
		cw := &capture{StatusWriter: wire.StatusWriter{ResponseWriter: w}}
		next.ServeHTTP(cw, r)
		if parts != nil {
			ex.Data, ex.DataKept = parts.finish()
		}
		if cw.Dropped || (cw.Status == 0 && r.Context().Err() != nil) {
			return // no answer reached the client: dropped, or it gave up first
		}
		if body != nil {
			var parsed bool
			ex.Body, parsed = redactBody(reqType, body.kept.buf.Bytes())
			ex.BodyKept = parsed && body.eof && !body.kept.over
		} else {
			ex.BodyKept = r.ContentLength == 0 && reqType == ""
		}
		ex.Status = cmp.Or(cw.Status, http.StatusOK)
		ex.ContentType = cw.Header().Get("Content-Type")
		if isJSON(mediaType(ex.ContentType)) && !cw.kept.over {
			ex.Answer, ex.AnswerKept = redactJSON(cw.kept.buf.Bytes())
		}
		rec.write(ex)
	})
}

// secretKeys are the JSON and form keys whose values are never recorded.
var secretKeys = map[string]bool{"client_secret": true, "clientSecret": true, "key": true, "apiKey": true,
	"apiSecret": true, "digest": true, "nonce": true, "access_token": true, "secret": true, "signingLink": true,
	"requestUrl": true}

// signLink matches the token of a signing link wherever it appears (a
// link, an email's text).
var signLink = regexp.MustCompile(`/public/sign/[0-9A-Za-z_-]+`)

// redactPath hides the token of a signing link (/public/sign/{token}...).
func redactPath(p string) string {
	return signLink.ReplaceAllString(p, "/public/sign/redacted")
}

// redactBody redacts a JSON or form request body of media type mt; ok is
// false, and nothing is kept, when it does not parse.
func redactBody(mt string, b []byte) (string, bool) {
	if isJSON(mt) {
		return redactJSON(b)
	}
	v, err := url.ParseQuery(string(b))
	if err != nil {
		return "", false
	}
	for k := range v {
		if secretKeys[k] {
			v[k] = []string{"redacted"}
		}
	}
	return redactPath(v.Encode()), true
}

// redactJSON replaces the string values of secret keys, at any depth, by
// "redacted", and the tokens of signing links. ok is false, and nothing
// is kept, when b is not one JSON value.
func redactJSON(b []byte) (string, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil || dec.More() {
		return "", false
	}
	out, err := json.Marshal(redactValue(v))
	if err != nil {
		return "", false
	}
	return redactPath(string(out)), true
}

func redactValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if _, isString := e.(string); isString && secretKeys[k] {
				x[k] = "redacted"
			} else {
				x[k] = redactValue(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = redactValue(e)
		}
	}
	return v
}

// write appends ex to the recorder's file; a failure is logged once.
func (rec *recorder) write(ex Exchange) {
	line, err := json.Marshal(ex)
	if err != nil {
		return
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if rec.file == nil && rec.err == nil {
		rec.file, rec.err = os.CreateTemp(rec.dir, "traffic-*.jsonl")
		if rec.err != nil {
			log.Printf("signkit-mock: %s: %v", DirEnv, rec.err)
		}
	}
	if rec.file != nil {
		_, _ = rec.file.Write(append(line, '\n'))
	}
}

// mediaType answers the media type of a Content-Type, "" when there is none.
func mediaType(contentType string) string {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt
}

// isJSON reports whether a media type is JSON.
func isJSON(mt string) bool {
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// bounded keeps what is added to it, up to maxBody; over says that more
// came, and then what it keeps is not the whole.
type bounded struct {
	buf  bytes.Buffer
	over bool
}

func (b *bounded) add(p []byte) {
	if b.buf.Len()+len(p) > maxBody {
		b.over = true
	} else {
		b.buf.Write(p)
	}
}

// tee keeps what is read through it.
type tee struct {
	r    io.ReadCloser
	kept bounded
	eof  bool
}

func (t *tee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.kept.add(p[:n])
	if errors.Is(err, io.EOF) {
		t.eof = true
	}
	return n, err
}

func (t *tee) Close() error { return t.r.Close() }

// capture keeps the status and the body of an answer.
type capture struct {
	wire.StatusWriter
	kept bounded
}

func (c *capture) Write(b []byte) (int, error) {
	c.kept.add(b)
	return c.StatusWriter.Write(b)
}

// Read answers every exchange recorded in the files under dir.
func Read(dir string) ([]Exchange, error) {
	files, err := filepath.Glob(filepath.Join(dir, "traffic-*.jsonl"))
	if err != nil {
		return nil, err
	}
	var out []Exchange
	for _, name := range files {
		if out, err = readFile(name, out); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return out, nil
}

// readFile appends the exchanges recorded in one file to out.
func readFile(name string, out []Exchange) ([]Exchange, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4*maxBody)
	for sc.Scan() {
		var ex Exchange
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return nil, err
		}
		out = append(out, ex)
	}
	return out, sc.Err()
}
