package vendorcheck

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/mockserver"
)

// swaggerAPI is a client of the in-process mock that keeps the raw answers.
type swaggerAPI struct {
	t     *testing.T
	srv   *mockserver.Server
	token string
}

// call sends a request and returns the status and the body.
func (a *swaggerAPI) call(method, path string, body io.Reader, header http.Header) (int, []byte) {
	a.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, a.srv.URL()+path, body)
	if err != nil {
		a.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// sendCreate posts a case file with one document to the Send service.
func (a *swaggerAPI) sendCreate() []byte {
	a.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	data := `{"caseFile":{"title":"Swagger check","signers":[{"name":"Jane Doe","email":"jane@example.com","role":"signer"}],` +
		`"documents":[{"title":"Contract","name":"contract.pdf"}]}}`
	if err := mw.WriteField("data", data); err != nil {
		a.t.Fatal(err)
	}
	fw, err := mw.CreateFormFile("files", "contract.pdf")
	if err != nil {
		a.t.Fatal(err)
	}
	if _, err := fw.Write(FixturePDF()); err != nil {
		a.t.Fatal(err)
	}
	if err := mw.Close(); err != nil {
		a.t.Fatal(err)
	}
	status, body := a.call(http.MethodPost, "/send/api/v1/casefiles/20251022/create", &buf,
		http.Header{"Content-Type": {mw.FormDataContentType()}, "X-Auth-Token": {a.token}})
	// The swagger documents 201; the platform answers 200, as the vendor's
	// Postman collection asserts
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md).
	if status != http.StatusOK {
		a.t.Fatalf("Send create: status %d, want 200: %s", status, body)
	}
	return body
}

// The Send service's JSON create routes: the production connector's
// CreateCaseFile, and the sandbox connector's, whose schemas are the same
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const (
	productionJSONRoute = "/send/api/v1/casefiles/json/20251022/create-production-base64"
	sandboxJSONRoute    = "/send/api/v1/casefiles/json/20251022/create-sandbox-base64"
)

// sendJSON posts body to the Send service's production JSON create route.
func (a *swaggerAPI) sendJSON(body []byte) (int, []byte) {
	a.t.Helper()
	return a.sendJSONTo(productionJSONRoute, body)
}

// sendJSONTo posts body to a JSON create route.
func (a *swaggerAPI) sendJSONTo(route string, body []byte) (int, []byte) {
	a.t.Helper()
	return a.call(http.MethodPost, route, bytes.NewReader(body),
		http.Header{"Content-Type": {"application/json"}, "X-Auth-Token": {a.token}})
}

// connectorCaseFile is a body of the connector's CreateCaseFile, as its
// schema describes it: documents with a title and a base64 pdf, no name;
// two signers with the signing methods and the email format.
func connectorCaseFile(title string) []byte {
	cf := map[string]any{"caseFile": map[string]any{
		"title": title, "language": "da", "sensitiveData": true,
		"signers": []any{
			map[string]any{"name": "Mads Buyer", "email": "mads@example.dk", "role": "buyer",
				"secureSigningMethods": []string{"mitid.dk"}},
			map[string]any{"name": "Sara Seller", "email": "sara@example.se", "role": "seller", "signOrder": 1,
				"secureSigningMethods": []string{"bankid_se"}, "enableInsecureSigning": true,
				"insecureSigningMethods": []string{"draw"}, "emailFormat": "html"},
		},
		"documents": []any{map[string]any{"title": "Agreement", "roles": []string{"buyer", "seller"},
			"pdf": base64.StdEncoding.EncodeToString(FixturePDF())}},
	}}
	b, _ := json.Marshal(cf)
	return b
}

func (a *swaggerAPI) queueStatus(uuid, hash string) []byte {
	a.t.Helper()
	req, _ := json.Marshal(map[string]string{"uuid": uuid, "payloadHash": hash})
	status, body := a.call(http.MethodPost, "/send/api/v1/queue/public/status", bytes.NewReader(req),
		http.Header{"Content-Type": {"application/json"}})
	if status != http.StatusOK {
		a.t.Fatalf("queue status: status %d: %s", status, body)
	}
	return body
}

func (a *swaggerAPI) get(path, accept string) []byte {
	a.t.Helper()
	status, body := a.call(http.MethodGet, path, nil,
		http.Header{"Authorization": {"Bearer " + a.token}, "Accept": {accept}})
	if status != http.StatusOK {
		a.t.Fatalf("GET %s: status %d: %s", path, status, body)
	}
	return body
}

// loadSwagger finds the connector's swagger, failing under CI and skipping
// otherwise when the vendor directory is missing.
func loadSwagger(t *testing.T) *Swagger {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	vendor, err := VendorDir(root)
	need(t, err)
	sw, err := LoadSwagger(filepath.Join(vendor, "connector", "apiDefinition.swagger.json"))
	if err != nil {
		t.Fatal(err)
	}
	return sw
}

// TestMockAnswersMatchConnectorSwagger validates the mock's answers to Send
// create, queue status (pending and completed), case file details (v1 and
// v3) and document content (JSON) against the response schemas of the
// vendor's connector swagger.
func TestMockAnswersMatchConnectorSwagger(t *testing.T) {
	sw := loadSwagger(t)
	srv := mockserver.Start(t, mockserver.WithManualClock(time.Now()), mockserver.WithJobDelay(time.Second))
	cfg := srv.Config()
	tok, err := auth.NewTokenSource(cfg.Endpoints.Auth, cfg.Credentials).Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	api := &swaggerAPI{t: t, srv: srv, token: tok.AccessToken}

	check := func(what, operationID, status string, body []byte) {
		t.Helper()
		sch, err := sw.ResponseSchema(operationID, status)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(sch, body); err != nil {
			t.Errorf("%s does not match the swagger's %s %s schema: %v\nbody: %s", what, operationID, status, err, body)
		}
	}

	created := api.sendCreate()
	// Validated against the 201 schema: the mock answers 200 (see sendCreate).
	check("Send create (200)", "CreateCaseFile", "201", created)
	var job struct {
		Jobs []struct{ UUID, PayloadHash string } `json:"jobs"`
	}
	if err := json.Unmarshal(created, &job); err != nil || len(job.Jobs) == 0 {
		t.Fatalf("Send create: no jobs (%v): %s", err, created)
	}
	uuid, hash := job.Jobs[0].UUID, job.Jobs[0].PayloadHash
	check("queue status (pending)", "CheckJobStatus", "200", api.queueStatus(uuid, hash))

	srv.Advance(time.Minute)
	done := api.queueStatus(uuid, hash)
	check("queue status (completed)", "CheckJobStatus", "200", done)
	id := completedCaseFile(t, done)
	checkJSONRoute(t, sw, api, check)
	checkSandboxRoute(t, sw, api, check)
	details := api.get(fmt.Sprintf("/api/v1/casefiles/%d", id), "application/json")
	check("case file details (v1)", "GetCaseFileDetails", "200", details)
	check("case file details (v3)", "GetCaseFileDetails", "200", api.get(fmt.Sprintf("/api/v3/casefiles/%d", id), "application/json"))
	var cf struct {
		Documents []struct{ ID int64 } `json:"documents"`
	}
	if err := json.Unmarshal(details, &cf); err != nil || len(cf.Documents) == 0 {
		t.Fatalf("case file has no documents (%v): %s", err, details)
	}
	content := api.get(fmt.Sprintf("/api/v1/documents/%d/content", cf.Documents[0].ID), "application/json")
	check("document content (JSON)", "DownloadDocument", "200", content)
}

// completedCaseFile answers the case file id of a queue status answer,
// failing the test unless the job completed.
func completedCaseFile(t *testing.T, status []byte) int64 {
	t.Helper()
	var st struct {
		JobStatus string `json:"jobStatus"`
		Result    struct {
			Data struct {
				CaseFile struct{ ID int64 } `json:"caseFile"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(status, &st); err != nil || st.JobStatus != "completed" {
		t.Fatalf("job did not complete (%v): %s", err, status)
	}
	return st.Result.Data.CaseFile.ID
}

// checkJSONRoute creates a case file through the connector's own route
// with a body its request schema accepts, checks the answer and the case
// file's details against the swagger, and checks the platform's 400 for a
// body that breaks a rule, on both create routes.
func checkJSONRoute(t *testing.T, sw *Swagger, api *swaggerAPI, check func(what, operationID, status string, body []byte)) {
	t.Helper()
	req, err := sw.RequestSchema("CreateCaseFile")
	if err != nil {
		t.Fatal(err)
	}
	body := connectorCaseFile("Connector check")
	if err := Validate(req, body); err != nil {
		t.Fatalf("the test's body does not match the connector's request schema: %v", err)
	}
	status, created := api.sendJSON(body)
	if status != http.StatusOK {
		t.Fatalf("JSON create: %d %s", status, created)
	}
	check("Send create, JSON route (200)", "CreateCaseFile", "201", created)
	var job struct{ UUID, PayloadHash string }
	if err := json.Unmarshal(created, &job); err != nil || job.UUID == "" {
		t.Fatalf("JSON create: no job (%v): %s", err, created)
	}
	api.srv.Advance(time.Minute)
	id := completedCaseFile(t, api.queueStatus(job.UUID, job.PayloadHash))
	details := api.get(fmt.Sprintf("/api/v3/casefiles/%d", id), "application/json")
	check("case file details of the JSON route", "GetCaseFileDetails", "200", details)
	var cf struct {
		Signers []struct {
			SigningRequest struct {
				AccessControl        bool     `json:"accessControl"`
				SecureSigningMethods []string `json:"secureSigningMethods"`
				EmailFormat          string   `json:"emailFormat"`
			} `json:"signingRequest"`
		} `json:"signers"`
	}
	if err := json.Unmarshal(details, &cf); err != nil || len(cf.Signers) != 2 {
		t.Fatalf("details (%v): %s", err, details)
	}
	if r := cf.Signers[1].SigningRequest; !r.AccessControl || r.EmailFormat != "html" || len(r.SecureSigningMethods) != 1 {
		t.Errorf("Sara's signing request: %+v", r)
	}

	// A refusal: the platform's 400, on both routes.
	refused := bytes.Replace(connectorCaseFile("x"), []byte(`"title":"x"`), []byte(`"title":""`), 1)
	if err := Validate(req, refused); err == nil {
		t.Fatal("the connector's schema takes an empty title; the refusal below would test nothing")
	}
	status, answer := api.sendJSON(refused)
	checkBadRequest(t, check, "JSON route", status, answer)
	status, answer = api.call(http.MethodPost, "/send/api/v1/casefiles/20251022/create", strings.NewReader("--x--"),
		http.Header{"Content-Type": {"multipart/form-data; boundary=x"}, "X-Auth-Token": {api.token}})
	checkBadRequest(t, check, "multipart route", status, answer)
}

// checkSandboxRoute checks the sandbox connector's route against the
// production connector's schemas, which are the sandbox's too: a body the
// request schema takes is answered as CreateCaseFile's 201 describes and
// its job completes; a body it refuses is answered the ErrorResponse 400.
func checkSandboxRoute(t *testing.T, sw *Swagger, api *swaggerAPI, check func(what, operationID, status string, body []byte)) {
	t.Helper()
	req, err := sw.RequestSchema("CreateCaseFile")
	if err != nil {
		t.Fatal(err)
	}
	body := connectorCaseFile("Sandbox connector check")
	if err := Validate(req, body); err != nil {
		t.Fatalf("the test's body does not match the connector's request schema: %v", err)
	}
	status, created := api.sendJSONTo(sandboxJSONRoute, body)
	if status != http.StatusOK {
		t.Fatalf("sandbox JSON create: %d %s", status, created)
	}
	check("Send create, sandbox JSON route (200)", "CreateCaseFile", "201", created)
	var job struct{ UUID, PayloadHash string }
	if err := json.Unmarshal(created, &job); err != nil || job.UUID == "" {
		t.Fatalf("sandbox JSON create: no job (%v): %s", err, created)
	}
	api.srv.Advance(time.Minute)
	done := api.queueStatus(job.UUID, job.PayloadHash)
	check("queue status of a sandbox route job", "CheckJobStatus", "200", done)
	completedCaseFile(t, done)

	refused := bytes.Replace(body, []byte(`"mitid.dk"`), []byte(`"mitid.se"`), 1)
	if err := Validate(req, refused); err == nil {
		t.Fatal("the connector's schema takes an unknown secure method; the refusal below would test nothing")
	}
	status, answer := api.sendJSONTo(sandboxJSONRoute, refused)
	checkBadRequest(t, check, "sandbox JSON route", status, answer)
}

// checkBadRequest checks a refusal against the connector's ErrorResponse
// and its values.
func checkBadRequest(t *testing.T, check func(what, operationID, status string, body []byte), route string, status int, body []byte) {
	t.Helper()
	if status != http.StatusBadRequest {
		t.Fatalf("%s refusal: %d %s, want 400", route, status, body)
	}
	check(route+" refusal (400)", "CreateCaseFile", "400", body)
	var e struct {
		Error      string `json:"error"`
		Message    string `json:"message"`
		StatusCode int    `json:"statusCode"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error != "Bad Request" || e.StatusCode != 400 || e.Message == "" {
		t.Errorf("%s refusal is not the platform's {error, message, statusCode}: %s", route, body)
	}
}

// TestSwaggerSchemasReject makes sure the compiled schemas are not vacuous:
// answers that break the vendor's schemas are refused, null is allowed
// exactly where the swagger says x-nullable.
func TestSwaggerSchemasReject(t *testing.T) {
	sw := loadSwagger(t)
	valid := `{"uuid":"8d6f1c9e-2f4b-4c1a-9d7e-1a2b3c4d5e6f","type":"casefile_creation","payload":{},"payloadHash":"ab",` +
		`"jobStatus":"pending","retries":0,"maxRetries":3,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"%s}`
	tests := []struct {
		name, operation, body string
		ok                    bool
	}{
		{"queue job", "CheckJobStatus", fmt.Sprintf(valid, ""), true},
		{"nullable result and errorMessage", "CheckJobStatus", fmt.Sprintf(valid, `,"result":null,"errorMessage":null`), true},
		{"unknown job status", "CheckJobStatus", strings.Replace(fmt.Sprintf(valid, ""), `"pending"`, `"done"`, 1), false},
		{"missing payloadHash", "CheckJobStatus", strings.Replace(fmt.Sprintf(valid, ""), `"payloadHash":"ab",`, "", 1), false},
		{"retries as string", "CheckJobStatus", strings.Replace(fmt.Sprintf(valid, ""), `"retries":0`, `"retries":"0"`, 1), false},
		{"createdAt not a date-time", "CheckJobStatus", strings.Replace(fmt.Sprintf(valid, ""), `"createdAt":"2026-01-01T00:00:00Z"`, `"createdAt":"yesterday"`, 1), false},
		{"case file id as string", "GetCaseFileDetails", `{"id":"12"}`, false},
		{"null activated", "GetCaseFileDetails", `{"id":12,"activated":null,"expireAt":null}`, true},
		{"null title", "GetCaseFileDetails", `{"id":12,"title":null}`, false},
		{"signature line documentId as string", "GetCaseFileDetails", `{"documents":[{"signatureLines":[{"documentId":"abc"}]}]}`, false},
		{"job status enum", "CreateCaseFile", `{"status":"done"}`, false},
		{"content as number", "DownloadDocument", `{"content":12}`, false},
		{"error response", "CreateCaseFile/400", `{"error":"Bad Request","message":"m","statusCode":400}`, true},
		{"error response status as string", "CreateCaseFile/400", `{"error":"Bad Request","statusCode":"400"}`, false},
		{"request", "CreateCaseFile/request", string(connectorCaseFile("t")), true},
		{"request unknown secure method", "CreateCaseFile/request",
			strings.Replace(string(connectorCaseFile("t")), "mitid.dk", "mitid.se", 1), false},
		{"request empty secure methods", "CreateCaseFile/request",
			strings.Replace(string(connectorCaseFile("t")), `["mitid.dk"]`, `[]`, 1), false},
		{"request email format", "CreateCaseFile/request", strings.Replace(string(connectorCaseFile("t")), `"html"`, `"rtf"`, 1), false},
		{"request without pdf", "CreateCaseFile/request", `{"caseFile":{"title":"t","signers":[{"name":"A"}],"documents":[{"title":"d"}]}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sch *jsonschema.Schema
			var err error
			switch op, kind, _ := strings.Cut(tt.operation, "/"); {
			case kind == "request":
				sch, err = sw.RequestSchema(op)
			case kind != "":
				sch, err = sw.ResponseSchema(op, kind)
			default:
				sch, err = sw.ResponseSchema(op, map[bool]string{true: "201", false: "200"}[op == "CreateCaseFile"])
			}
			if err != nil {
				t.Fatal(err)
			}
			err = Validate(sch, []byte(tt.body))
			if got := err == nil; got != tt.ok {
				t.Fatalf("valid = %v, want %v (%v)", got, tt.ok, err)
			}
			if err != nil && !errors.Is(err, ErrSwagger) {
				t.Fatalf("error %v does not match ErrSwagger", err)
			}
		})
	}
}
