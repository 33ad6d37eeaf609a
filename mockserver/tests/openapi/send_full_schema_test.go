package openapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The Send create routes under the base URL
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
var sendCreateRoutes = []string{
	"/send" + testkit.SendCreatePath,
	"/send/api/v1/casefiles/json/20251022/create-production-base64",
	"/send/api/v1/casefiles/json/20251022/create-sandbox-base64",
}

// fullCaseFile is a case file with every field
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md lists for
// the Send create routes ("Send": caseFile fields), its times given by at:
// sendAt, expireAt, and each signer's activeAt and expireAt.
func fullCaseFile(title string, at func(time.Duration) any) map[string]any {
	signer := func(name, email, role string, order int) map[string]any {
		return map[string]any{"name": name, "email": email, "role": role, "signOrder": order,
			"onBehalfOf": "Acme Ltd", "ssnType": "dk:cpr", "socialSecurityNumberPlain": "0101701234",
			"vatin": "DK12345678", "accessControl": true, "language": "da",
			"emailSubject": "Please sign", "emailText": "Please sign the contract.",
			"reminderEmailSubject": "Reminder", "reminderEmailText": "Please remember to sign.",
			"completedEmailSubject": "All signed", "completedEmailText": "Everyone has signed.",
			"reminderInterval": 3, "successUrl": "https://example.com/ok", "failUrl": "https://example.com/fail",
			"activeAt": at(2 * time.Hour), "expireAt": at(20 * 24 * time.Hour), "storeAsContact": true,
			"secureSigningMethods": []string{"mitid.dk"}, "enableInsecureSigning": true,
			"insecureSigningMethods": []string{"draw", "text"}, "emailFormat": "html"}
	}
	return map[string]any{
		"title": title, "language": "en", "metaData": "meta", "reference": "REF-1", "folderId": 7,
		"sendAt": at(time.Hour), "expireAt": at(30 * 24 * time.Hour), "sensitiveData": true, "signOnMeeting": false,
		"visibilityMode": 1, "disableNotificationsOwner": true, "disableEmailAttachments": true,
		"senderName": "Sender Name", "accessControl": true,
		"ccRecipients": []any{map[string]any{"name": "Carl Copy", "email": "carl@example.com", "storeAsContact": false}},
		"signers":      []any{signer("Ann Andersen", "ann@example.com", "Buyer", 0), signer("Bob Berg", "bob@example.com", "Seller", 1)},
		"documents": []any{
			map[string]any{"name": "contract.pdf", "title": "Contract", "signable": true, "roles": []string{"Buyer", "Seller"},
				"documentOrder": 0, "metaData": "doc meta"},
			map[string]any{"name": "annex.pdf", "title": "Annex", "signable": false, "documentOrder": 1},
		},
	}
}

// TestFullCaseFileThroughEveryCreateRoute sends a case file with every
// field through each Send create route, its times as integer unix seconds
// and as RFC 3339 strings, and checks each request and answer against the
// description (the multipart route's data part as its data schema), then
// that the queue status (whose payload is the definition as sent) and the
// case file's details match it, the details giving the times back as
// integer unix seconds, the same instants. The traffic check sees these
// exchanges too.
func TestFullCaseFileThroughEveryCreateRoute(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	doc := loadDescription(t, s)
	base := s.Now().Truncate(time.Second).Add(time.Minute)
	forms := map[string]func(time.Duration) any{
		"unix seconds": func(d time.Duration) any { return base.Add(d).Unix() },
		"RFC 3339":     func(d time.Duration) any { return base.Add(d).In(time.FixedZone("", 2*3600)).Format(time.RFC3339) },
	}
	pdf := mockserver.SamplePDF("Contract text")
	for _, route := range sendCreateRoutes {
		for form, at := range forms {
			name := route[strings.LastIndex(route, "/")+1:] + ", " + form
			cf := fullCaseFile("Full case file: "+name, at)
			body, sent := fullCreateRequest(t, s, tok, route, cf, pdf)
			st, answer := testkit.Do(t, s, body, nil)
			if st != http.StatusOK {
				t.Fatalf("%s: %d %s", name, st, answer)
			}
			op := doc.Paths.Find(route).Post
			checkAgainst(t, name+": request", fullRequestSchema(t, op, route), sent)
			checkAgainst(t, name+": answer", op.Responses.Status(200).Value.Content.Get("application/json").Schema.Value, answer)
			var job testkit.Job
			_ = json.Unmarshal(answer, &job)
			s.Advance(testkit.Core(s).Cfg.JobDelay)
			stq, out, raw := testkit.QueueStatus(t, s, job.UUID, job.PayloadHash)
			if stq != 200 || out.JobStatus != testkit.JobCompleted || out.Result == nil {
				t.Fatalf("%s: the job: %d %s", name, stq, raw)
			}
			// Its payload is the definition as sent, the times as given.
			checkAgainst(t, name+": queue status", doc.Components.Schemas["QueueJob"].Value, raw)
			checkTimesCameBack(t, s, doc, tok, name, out.Result.Data.CaseFile.ID, base)
		}
	}
}

// fullCreateRequest builds the create request of route for cf (multipart:
// the data part and one files part per document; JSON: each document
// with its pdf) and answers it with the JSON the description checks (the
// data part, or the body).
func fullCreateRequest(t *testing.T, s *mockserver.Server, tok, route string, cf map[string]any, pdf []byte) (*http.Request, []byte) {
	t.Helper()
	var body *bytes.Buffer
	var sent []byte
	ctype := "application/json"
	if route == "/send"+testkit.SendCreatePath {
		data := testkit.DataPart(t, cf)
		sent = data.Body
		body, ctype = testkit.Multipart(t, data, testkit.FilePart("contract.pdf", pdf), testkit.FilePart("annex.pdf", pdf))
	} else {
		for _, d := range cf["documents"].([]any) {
			d.(map[string]any)["pdf"] = base64.StdEncoding.EncodeToString(pdf)
		}
		sent, _ = json.Marshal(map[string]any{"caseFile": cf})
		body = bytes.NewBuffer(sent)
	}
	req, err := http.NewRequest("POST", s.URL()+route, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("X-Auth-Token", tok)
	return req, sent
}

// fullRequestSchema answers the schema of what a create route reads as
// JSON: the multipart route's data part, or the JSON routes' body.
func fullRequestSchema(t *testing.T, op *openapi3.Operation, route string) *openapi3.Schema {
	t.Helper()
	content := op.RequestBody.Value.Content
	if mt := content.Get("multipart/form-data"); mt != nil {
		if route != "/send"+testkit.SendCreatePath {
			t.Fatalf("%s: described as multipart", route)
		}
		return mt.Schema.Value.Properties["data"].Value
	}
	return content.Get("application/json").Schema.Value
}

// checkAgainst checks a JSON text against a schema of the description.
func checkAgainst(t *testing.T, what string, s *openapi3.Schema, text []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := s.VisitJSON(v); err != nil {
		t.Errorf("%s: the description refuses it: %v\n%.300s", what, err, text)
	}
}

// checkTimesCameBack reads the case file's details, checks them against
// the description, and checks that its four times are the instants sent,
// as integer unix seconds.
func checkTimesCameBack(t *testing.T, s *mockserver.Server, doc *openapi3.T, tok, name string, id int64, base time.Time) {
	t.Helper()
	st, raw := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, nil)
	if st != http.StatusOK {
		t.Fatalf("%s: details: %d %s", name, st, raw)
	}
	checkAgainst(t, name+": details", doc.Components.Schemas["CaseFile"].Value, raw)
	var got struct {
		SendAt, ExpireAt *json.Number
		Signers          []struct {
			SigningRequest struct{ ActiveAt, ExpireAt *json.Number } `json:"signingRequest"`
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := func(d time.Duration) string { return fmt.Sprint(base.Add(d).Unix()) }
	check := func(field string, n *json.Number, d time.Duration) {
		if n == nil || n.String() != want(d) {
			t.Errorf("%s: %s = %v, want %s (integer unix seconds)", name, field, n, want(d))
		}
	}
	check("sendAt", got.SendAt, time.Hour)
	check("expireAt", got.ExpireAt, 30*24*time.Hour)
	if len(got.Signers) != 2 {
		t.Fatalf("%s: %d signers, want 2", name, len(got.Signers))
	}
	for i, sg := range got.Signers {
		check(fmt.Sprintf("signers[%d].signingRequest.activeAt", i), sg.SigningRequest.ActiveAt, 2*time.Hour)
		check(fmt.Sprintf("signers[%d].signingRequest.expireAt", i), sg.SigningRequest.ExpireAt, 20*24*time.Hour)
	}
}
