package send_test

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// A disk failure while a create request streams (here: its upload
// directory removed under it) is the server's: answered 500 without its
// text, never with a path of the server's disk. Before, the multipart
// route answered 400 "malformed multipart body: read upload: create
// upload file: open /tmp/signkit-mock-…/upload-…/file-…: no such file or
// directory".
func TestSendDiskFailureNamesNoPath(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t)
	data := `{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[{"name":"doc.pdf","title":"D"}]}}`
	var head, tail bytes.Buffer
	mw := multipart.NewWriter(&head)
	w, _ := mw.CreateFormField("data")
	_, _ = w.Write([]byte(data))
	tail.WriteString("\r\n--" + mw.Boundary() + "\r\n" +
		`Content-Disposition: form-data; name="files"; filename="doc.pdf"` + "\r\n" +
		"Content-Type: application/pdf\r\n\r\n" + string(mockserver.SamplePDF("x")) +
		"\r\n--" + mw.Boundary() + "--\r\n")
	routes := []struct {
		name, path, contentType string
		head, tail              []byte
	}{
		{"multipart", "/send" + testkit.SendCreatePath, mw.FormDataContentType(), head.Bytes(), tail.Bytes()},
		{"JSON", "/send" + sendJSONPath, "application/json",
			[]byte(`{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[`),
			[]byte(`{"title":"D","pdf":"` + base64.StdEncoding.EncodeToString(mockserver.SamplePDF("x")) + `"}]}}`)},
	}
	for _, rt := range routes {
		pr, pw := io.Pipe()
		req, err := http.NewRequest("POST", s.URL()+rt.path, pr)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", rt.contentType)
		req.Header.Set("X-Auth-Token", tok)
		type answer struct {
			st int
			b  []byte
		}
		done := make(chan answer, 1)
		go func() {
			st, b := testkit.Do(t, s, req, nil)
			done <- answer{st, b}
		}()
		_, _ = pw.Write(rt.head)
		dir := tempUploadDir(t, s)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		_, _ = pw.Write(rt.tail)
		_ = pw.Close()
		a := <-done
		root := testkit.TempRoot(s)
		if a.st != http.StatusInternalServerError || !strings.Contains(string(a.b), `"error":"disk_error"`) ||
			strings.Contains(string(a.b), root) || strings.Contains(string(a.b), "/upload-") {
			t.Errorf("%s: %d %s, want 500 disk_error without a path (the temporary directory is %s)", rt.name, a.st, a.b, root)
		}
	}
	if f := testkit.TempFiles(t, s); len(f) != 0 {
		t.Errorf("files left on disk: %q", f)
	}
}

// tempUploadDir waits for the one upload directory under the server's
// temporary directory and answers it.
func tempUploadDir(t testing.TB, s *mockserver.Server) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if root := testkit.TempRoot(s); root != "" {
			if m, _ := filepath.Glob(filepath.Join(root, "upload-*")); len(m) == 1 {
				return m[0]
			}
		}
	}
	t.Fatal("no upload directory appeared")
	return ""
}
