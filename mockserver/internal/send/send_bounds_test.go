package send_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// boundsPDF is the smallest content the mock takes as a PDF ("%PDF-1"),
// base64-encoded.
const boundsPDF = "JVBERi0x"

// boundsJSON is a JSON create body with n documents, each carrying pdf.
func boundsJSON(n int, pdf string) []byte {
	var b strings.Builder
	b.WriteString(`{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"title":"D%d","pdf":%q}`, i, pdf)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// boundsMultipart is a multipart create body's parts: a data part naming
// docs documents and files files parts.
func boundsMultipart(t testing.TB, docs, files int) []testkit.Part {
	var list []any
	for i := range docs {
		list = append(list, map[string]any{"name": fmt.Sprintf("d%d.pdf", i), "title": "D"})
	}
	parts := []testkit.Part{testkit.DataPart(t, map[string]any{"title": "T", "signers": []any{map[string]any{"name": "Ada"}}, "documents": list})}
	for i := range files {
		parts = append(parts, testkit.FilePart(fmt.Sprintf("d%d.pdf", i), []byte("%PDF-1")))
	}
	return parts
}

// boundsRefused checks that an answer is the Send 400 whose message
// names want, small and without a path of the server's disk.
func boundsRefused(t testing.TB, name string, st int, b []byte, want string) {
	t.Helper()
	var e testkit.APIError
	_ = json.Unmarshal(b, &e)
	if st != http.StatusBadRequest || e.Error != "Bad Request" || !strings.Contains(e.Message, want) {
		t.Errorf("%s: %d %.300s, want the Send 400 saying %q", name, st, b, want)
	}
	if len(b) > 32<<10 {
		t.Errorf("%s: the answer is %d bytes", name, len(b))
	}
}

// A create request carries at most DefaultMaxDocuments documents on each
// route; the one past it is the Send 400 naming the bound, and nothing is
// kept. Before, 20,000 documents were accepted and left 20,000 files on
// disk.
func TestSendDefaultMaxDocuments(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t)
	const over = 1001
	want := "at most 1000 documents"
	for _, path := range []string{sendJSONPath, sendSandboxJSONPath} {
		st, b := jsonCreateAt(t, s, tok, path, boundsJSON(over, boundsPDF))
		boundsRefused(t, path, st, b, want)
	}
	st, b, _ := testkit.SendCreate(t, s, tok, boundsMultipart(t, over, over)...)
	boundsRefused(t, "multipart", st, b, want)
	st, b, _ = testkit.SendCreate(t, s, tok, boundsMultipart(t, 1, over)...)
	boundsRefused(t, "multipart, files past the bound", st, b, want)
	st, b, _ = testkit.SendCreate(t, s, tok, boundsMultipart(t, over, 1)...)
	boundsRefused(t, "multipart, documents past the bound", st, b, want)
	if n, f := s.Stats().Jobs, testkit.TempFiles(t, s); n != 0 || len(f) != 0 {
		t.Fatalf("after refused requests: %d jobs, %d files on disk", n, len(f))
	}
}

// The bound holds while the JSON body streams: the scanner stops at the
// document past it, without reading the rest of the body.
func TestSendMaxDocumentsStopsTheStream(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t)
	const docs = 20_000 // about 620 KB
	body := &countingReader{r: io.MultiReader(
		strings.NewReader(`{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[`),
		&docStream{n: docs}, strings.NewReader(`]}}`))}
	req := httptest.NewRequest("POST", "/send"+sendJSONPath, body)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Auth-Token", tok)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	boundsRefused(t, "streamed", rec.Code, rec.Body.Bytes(), "at most 1000 documents")
	if body.n > 256<<10 {
		t.Errorf("read %d bytes of the body before refusing it, want the first 1001 documents and a buffer", body.n)
	}
	if f := testkit.TempFiles(t, s); len(f) != 0 {
		t.Errorf("%d files left on disk", len(f))
	}
}

// A 400 carries at most 100 problems, and its message says how many there
// were. Before, 300,000 bad pdf values were answered with a 52.9 MB body.
func TestSendProblemsAreCapped(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	roles := make([]string, 5000)
	for i := range roles {
		roles[i] = "x" // too short, and no signer's
	}
	cf := map[string]any{"title": "T", "signers": []any{map[string]any{"name": "Ada"}},
		"documents": []any{map[string]any{"name": "doc.pdf", "title": "D", "roles": roles}}}
	check := func(name string, st int, b []byte) {
		t.Helper()
		var e testkit.APIError
		_ = json.Unmarshal(b, &e)
		if st != http.StatusBadRequest || e.Error != "Bad Request" {
			t.Fatalf("%s: %d %.300s, want the Send 400", name, st, b)
		}
		if len(b) > 32<<10 || len(e.Details) != 100 {
			t.Errorf("%s: %d bytes, %d details, want at most 32 KiB and 100", name, len(b), len(e.Details))
		}
		if !strings.Contains(e.Message, "5000 problems") || !strings.Contains(e.Message, "4900 more") {
			t.Errorf("%s: message %q does not say how many problems there were", name, e.Message)
		}
	}
	st, b, _ := testkit.SendCreate(t, s, tok, testkit.DataPart(t, cf), file)
	check("multipart", st, b)
	cf["documents"].([]any)[0].(map[string]any)["pdf"] = boundsPDF
	delete(cf["documents"].([]any)[0].(map[string]any), "name")
	body, err := json.Marshal(map[string]any{"caseFile": cf})
	if err != nil {
		t.Fatal(err)
	}
	st, b = jsonCreateAt(t, s, tok, sendJSONPath, body)
	check("JSON", st, b)

	// Bad pdf values under the document bound: one problem each, capped.
	st, b = jsonCreateAt(t, s, tok, sendJSONPath, boundsJSON(1000, "*"))
	var e testkit.APIError
	_ = json.Unmarshal(b, &e)
	if st != 400 || len(b) > 32<<10 || len(e.Details) != 100 || !strings.Contains(e.Message, "1000 problems") {
		t.Errorf("1000 bad pdf values: %d, %d bytes, %d details, message %q", st, len(b), len(e.Details), e.Message)
	}
	if f := testkit.TempFiles(t, s); len(f) != 0 {
		t.Errorf("%d files left on disk", len(f))
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// docStream writes n documents of the JSON route's body, comma-separated,
// as they are read.
type docStream struct {
	n, i int
	buf  bytes.Buffer
}

func (d *docStream) Read(p []byte) (int, error) {
	for d.buf.Len() < len(p) && d.i < d.n {
		if d.i > 0 {
			d.buf.WriteByte(',')
		}
		fmt.Fprintf(&d.buf, `{"title":"D","pdf":%q}`, boundsPDF)
		d.i++
	}
	if d.buf.Len() == 0 {
		return 0, io.EOF
	}
	return d.buf.Read(p)
}

// WithMaxDocuments sets the bound on every create route; a value below 1
// keeps the default.
func TestWithMaxDocuments(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t, mockserver.WithMaxDocuments(3))
	for _, path := range []string{sendJSONPath, sendSandboxJSONPath} {
		st, b := jsonCreateAt(t, s, tok, path, boundsJSON(4, boundsPDF))
		boundsRefused(t, path, st, b, "at most 3 documents")
	}
	st, b, _ := testkit.SendCreate(t, s, tok, boundsMultipart(t, 4, 4)...)
	boundsRefused(t, "multipart", st, b, "at most 3 documents")
	if f := testkit.TempFiles(t, s); len(f) != 0 {
		t.Fatalf("after refused requests: %d files on disk", len(f))
	}
	if st, b := jsonCreateAt(t, s, tok, sendJSONPath, boundsJSON(3, boundsPDF)); st != http.StatusOK {
		t.Errorf("JSON, 3 documents: %d %s", st, b)
	}
	if st, b, _ := testkit.SendCreate(t, s, tok, boundsMultipart(t, 3, 3)...); st != http.StatusOK {
		t.Errorf("multipart, 3 documents: %d %s", st, b)
	}
	dflt, _, _ := sendServer(t, mockserver.WithMaxDocuments(0))
	if got := testkit.Core(dflt).Cfg.MaxDocuments; got != mockserver.DefaultMaxDocuments {
		t.Errorf("WithMaxDocuments(0): %d, want the default %d", got, mockserver.DefaultMaxDocuments)
	}
}
