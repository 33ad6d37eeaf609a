package send_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// keysPDF is a sample PDF, base64-encoded, for bodies written by hand.
var keysPDF = base64.StdEncoding.EncodeToString(mockserver.SamplePDF("Keys"))

// keysBody fills a JSON body template: PDF stands for a document's
// base64 content.
func keysBody(tmpl string) []byte { return []byte(strings.ReplaceAll(tmpl, "PDF", keysPDF)) }

// jsonCreateAt posts body to the JSON create route at path (under
// {Send}) with the token in X-Auth-Token.
func jsonCreateAt(t testing.TB, s *mockserver.Server, tok, path string, body []byte) (int, []byte) {
	t.Helper()
	r, err := http.NewRequest("POST", s.URL()+"/send"+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Auth-Token", tok)
	return testkit.Do(t, s, r, nil)
}

// Keys are read exactly, as the platform's schema names them, on both JSON
// routes: a case variant of a known key or a key given twice is the Send 400
// naming it
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// Before, the scanner read caseFile, documents and pdf exactly and
// encoding/json read every key without regard to case: a PascalCase body was
// accepted with no document, and documents beside Documents with one document
// of three.
func TestSendJSONKeysAreExact(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t)
	signer := `"signers":[{"name":"Ada","email":"ada@example.com"}]`
	tests := []struct {
		name, body    string
		field, reason string // the detail expected; reason: in its message
	}{
		{"PascalCase body (.NET's default)",
			`{"CaseFile":{"Title":"T","Signers":[{"Name":"Ada"}],"Documents":[{"Title":"D","Pdf":"PDF"}]}}`,
			"CaseFile", `"caseFile"`},
		{"documents and Documents",
			`{"caseFile":{"title":"T",` + signer + `,"documents":[{"title":"A","pdf":"PDF"},{"title":"B","pdf":"PDF"},{"title":"C","pdf":"PDF"}],"Documents":[{"title":"D","pdf":"PDF"}]}}`,
			"caseFile.Documents", `"documents"`},
		{"Documents first",
			`{"caseFile":{"title":"T",` + signer + `,"Documents":[{"title":"D","pdf":"PDF"}],"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.Documents", `"documents"`},
		{"Pdf", `{"caseFile":{"title":"T",` + signer + `,"documents":[{"title":"A","Pdf":"PDF"}]}}`,
			"caseFile.documents[0].Pdf", `"pdf"`},
		{"Title beside title", `{"caseFile":{"title":"T","Title":"U",` + signer + `,"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.Title", `"title"`},
		{"a document's Title", `{"caseFile":{"title":"T",` + signer + `,"documents":[{"Title":"A","pdf":"PDF"}]}}`,
			"caseFile.documents[0].Title", `"title"`},
		{"a signer's EMAIL", `{"caseFile":{"title":"T","signers":[{"name":"Ada","EMAIL":"ada@example.com"}],"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.signers[0].EMAIL", `"email"`},
		{"a CC's Email", `{"caseFile":{"title":"T",` + signer + `,"ccRecipients":[{"name":"Cy","Email":"cy@example.com"}],"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.ccRecipients[0].Email", `"email"`},
		{"Unicode case folding (long s)", `{"caſeFile":{"title":"T",` + signer + `,"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caſeFile", `"caseFile"`},
		{"title twice", `{"caseFile":{"title":"T","title":"U",` + signer + `,"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.title", "twice"},
		{"a signer's name twice", `{"caseFile":{"title":"T","signers":[{"name":"Ada","name":"Bob"}],"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.signers[0].name", "twice"},
		{"an unknown key twice", `{"caseFile":{"title":"T","x":1,"x":2,` + signer + `,"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.x", "twice"},
		{"documents twice", `{"caseFile":{"title":"T",` + signer + `,"documents":[{"title":"A","pdf":"PDF"}],"documents":[{"title":"A","pdf":"PDF"}]}}`,
			"caseFile.documents", "twice"},
	}
	for _, path := range []string{sendJSONPath, sendSandboxJSONPath} {
		for _, tt := range tests {
			st, b := jsonCreateAt(t, s, tok, path, keysBody(tt.body))
			var e testkit.APIError
			_ = json.Unmarshal(b, &e)
			if st != http.StatusBadRequest || e.Error != "Bad Request" || e.StatusCode != 400 {
				t.Errorf("%s %s: %d %.300s, want the Send 400", path, tt.name, st, b)
				continue
			}
			if !keysHasDetail(e, tt.field, tt.reason) {
				t.Errorf("%s %s: %s, want a detail on %s saying %s", path, tt.name, b, tt.field, tt.reason)
			}
		}
	}
	s.Advance(day)
	if n, f, c := s.Stats().Jobs, testkit.TempFiles(t, s), s.Stats().CaseFiles; n != 0 || len(f) != 0 || c != 0 {
		t.Fatalf("after refused requests: %d jobs, files %q, %d case files", n, f, c)
	}
}

// keysHasDetail tells whether e has a detail on field whose message holds
// reason.
func keysHasDetail(e testkit.APIError, field, reason string) bool {
	for _, d := range e.Details {
		if d.Field == field && strings.Contains(d.Message, reason) {
			return true
		}
	}
	return false
}

// The multipart route's data part is read with the same keys.
func TestSendMultipartKeysAreExact(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	for _, tt := range []struct{ name, data, field, reason string }{
		{"Documents", `{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[{"name":"doc.pdf","title":"A"}],"Documents":[]}}`,
			"caseFile.Documents", `"documents"`},
		{"CaseFile", `{"CaseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[{"name":"doc.pdf","title":"A"}]}}`,
			"CaseFile", `"caseFile"`},
		{"a document's Name", `{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[{"Name":"doc.pdf","title":"A"}]}}`,
			"caseFile.documents[0].Name", `"name"`},
		{"name twice", `{"caseFile":{"title":"T","signers":[{"name":"Ada"}],"documents":[{"name":"doc.pdf","name":"x.pdf","title":"A"}]}}`,
			"caseFile.documents[0].name", "twice"},
	} {
		st, b, _ := testkit.SendCreate(t, s, tok, testkit.Part{Field: "data", Body: []byte(tt.data)}, file)
		var e testkit.APIError
		_ = json.Unmarshal(b, &e)
		if st != http.StatusBadRequest || e.Error != "Bad Request" || !keysHasDetail(e, tt.field, tt.reason) {
			t.Errorf("%s: %d %.300s, want the Send 400 with a detail on %s saying %s", tt.name, st, b, tt.field, tt.reason)
		}
	}
}

// Keys the platform's schema does not name, and that are no case variant of one
// it names, stay accepted and unread: the vendor's schemas do not close their
// objects
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
func TestSendUnknownKeysStayAccepted(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	body := `{"caseFile":{"title":"T","x-trace":"a","extra":{"Title":1,"title":2},` +
		`"signers":[{"name":"Ada","email":"ada@example.com","nickname":"A"}],` +
		`"documents":[{"title":"A","pdf":"PDF","comment":"c"}]},"meta":{"k":[1,2]}}`
	for _, path := range []string{sendJSONPath, sendSandboxJSONPath} {
		if st, b := jsonCreateAt(t, s, tok, path, keysBody(body)); st != http.StatusOK {
			t.Errorf("%s: %d %s, want 200", path, st, b)
		}
	}
	data := `{"caseFile":{"title":"T2","x-trace":"a","signers":[{"name":"Ada","nickname":"A"}],` +
		`"documents":[{"name":"doc.pdf","title":"A","comment":"c"}]}}`
	if st, b, _ := testkit.SendCreate(t, s, tok, testkit.Part{Field: "data", Body: []byte(data)}, file); st != http.StatusOK {
		t.Errorf("multipart: %d %s, want 200", st, b)
	}
}
