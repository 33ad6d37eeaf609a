package signing_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

func TestCaseFilePermissions(t *testing.T) {
	t.Parallel()
	s, owner, file := newMock(t)
	id, _ := testkit.RunCase(t, s, owner, testkit.CaseDef("Ann:ann@example.com"), file)
	var details signing.CaseFileJSON
	if st, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), owner, nil, &details); st != 200 {
		t.Fatalf("owner: %d %s", st, b)
	}
	docPath := fmt.Sprintf("/api/v3/documents/%d/content", details.Documents[0].ID)
	users := map[string]mockserver.UserSpec{"super": {Name: "Super", SuperUser: true}, "colleague": {Name: "Colleague"},
		"stranger": {Name: "Stranger", NewCustomer: true}}
	tokens := map[string]string{"owner": owner}
	for name, spec := range users {
		tokens[name] = userToken(t, s, spec)
	}
	check := func(stage string, want map[string]int) {
		t.Helper()
		for who, code := range want {
			for _, p := range []string{fmt.Sprintf("/api/v1/casefiles/%d", id), docPath} {
				if st, b := testkit.GetAccept(t, s, p, tokens[who], ""); st != code {
					t.Errorf("%s: %s GET %s: %d, want %d: %.200s", stage, who, p, st, code, b)
				}
			}
		}
	}
	check("private", map[string]int{"owner": 200, "super": 200, "colleague": 403, "stranger": 404})
	if st, b := testkit.Call(t, s, "POST", fmt.Sprintf("/mock/casefiles/%d/shared-folder", id), "", map[string]bool{"shared": true}, nil); st != 200 {
		t.Fatalf("share: %d %s", st, b)
	}
	check("shared", map[string]int{"owner": 200, "super": 200, "colleague": 200, "stranger": 404})
	if st, _ := testkit.Call(t, s, "POST", "/mock/casefiles/999/shared-folder", "", map[string]bool{"shared": true}, nil); st != 404 {
		t.Fatalf("share unknown case file: %d", st)
	}
	if st, _ := testkit.Call(t, s, "GET", "/api/v1/casefiles/999", owner, nil, nil); st != 404 {
		t.Fatalf("unknown case file: %d", st)
	}
}

func TestCaseFileDetailsShape(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t, mockserver.WithJobDelay(time.Second)) // the activation 1 s after creation is asserted
	cf := testkit.CaseDef("Ann:ann@example.com:0", "Bob:-:1")
	cf["signers"].([]any)[0].(map[string]any)["role"] = "buyer"
	id, _ := testkit.RunCase(t, s, tok, cf, file)
	_, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, nil)
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	signers := got["signers"].([]any)
	ann, bob := signers[0].(map[string]any), signers[1].(map[string]any)
	doc := got["documents"].([]any)[0].(map[string]any)
	line := func(i int) map[string]any {
		lines, _ := doc["signatureLines"].([]any)
		if i >= len(lines) {
			t.Fatalf("document has %d signature lines: %s", len(lines), b)
		}
		return lines[i].(map[string]any)
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"status", got["status"], float64(testkit.CasePending)},
		{"title", got["title"], "Contract"},
		{"userId", got["userId"], float64(mockserver.DefaultUserID)},
		{"customerId", got["customerId"], float64(mockserver.DefaultCustomerID)},
		{"activated", got["activated"], float64(testkit.Epoch.Unix() + 1)},
		{"ann has no role of her own", ann["role"], nil},
		{"ann request status", ann["signingRequest"].(map[string]any)["status"], float64(signerPending)},
		{"ann email", ann["signingRequest"].(map[string]any)["email"], "ann@example.com"},
		{"bob has no order of his own", bob["signOrder"], nil},
		{"bob request status", bob["signingRequest"].(map[string]any)["status"], float64(signerNew)},
		{"ann's line role", line(0)["role"], "buyer"},
		{"ann's line signer", line(0)["signerId"], ann["id"]},
		{"ann's line order", line(0)["signOrder"], float64(0)},
		{"ann's line activated", line(0)["activatedAt"], float64(testkit.Epoch.Unix() + 1)},
		{"ann's line document", line(0)["documentId"], doc["id"]},
		{"bob's line order", line(1)["signOrder"], float64(1)},
		{"bob's line signer", line(1)["signerId"], bob["id"]},
		{"bob's line not activated", line(1)["activatedAt"], nil},
		{"doc case file", doc["caseFileId"], float64(id)},
		{"doc order", doc["documentOrder"], float64(0)},
		{"doc created", doc["created"], float64(testkit.Epoch.Unix() + 1)},
		{"expireAt null", got["expireAt"], nil},
		{"language default", got["language"], "en"},
		{"doc title", doc["title"], "The contract"},
		{"doc signable", doc["signable"], true},
		{"doc size", doc["fileSize"], float64(len(file.Body))},
		{"doc format", doc["format"], "pdf"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v (%s)", c.what, c.got, c.want, b)
		}
	}
}

func TestDocumentContentAndSignedPDF(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	cf := testkit.CaseDef("Ann Ærø:ann@example.com", "Bob Builder:-")
	cf["documents"] = append(cf["documents"].([]any), map[string]any{"name": "annex.pdf", "title": "Annex", "signable": false})
	annex := testkit.FilePart("annex.pdf", mockserver.SamplePDF("Annex text"))
	id, _ := testkit.RunCase(t, s, tok, cf, file, annex)
	var details signing.CaseFileJSON
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &details)
	main := fmt.Sprintf("/api/v3/documents/%d/content", details.Documents[0].ID)
	attach := fmt.Sprintf("/api/v3/documents/%d/content", details.Documents[1].ID)
	type content struct {
		Content []byte `json:"content"`
		Signed  bool   `json:"signed"`
	}
	jsonOf := func(path string) content {
		st, b := testkit.GetAccept(t, s, path, tok, "application/json")
		var c content
		if st != 200 || json.Unmarshal(b, &c) != nil {
			t.Fatalf("GET %s as JSON: %d %.200s", path, st, b)
		}
		return c
	}
	if st, b := testkit.GetAccept(t, s, main, tok, "application/pdf"); st != 200 || !bytes.Equal(b, file.Body) {
		t.Fatalf("original before completion: %d, %d bytes", st, len(b))
	}
	if c := jsonOf(main); c.Signed || !bytes.Equal(c.Content, file.Body) {
		t.Fatalf("JSON before completion: signed %v, %d bytes", c.Signed, len(c.Content))
	}
	if st, _ := testkit.GetAccept(t, s, main+"?signed=true", tok, ""); st != http.StatusConflict {
		t.Fatalf("signed=true before completion: %d, want 409", st)
	}
	if st, _ := testkit.GetAccept(t, s, main, tok, "text/html"); st != http.StatusNotAcceptable {
		t.Fatalf("Accept text/html: %d, want 406", st)
	}
	for _, name := range []string{"Ann Ærø", "Bob Builder"} {
		if err := s.SignerAction(id, testkit.SignerID(t, s, id, name), mockserver.ActionSign); err != nil {
			t.Fatal(err)
		}
	}
	st, signed := testkit.GetAccept(t, s, main, tok, "")
	if st != 200 || !bytes.HasPrefix(signed, []byte("%PDF-")) || bytes.Equal(signed, file.Body) {
		t.Fatalf("signed PDF: %d, %d bytes", st, len(signed))
	}
	if c := jsonOf(main); !c.Signed || !bytes.Equal(c.Content, signed) {
		t.Fatalf("JSON after completion: signed %v", c.Signed)
	}
	if _, b := testkit.GetAccept(t, s, main+"?signed=false", tok, "application/pdf"); !bytes.Equal(b, file.Body) {
		t.Fatal("signed=false does not answer the original")
	}
	if c := jsonOf(attach); c.Signed || !bytes.Equal(c.Content, annex.Body) {
		t.Fatalf("an attachment is never signed: signed %v", c.Signed)
	}
	text := pdfText(t, signed)
	for _, want := range []string{"Contract text", "Signatures", "Ann Ærø", "Bob Builder", "ann@example.com"} {
		if !strings.Contains(text, want) {
			t.Errorf("pdftotext output lacks %q:\n%s", want, text)
		}
	}
}

// pdfText extracts the text of a PDF with pdftotext (poppler-utils).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	tool := testkit.NeedTool(t, "pdftotext") // Debian poppler-utils
	in := filepath.Join(t.TempDir(), "signed.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "-enc", "UTF-8", in, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

func TestEventPayloadShapes(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t, mockserver.WithJobDelay(time.Second)) // event times 1 s after creation are asserted
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	sid := testkit.SignerID(t, s, id, "Ann")
	s.Advance(1500 * time.Microsecond) // the fraction shows in eventTime
	if err := s.SignerAction(id, sid, mockserver.ActionReject); err != nil {
		t.Fatal(err)
	}
	evs := s.Events(0) // the default customer's: the only one
	want := []string{
		fmt.Sprintf(`{"topic":"signer","eventType":"requestActivated","eventTime":{"date":"2026-11-22 10:00:01.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":%d,"caseFile":{"id":%d,"status":1}}}`, sid, id),
		fmt.Sprintf(`{"topic":"signer","eventType":"requestSent","eventTime":{"date":"2026-11-22 10:00:01.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":%d,"caseFile":{"id":%d,"status":1}}}`, sid, id),
		fmt.Sprintf(`{"topic":"signer","eventType":"rejected","eventTime":{"date":"2026-11-22 10:00:01.001500","timezone_type":3,"timezone":"UTC"},"payload":{"id":%d,"caseFile":{"id":%d,"status":1}}}`, sid, id),
		fmt.Sprintf(`{"topic":"casefile","eventType":"rejected","eventTime":{"date":"2026-11-22 10:00:01.001500","timezone_type":3,"timezone":"UTC"},"payload":{"id":%d,"status":2}}`, id),
	}
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d", len(evs), len(want))
	}
	ids := map[string]bool{}
	for i, ev := range evs {
		if string(ev.Body) != want[i] {
			t.Errorf("event %d:\n got %s\nwant %s", i, ev.Body, want[i])
		}
		if ev.Seq != int64(i+1) || ev.CustomerID != mockserver.DefaultCustomerID || ids[ev.ID] || len(ev.ID) != 36 {
			t.Errorf("event %d: seq %d, customer %d, id %q", i, ev.Seq, ev.CustomerID, ev.ID)
		}
		ids[ev.ID] = true
	}
	var listed struct {
		Items []signing.EventJSON `json:"items"`
	}
	if st, b := testkit.Call(t, s, "GET", "/mock/events?after=2", "", nil, &listed); st != 200 || len(listed.Items) != 2 ||
		listed.Items[0].EventType != "sign.signer.rejected" || string(listed.Items[0].Body) != want[2] {
		t.Fatalf("GET /mock/events?after=2: %d %s", st, b)
	}
	if st, _ := testkit.Call(t, s, "GET", "/mock/events?after=x", "", nil, nil); st != 400 {
		t.Fatalf("bad after: %d, want 400", st)
	}
}

func TestEventListeners(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	var got []string
	cancel := testkit.Core(s).Signing.Subscribe(func(ev *signing.Event) { got = append(got, ev.Type) })
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	cancel()
	if err := s.SignerAction(id, testkit.SignerID(t, s, id, "Ann"), mockserver.ActionOpen); err != nil {
		t.Fatal(err)
	}
	if want := []string{"sign.signer.requestActivated", "sign.signer.requestSent"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("listener saw %q, want %q (and nothing after cancel)", got, want)
	}
}

func TestControlSignerActionErrors(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	sid := testkit.SignerID(t, s, id, "Ann")
	tests := []struct {
		path string
		want int
	}{
		{fmt.Sprintf("/mock/casefiles/%d/signers/%d/dance", id, sid), 404},
		{fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", id+1, sid), 404},
		{fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", id, sid+100), 404},
		{fmt.Sprintf("/mock/casefiles/x/signers/%d/sign", sid), 404},
		{fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", id, sid), 200},
		{fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", id, sid), 409},
	}
	for _, tc := range tests {
		before := len(s.Events(0))
		st, b := testkit.Call(t, s, "POST", tc.path, "", nil, nil)
		if st != tc.want {
			t.Fatalf("POST %s: %d, want %d: %s", tc.path, st, tc.want, b)
		}
		if after := len(s.Events(0)); tc.want != 200 && after != before {
			t.Fatalf("POST %s failed but emitted %d events", tc.path, after-before)
		}
	}
}

func TestEmailTexts(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	cf := testkit.CaseDef("Ann:ann@example.com", "Bob:bob@example.com")
	ann := cf["signers"].([]any)[0].(map[string]any)
	ann["emailSubject"], ann["emailText"] = "Sign it, Ann", "Custom request text"
	ann["completedEmailSubject"] = "All done"
	id, links := testkit.RunCase(t, s, tok, cf, file)
	for _, name := range []string{"Ann", "Bob"} {
		if err := s.SignerAction(id, testkit.SignerID(t, s, id, name), mockserver.ActionSign); err != nil {
			t.Fatal(err)
		}
	}
	var out struct {
		Items []signing.Email `json:"items"`
	}
	if st, b := testkit.Call(t, s, "GET", "/mock/emails", "", nil, &out); st != 200 || len(out.Items) != 4 {
		t.Fatalf("emails: %d %s", st, b)
	}
	e := out.Items
	checks := []struct {
		what string
		ok   bool
	}{
		{"Ann's request uses her texts", e[0].To == "ann@example.com" && e[0].Subject == "Sign it, Ann" &&
			e[0].Text == "Custom request text" && e[0].SigningLink == links[0].SigningLink},
		{"Bob's request has defaults with the link", e[1].To == "bob@example.com" && strings.Contains(e[1].Subject, "Contract") &&
			strings.Contains(e[1].Text, links[1].SigningLink) && e[1].SigningLink == links[1].SigningLink},
		{"Ann's completion subject is hers", e[2].To == "ann@example.com" && e[2].Subject == "All done" && e[2].Text != ""},
		{"Bob's completion is the default", e[3].To == "bob@example.com" && strings.Contains(e[3].Subject, "signed")},
		{"dated on the mock clock", e[0].At.Equal(testkit.Epoch.Add(testkit.Core(s).Cfg.JobDelay))},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("%s: %+v", c.what, e)
		}
	}
}
