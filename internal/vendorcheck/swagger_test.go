package vendorcheck

import (
	"bytes"
	"context"
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
	// Postman collection asserts (docs/platform.md).
	if status != http.StatusOK {
		a.t.Fatalf("Send create: status %d, want 200: %s", status, body)
	}
	return body
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
	var st struct {
		JobStatus string `json:"jobStatus"`
		Result    struct {
			Data struct {
				CaseFile struct{ ID int64 } `json:"caseFile"`
			} `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(done, &st); err != nil || st.JobStatus != "completed" {
		t.Fatalf("job did not complete (%v): %s", err, done)
	}

	id := st.Result.Data.CaseFile.ID
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sch, err := sw.ResponseSchema(tt.operation, map[bool]string{true: "201", false: "200"}[tt.operation == "CreateCaseFile"])
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
