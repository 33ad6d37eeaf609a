package send

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/tmpdir"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// testPDF is enough of a PDF for the mock's check (%PDF- at the start).
var testPDF = []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n")

// jsonService is a Service with only what readJSONUpload needs.
func jsonService(t *testing.T) *Service {
	t.Helper()
	dir := &tmpdir.Dir{}
	t.Cleanup(dir.RemoveAll)
	return &Service{cfg: Config{Temp: dir, MaxBodyBytes: 1 << 20, MaxUploadBytes: 1 << 22}}
}

// readJSON runs readJSONUpload over body.
func readJSON(t *testing.T, svc *Service, body string) (*upload, error) {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "/x", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	up, err := svc.readJSONUpload(r)
	if up != nil {
		t.Cleanup(up.remove)
	}
	return up, err
}

func TestJSONUploadTakesThePDFsOut(t *testing.T) {
	t.Parallel()
	svc := jsonService(t)
	b64 := base64.StdEncoding.EncodeToString(testPDF)
	body := `{"caseFile":{"title":"Lease \u00e6\/x","signers":[{"name":"A","n":1.50e3,"ok":true,"no":null}],` +
		`"documents":[{"title":"One","pdf":"` + strings.ReplaceAll(b64, "/", `\/`) + `","name":"one.pdf"},` +
		`{"pdf":"data:application/pdf;base64,` + strings.TrimRight(b64, "=") + `","title":"Two"}]}}` + "\n "
	up, err := readJSON(t, svc, body)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(body))
	if up.hash != hex.EncodeToString(sum[:]) {
		t.Errorf("payload hash %s is not SHA-256 of the body as received", up.hash)
	}
	var got, want any
	if err := json.Unmarshal(up.data, &got); err != nil {
		t.Fatalf("data is not JSON: %v: %s", err, up.data)
	}
	_ = json.Unmarshal([]byte(`{"caseFile":{"title":"Lease æ/x","signers":[{"name":"A","n":1500,"ok":true,"no":null}],`+
		`"documents":[{"title":"One","name":"one.pdf"},{"title":"Two"}]}}`), &want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("data without the PDFs:\n got %s", up.data)
	}
	if up.problems.n != 0 || len(up.files) != 2 {
		t.Fatalf("problems %v, %d files; want none and 2", up.problems, len(up.files))
	}
	for i, f := range up.files {
		b, err := os.ReadFile(f.Path)
		if err != nil || !bytes.Equal(b, testPDF) || !f.IsPDF || f.Doc != i || f.Size != int64(len(testPDF)) {
			t.Errorf("file %d: %+v (%v), content %q", i, f, err, b)
		}
	}
	if up.files[0].Name != "one.pdf" || up.files[1].Name != "" {
		t.Errorf("names %q and %q, want one.pdf and none", up.files[0].Name, up.files[1].Name)
	}
}

func TestJSONUploadProblems(t *testing.T) {
	t.Parallel()
	notPDF := base64.StdEncoding.EncodeToString([]byte("hello"))
	tests := []struct {
		name, docs string
		field, msg string
	}{
		{"missing pdf", `[{"title":"a"}]`, "caseFile.documents[0].pdf", "is required"},
		{"empty pdf", `[{"title":"a","pdf":""}]`, "caseFile.documents[0].pdf", "is empty"},
		{"pdf a number", `[{"title":"a","pdf":12}]`, "caseFile.documents[0].pdf", "must be a string"},
		{"pdf an object", `[{"title":"a","pdf":{"x":[1,{}]}}]`, "caseFile.documents[0].pdf", "must be a string"},
		{"not base64", `[{"title":"a","pdf":"%%%%"}]`, "caseFile.documents[0].pdf", "is not base64"},
		{"twice", `[{"title":"a","pdf":"` + notPDF + `","pdf":"` + notPDF + `"}]`, "caseFile.documents[0].pdf", "is given twice"},
		{"second without", `[{"title":"a","pdf":"` + notPDF + `"},{"title":"b"}]`, "caseFile.documents[1].pdf", "is required"},
		{"pdf an object holding a case file", `[{"pdf":{"caseFile":{"documents":[{"pdf":"JVBERi0xLjQK"}]}}}]`,
			"caseFile.documents[0].pdf", "must be a string"},
		{"bad padding", `[{"title":"a","pdf":"JVBERi0xLg="}]`, "caseFile.documents[0].pdf", "is not base64"},
		{"escape past ASCII", `[{"title":"a","pdf":"JVBE\u00e9"}]`, "caseFile.documents[0].pdf", "is not base64"},
		{"data URL without comma", `[{"title":"a","pdf":"data:application/pdf;base64"}]`, "caseFile.documents[0].pdf", "is not base64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			up, err := readJSON(t, jsonService(t), `{"caseFile":{"title":"t","documents":`+tt.docs+`}}`)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, p := range up.problems.list {
				found = found || p.Field == tt.field && strings.Contains(p.Message, tt.msg)
			}
			if !found {
				t.Fatalf("no problem %s %q in %+v", tt.field, tt.msg, up.problems)
			}
		})
	}
}

// A document's content is decoded as it streams: JSON escapes, line
// breaks, a data URL's prefix and missing padding are taken as senders
// send them.
func TestJSONUploadDecodesWhatSendersSend(t *testing.T) {
	t.Parallel()
	b64 := base64.StdEncoding.EncodeToString(testPDF)
	wrapped := ""
	for i := 0; i < len(b64); i += 8 {
		wrapped += b64[i:min(i+8, len(b64))] + `\r\n`
	}
	tests := map[string]string{
		"plain":           b64,
		"escaped slashes": strings.ReplaceAll(b64, "/", `\/`),
		"line-wrapped":    wrapped,
		"unicode escapes": `\u004a\u0056` + b64[2:],
		"no padding":      strings.TrimRight(b64, "="),
		"data URL":        "data:application/pdf;base64," + b64,
	}
	for name, text := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			up, err := readJSON(t, jsonService(t), `{"caseFile":{"documents":[{"title":"a","pdf":"`+text+`"}]}}`)
			if err != nil {
				t.Fatal(err)
			}
			if up.problems.n != 0 || len(up.files) != 1 {
				t.Fatalf("problems %v, %d files", up.problems, len(up.files))
			}
			if b, err := os.ReadFile(up.files[0].Path); err != nil || !bytes.Equal(b, testPDF) {
				t.Fatalf("content %q (%v), want the PDF", b, err)
			}
		})
	}
}

// Object keys that look like array positions make no documents: only the
// items of the documents array are documents.
func TestJSONUploadCountsOnlyArrayItems(t *testing.T) {
	t.Parallel()
	up, err := readJSON(t, jsonService(t), `{"caseFile":{"documents":{"[2000000]":{"pdf":"JVBERi0xLjQK"}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	if up.problems.n != 0 || len(up.files) != 0 {
		t.Fatalf("problems %v, files %v; want none (validate reports documents' type)", up.problems, up.files)
	}
	_, p := validate(up, time.Now())
	if p.n != 1 || p.list[0].Field != "caseFile.documents" {
		t.Fatalf("validate: %v", p)
	}
}

// The memory the reader takes does not grow with the document: a 24 MiB
// PDF is read with a fixed buffer, never held.
func TestJSONUploadMemoryDoesNotGrowWithTheDocument(t *testing.T) {
	svc := jsonService(t)
	svc.cfg.MaxUploadBytes = 1 << 30
	const groups = 8 << 20 // 32 MiB of base64, 24 MiB decoded
	body := io.MultiReader(strings.NewReader(`{"caseFile":{"title":"Big","documents":[{"title":"a","pdf":"JVBERi0x`),
		&repeatReader{pattern: []byte("QUFB"), left: groups * 4}, strings.NewReader(`"}]}}`))
	r := httptest.NewRequest(http.MethodPost, "/x", body)
	r.Header.Set("Content-Type", "application/json")
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	up, err := svc.readJSONUpload(r)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(up.remove)
	if len(up.files) != 1 || up.files[0].Size != 6+groups*3 || !up.files[0].IsPDF {
		t.Fatalf("files %+v", up.files)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 2<<20 {
		t.Fatalf("reading a %d MiB document allocated %d KiB; want a fixed buffer (under 2 MiB)", groups*3>>20, alloc>>10)
	}
}

// repeatReader yields pattern over and over, left bytes in all.
type repeatReader struct {
	pattern []byte
	left    int
	off     int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		p[n] = r.pattern[r.off]
		r.off = (r.off + 1) % len(r.pattern)
		n++
		r.left--
	}
	return n, nil
}

func TestJSONUploadRefusesMalformedBodies(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"not an object":     `[]`,
		"truncated":         `{"caseFile":{"title":"x"`,
		"trailing":          `{"caseFile":{}}{}`,
		"too deep":          `{"caseFile":` + strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1) + `}`,
		"empty":             ``,
		"second caseFile":   `{"caseFile":{"title":"a"},"caseFile":{"title":"b"}}`,
		"second documents":  `{"caseFile":{"documents":[{"title":"a","pdf":"JVBERi0xLjQK"}],"documents":[{"title":"b"}]}}`,
		"control character": "{\"caseFile\":{\"title\":\"a\tb\"}}",
		"unquoted key":      `{caseFile:{}}`,
		"missing colon":     `{"caseFile" {}}`,
		"long key":          `{"` + strings.Repeat("k", maxKey+1) + `":1}`,
	}
	for name, body := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			svc := jsonService(t)
			_, err := readJSON(t, svc, body)
			err = jsonBodyError(err, svc.cfg.MaxUploadBytes)
			var we *wire.Error
			if !errors.As(err, &we) || we.Status != http.StatusBadRequest {
				t.Fatalf("error %v, want a 400", err)
			}
			if entries, _ := os.ReadDir(svc.cfg.Temp.Root()); len(entries) != 0 {
				t.Errorf("%d directories left behind", len(entries))
			}
		})
	}
}

// FuzzJSONUpload checks, for any body, that the reader neither panics nor
// loses anything: a body that is one JSON object comes out as the same
// JSON without the documents' pdf values, each of which is on disk.
func FuzzJSONUpload(f *testing.F) {
	b64 := base64.StdEncoding.EncodeToString(testPDF)
	for _, seed := range []string{
		`{"caseFile":{"title":"t","documents":[{"title":"d","pdf":"` + b64 + `"}]}}`,
		`{"caseFile":{"documents":[{"pdf":"` + b64 + `"},{"pdf":1},{"x":{"pdf":"a"}}],"pdf":"x"}}`,
		`{"a":[1,2,{"b":null}],"caseFile":{"documents":{"pdf":"x"}}}`,
		`{"caseFile":"\ud83d\ude00\u0000"}`,
		`[`, `{}`, `{"caseFile":{}} x`,
		`{"caseFile":{"documents":[{"pdf":{"caseFile":{"documents":[{"pdf":"JVBERi0xLjQK"}]}}}]}}`,
		`{"caseFile":{"documents":{"[9223372036854775806]":{"pdf":"JVBERi0xLjQK"}}}}`,
		`{"caseFile":{"documents":[{"pdf":"JVBE\r\nRi0xLjQK"},{"pdf":"JVBERi0xLg="}],"n":-1.5e+3,"t":[true,false,null]}}`,
		`{"CaseFile":{"Documents":[{"Pdf":"JVBERi0xLjQK"}]}}`, `{"caseFile":{"documents":[{"PDF":"x"}]}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		svc := jsonService(t)
		up, err := readJSON(t, svc, body)
		var in map[string]any
		isObject := json.Unmarshal([]byte(body), &in) == nil && in != nil
		if err != nil {
			if isObject && len(body) < 1<<20 && !strings.Contains(body, strings.Repeat("[", 60)) &&
				!strings.Contains(body, strings.Repeat("{", 60)) {
				var we *wire.Error
				if !errors.As(err, &we) || !strings.Contains(we.Message, "nested") && !strings.Contains(we.Message, "given twice") &&
					!strings.Contains(we.Message, "longer than") && !strings.Contains(we.Message, "is not a key") &&
					!strings.Contains(we.Message, "at most") {
					t.Fatalf("a JSON object was refused: %v", err)
				}
			}
			return
		}
		var out map[string]any
		parsed := json.Unmarshal(up.data, &out) == nil
		if !isObject {
			// The reader leaves what is inside strings and numbers to
			// validate, which must then refuse: the copy does not parse,
			// or a problem was found in a skipped pdf value.
			if parsed && up.problems.n == 0 {
				t.Fatalf("accepted a body that is not one JSON object: %q (data %q)", body, up.data)
			}
			return
		}
		if !parsed {
			t.Fatalf("data of a JSON object is not JSON: %q", up.data)
		}
		if cf, ok := in["caseFile"].(map[string]any); ok {
			if docs, ok := cf["documents"].([]any); ok {
				for _, d := range docs {
					if m, ok := d.(map[string]any); ok {
						delete(m, "pdf")
					}
				}
			}
		}
		if !reflect.DeepEqual(in, out) {
			t.Fatalf("data changed:\n in  %q\n out %q", body, up.data)
		}
		for _, fl := range up.files {
			if st, err := os.Stat(fl.Path); err != nil || st.Size() != fl.Size {
				t.Fatalf("file of document %d: %v", fl.Doc, err)
			}
		}
	})
}
