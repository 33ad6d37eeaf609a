package send_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// sendSandboxJSONPath is the sandbox connector's JSON create route under {Send}
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const sendSandboxJSONPath = "/api/v1/casefiles/json/20251022/create-sandbox-base64"

// postJSON posts body to a route under {Send} with the token in
// X-Auth-Token.
func postJSON(t *testing.T, s *mockserver.Server, tok, path string, body []byte) (int, []byte, testkit.Job) {
	t.Helper()
	req, err := http.NewRequest("POST", s.URL()+"/send"+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Auth-Token", tok)
	return testkit.DoSendCreate(t, s, req)
}

// The sandbox connector's route takes the production route's body with its
// rules, answer and duplicate detection: a case file is created, and the
// same body on the production route is a duplicate of it.
func TestSendSandboxJSONRouteIsTheProductionRoute(t *testing.T) {
	t.Parallel()
	s, tok, _ := sendServer(t)
	cf := testkit.CaseDef("Ada:ada@example.com")
	cf["documents"] = []any{map[string]any{"title": "Lease"}}
	body := jsonBody(t, cf, mockserver.SamplePDF("Lease"))

	st, b, j := postJSON(t, s, tok, sendSandboxJSONPath, body)
	if st != http.StatusOK || j.UUID == "" || j.Status != "handled" {
		t.Fatalf("sandbox create: %d %s", st, b)
	}
	s.Advance(testkit.JobDelay(s))
	if st, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash); st != 200 || out.JobStatus != testkit.JobCompleted || out.Result == nil {
		t.Fatalf("sandbox job: %d %s", st, raw)
	}

	st, b, again := postJSON(t, s, tok, sendJSONPath, body)
	if st != http.StatusOK || again.PayloadHash != j.PayloadHash {
		t.Fatalf("the same body on the production route: %d %s (hash %s, want %s)", st, b, again.PayloadHash, j.PayloadHash)
	}
	s.Advance(testkit.JobDelay(s))
	if _, out, raw := testkit.QueueStatus(t, s, again.UUID, again.PayloadHash); out.JobStatus != testkit.JobDuplicate {
		t.Errorf("the same body on the other route is not a duplicate: %s", raw)
	}

	// Its refusals are the platform's 400, as on the production route.
	for name, bad := range map[string][]byte{
		"empty title":     bytes.Replace(body, []byte(`"title":"Contract"`), []byte(`"title":""`), 1),
		"malformed JSON":  []byte(`{"caseFile":`),
		"unknown method":  bytes.Replace(body, []byte(`"name":"Ada"`), []byte(`"name":"Ada","secureSigningMethods":["eid.example"]`), 1),
		"short sender":    bytes.Replace(body, []byte(`"title":"Contract"`), []byte(`"title":"Contract","senderName":"E"`), 1),
		"without the pdf": []byte(`{"caseFile":{"title":"T","signers":[{"name":"A"}],"documents":[{"title":"d"}]}}`),
	} {
		st, b, _ := postJSON(t, s, tok, sendSandboxJSONPath, bad)
		var e testkit.APIError
		if st != http.StatusBadRequest || json.Unmarshal(b, &e) != nil || e.Error != "Bad Request" || e.StatusCode != 400 {
			t.Errorf("%s on the sandbox route: %d %s, want the platform's 400", name, st, b)
		}
	}
}

// A value outside the connector's lists is refused with a message that
// names the accepted values; senderName holds 2 to 255 characters.
func TestSendRefusalsNameTheAcceptedValues(t *testing.T) {
	t.Parallel()
	s, tok, pdf := sendServer(t)
	tests := []struct {
		name, field, want string
		change            func(cf map[string]any)
	}{
		{"language", "caseFile.language", `must be one of en, da, sv, nl, fr, fi, no, de, got "xx"`,
			func(cf map[string]any) { cf["language"] = "xx" }},
		{"ssnType", "caseFile.signers[0].ssnType", `must be one of legacy, dk:cpr, se:pin, no:nin, be:nrn, fi:pic, google:oidc, microsoft:oidc, sms, got "passport"`,
			func(cf map[string]any) { cf["signers"].([]any)[0].(map[string]any)["ssnType"] = "passport" }},
		{"email format", "caseFile.signers[0].emailFormat", `must be one of text, html, got "rtf"`,
			func(cf map[string]any) { cf["signers"].([]any)[0].(map[string]any)["emailFormat"] = "rtf" }},
		{"secure method", "caseFile.signers[0].secureSigningMethods[0]",
			`must be one of mitid.dk, bankid_se, bankid_no, itsme.be, ftn.fi, eid.belgium.be, passport-reader.eident.dk, ausweisapp.bund.de, qes.personal.mitid.dk, got "eid.example"`,
			func(cf map[string]any) {
				cf["signers"].([]any)[0].(map[string]any)["secureSigningMethods"] = []string{"eid.example"}
			}},
		{"sender name of 1", "caseFile.senderName", "must be 2 to 255 characters, not 1",
			func(cf map[string]any) { cf["senderName"] = "E" }},
		{"sender name of 256", "caseFile.senderName", "must be 2 to 255 characters, not 256",
			func(cf map[string]any) { cf["senderName"] = strings.Repeat("é", 256) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cf := testkit.CaseDef("Ada")
			tt.change(cf)
			st, b, _ := testkit.SendCreate(t, s, tok, testkit.DataPart(t, cf), pdf)
			var e testkit.APIError
			if st != http.StatusBadRequest || json.Unmarshal(b, &e) != nil {
				t.Fatalf("%d %s, want 400", st, b)
			}
			if want := fmt.Sprintf("validation failed: %s: %s", tt.field, tt.want); e.Message != want {
				t.Errorf("message %q, want %q", e.Message, want)
			}
		})
	}
}

// senderName and the case-level accessControl are stored and shown by the
// signing service; accessControl turns access control on for every signer.
func TestSendSenderNameAndCaseAccessControl(t *testing.T) {
	t.Parallel()
	s, tok, pdf := sendServer(t)
	cf := testkit.CaseDef("Ada:ada@example.com", "Bob")
	cf["senderName"], cf["accessControl"] = "Elm Estates", true
	id, _ := testkit.RunCase(t, s, tok, cf, pdf)
	var got struct {
		SenderName    string `json:"senderName"`
		AccessControl bool   `json:"accessControl"`
		SensitiveData bool   `json:"sensitiveData"`
		Signers       []struct {
			SigningRequest struct {
				AccessControl bool `json:"accessControl"`
			} `json:"signingRequest"`
		} `json:"signers"`
	}
	if st, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &got); st != 200 {
		t.Fatalf("get: %d %s", st, b)
	}
	if got.SenderName != "Elm Estates" || !got.AccessControl || got.SensitiveData || len(got.Signers) != 2 {
		t.Fatalf("case file: %+v", got)
	}
	for i, sg := range got.Signers {
		if !sg.SigningRequest.AccessControl {
			t.Errorf("signer %d: access control off under the case file's accessControl", i)
		}
	}
}
