package send_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// sendJSONPath is the JSON create route under {Send}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const sendJSONPath = "/api/v1/casefiles/json/20251022/create-production-base64"

// jsonCreate posts body to the JSON create route with the given
// headers (none: the token in X-Auth-Token).
func jsonCreate(t testing.TB, s *mockserver.Server, tok string, body []byte, header http.Header) (int, []byte, testkit.Job) {
	t.Helper()
	req, err := http.NewRequest("POST", s.URL()+"/send"+sendJSONPath, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if header == nil {
		header = http.Header{"X-Auth-Token": {tok}}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	return testkit.DoSendCreate(t, s, req)
}

// jsonBody is the JSON route's body for cf, each document carrying pdf.
func jsonBody(t testing.TB, cf map[string]any, pdf []byte) []byte {
	t.Helper()
	for _, d := range cf["documents"].([]any) {
		d.(map[string]any)["pdf"] = base64.StdEncoding.EncodeToString(pdf)
	}
	b, err := json.Marshal(map[string]any{"caseFile": cf})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSendJSONRouteCreatesTheCaseFile(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t)
	pdf := mockserver.SamplePDF("Lease text")
	cf := testkit.CaseDef("Ada:ada@example.com", "Bob:bob@example.com:1")
	// The connector's documents have no name: title and pdf.
	cf["documents"] = []any{map[string]any{"title": "Lease"}, map[string]any{"title": "Rules", "signable": false}}
	signers := cf["signers"].([]any)
	signers[0].(map[string]any)["secureSigningMethods"] = []string{"mitid.dk"}
	signers[1].(map[string]any)["emailFormat"] = "html"
	body := jsonBody(t, cf, pdf)

	// A Bearer header beside X-Auth-Token is not read.
	st, b, j := jsonCreate(t, s, tok, body, http.Header{"X-Auth-Token": {tok}, "Authorization": {"Bearer not-a-token"}})
	if st != http.StatusOK || j.UUID == "" {
		t.Fatalf("create: %d %s", st, b)
	}
	sum := sha256.Sum256(body)
	if j.PayloadHash != hex.EncodeToString(sum[:]) {
		t.Errorf("payloadHash %s, want SHA-256 of the body as sent", j.PayloadHash)
	}
	s.Advance(testkit.JobDelay(s))
	st, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash)
	if st != 200 || out.JobStatus != testkit.JobCompleted || out.Result == nil {
		t.Fatalf("status: %d %s", st, raw)
	}
	if bytes.Contains(out.Payload, []byte("JVBER")) {
		t.Errorf("the queue's payload holds the PDFs: %.200s", out.Payload)
	}
	id := out.Result.Data.CaseFile.ID
	var got struct {
		Documents []struct {
			ID       int64  `json:"id"`
			Title    string `json:"title"`
			Signable bool   `json:"signable"`
		} `json:"documents"`
		Signers []struct {
			Name           string `json:"name"`
			SigningRequest struct {
				EmailFormat          string   `json:"emailFormat"`
				SecureSigningMethods []string `json:"secureSigningMethods"`
			} `json:"signingRequest"`
		} `json:"signers"`
	}
	if st, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &got); st != 200 {
		t.Fatalf("get: %d %s", st, b)
	}
	if len(got.Documents) != 2 || got.Documents[0].Title != "Lease" || got.Documents[1].Signable {
		t.Fatalf("documents: %+v", got.Documents)
	}
	if m := got.Signers[0].SigningRequest.SecureSigningMethods; len(m) != 1 || m[0] != "mitid.dk" {
		t.Errorf("Ada's secure methods: %v", m)
	}
	if f := got.Signers[1].SigningRequest.EmailFormat; f != "html" {
		t.Errorf("Bob's email format: %q", f)
	}
	req := testkit.NewReq(t, s, "GET", fmt.Sprintf("/api/v1/documents/%d/content?signed=false", got.Documents[0].ID))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Accept", "application/pdf")
	if st, content := testkit.Do(t, s, req, nil); st != 200 || !bytes.Equal(content, pdf) {
		t.Errorf("document content: %d, %d bytes; want the PDF sent (%d bytes)", st, len(content), len(pdf))
	}

	// The same body again is a duplicate, as on the multipart route.
	st, b, j2 := jsonCreate(t, s, tok, body, nil)
	if st != http.StatusOK {
		t.Fatalf("second create: %d %s", st, b)
	}
	s.Advance(testkit.JobDelay(s))
	if _, out, raw := testkit.QueueStatus(t, s, j2.UUID, j2.PayloadHash); out.JobStatus != testkit.JobDuplicate ||
		out.ErrorMessage == nil || !strings.Contains(*out.ErrorMessage, j.UUID) {
		t.Errorf("second job: %s", raw)
	}
	if n := s.Stats().CaseFiles; n != 1 {
		t.Errorf("%d case files, want 1", n)
	}
}

func TestSendJSONRouteRefusals(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t, mockserver.WithMaxUploadBytes(64<<10), mockserver.WithMaxBodyBytes(8<<10))
	pdf := mockserver.SamplePDF("x")
	valid := func() map[string]any {
		cf := testkit.CaseDef("Ada:ada@example.com")
		cf["documents"] = []any{map[string]any{"title": "Lease"}}
		return cf
	}
	noTitle := valid()
	delete(noTitle, "title")
	bigMeta := valid()
	bigMeta["metaData"] = strings.Repeat("m", 9<<10)
	unknownMethod := valid()
	unknownMethod["signers"].([]any)[0].(map[string]any)["secureSigningMethods"] = []string{"mitid.se"}
	tests := []struct {
		name   string
		body   []byte
		header http.Header
		status int
		field  string
	}{
		{"no title", jsonBody(t, noTitle, pdf), nil, 400, "caseFile.title"},
		{"unknown signing method", jsonBody(t, unknownMethod, pdf), nil, 400, "caseFile.signers[0].secureSigningMethods[0]"},
		{"not a PDF", jsonBody(t, valid(), []byte("hello")), nil, 400, "caseFile.documents[0].pdf"},
		{"malformed JSON", []byte(`{"caseFile":{"title":`), nil, 400, ""},
		{"Bearer only", jsonBody(t, valid(), pdf), http.Header{"Authorization": {"Bearer " + tok}}, 401, ""},
		{"over the limit", jsonBody(t, valid(), bytes.Repeat(pdf, 200)), nil, 413, ""},
		{"definition over the body limit", jsonBody(t, bigMeta, pdf), nil, 413, ""},
	}
	for _, tt := range tests {
		st, b, _ := jsonCreate(t, s, tok, tt.body, tt.header)
		if st != tt.status {
			t.Errorf("%s: %d %s, want %d", tt.name, st, b, tt.status)
			continue
		}
		var e testkit.APIError
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s: %v: %s", tt.name, err, b)
		}
		if tt.status == 400 && (e.Error != "Bad Request" || e.StatusCode != 400 || e.Message == "") {
			t.Errorf("%s: not the platform's 400 body: %s", tt.name, b)
		}
		if tt.name == "definition over the body limit" && !strings.Contains(e.Message, "without its documents") {
			t.Errorf("%s: message %q does not say what is too large", tt.name, e.Message)
		}
		if tt.field != "" && (len(e.Details) == 0 || e.Details[0].Field != tt.field) {
			t.Errorf("%s: details %+v, want %s first", tt.name, e.Details, tt.field)
		}
	}
	// Over the limit without a Content-Length: the limit holds while the
	// body streams, and nothing stays behind.
	req, _ := http.NewRequest("POST", s.URL()+"/send"+sendJSONPath,
		io.MultiReader(bytes.NewReader(jsonBody(t, valid(), bytes.Repeat(pdf, 200)))))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Auth-Token", tok)
	if st, b := testkit.Do(t, s, req, nil); st != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked over the limit: %d %s, want 413", st, b)
	}
	s.Advance(time.Hour)
	if n, f, c := s.Stats().Jobs, testkit.TempFiles(t, s), s.Stats().CaseFiles; n != 0 || len(f) != 0 || c != 0 {
		t.Fatalf("after refused requests: %d jobs, files %q, %d case files", n, f, c)
	}
}

func TestSensitiveDataTurnsAccessControlOn(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	cf := testkit.CaseDef("Ada:ada@example.com", "Bob:bob@example.com", "Cy:-")
	cf["sensitiveData"] = true
	cf["signers"].([]any)[1].(map[string]any)["accessControl"] = false
	id, _ := testkit.RunCase(t, s, tok, cf, file)
	var got struct {
		SensitiveData           bool `json:"sensitiveData"`
		DisableEmailAttachments bool `json:"disableEmailAttachments"`
		Signers                 []struct {
			Name           string `json:"name"`
			SigningRequest struct {
				AccessControl bool `json:"accessControl"`
			} `json:"signingRequest"`
		} `json:"signers"`
	}
	if st, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &got); st != 200 {
		t.Fatalf("get: %d %s", st, b)
	}
	if !got.SensitiveData || !got.DisableEmailAttachments || len(got.Signers) != 3 {
		t.Fatalf("case file: %+v", got)
	}
	for _, sg := range got.Signers {
		if !sg.SigningRequest.AccessControl {
			t.Errorf("%s: accessControl false on a case file with sensitive data", sg.Name)
		}
	}
	// Without sensitive data, access control stays as each signer asked.
	cf = testkit.CaseDef("Ada:ada@example.com")
	cf["title"] = "Not sensitive"
	id, _ = testkit.RunCase(t, s, tok, cf, file)
	got.Signers = nil
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &got)
	if len(got.Signers) != 1 || got.Signers[0].SigningRequest.AccessControl {
		t.Errorf("without sensitive data: %+v", got.Signers)
	}
}
