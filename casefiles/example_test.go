package casefiles_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"

	"github.com/jarcoal/httpmock"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
)

// Create a case file in which an employee signs first and the employer
// second, with reminders every two days, a contract both sign and terms
// attached without signing; wait for the job and look at the case file.
func ExampleClient_Create() {
	ctx := context.Background()
	client := exampleClient(`[
		{"name":"Ada Employee","role":"employee","email":"ada@example.com","signingLink":"https://sign.example/s/1"},
		{"name":"Bob Boss","role":"employer","email":"bob@example.com","signingLink":"https://sign.example/s/2"}]`)
	// client := signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...})

	contract := casefiles.BytesUpload("contract.pdf", []byte("%PDF-1.7 ...")) // or casefiles.FileUpload(path)
	terms := casefiles.BytesUpload("terms.pdf", []byte("%PDF-1.7 ..."))
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title: "Employment contract",
		Signers: []casefiles.Signer{
			{Name: "Ada Employee", Email: "ada@example.com", Role: "employee", SignOrder: 0, ReminderInterval: 2},
			{Name: "Bob Boss", Email: "bob@example.com", Role: "employer", SignOrder: 1, ReminderInterval: 2,
				EmailSubject: "Ada has signed: your turn"},
		},
		Documents: []casefiles.Document{
			{Name: "contract.pdf", Title: "Contract", Roles: []string{"employee", "employer"}},
			{Name: "terms.pdf", Title: "Terms and conditions", Signable: signkit.Ptr(false)},
		},
	}, contract, terms)
	if err != nil {
		log.Fatal(err) // a *casefiles.ValidationError lists every problem at once
	}
	result, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		// a *casefiles.JobFailedError when the job failed; one matching
		// casefiles.ErrDuplicate when the same case file was sent before
		log.Fatal(err)
	}
	fmt.Println("case file", result.CaseFileID)

	details, err := client.CaseFiles.Get(ctx, result.CaseFileID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(details.Title, details.Status)
	for _, s := range details.Signers {
		fmt.Println(s.SignOrder, s.Name, s.Status)
	}
	for _, d := range details.Documents {
		if !d.Signable {
			continue
		}
		// Once the case file is completed this is the signed PDF; write it
		// to a file rather than to stdout.
		// d.ID is the document's integer id; d.DocumentID is only a key
		// stamped on its pages.
		if _, err := client.CaseFiles.DownloadDocument(ctx, d.ID, os.Stdout); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// case file 42
	// Employment contract pending
	// 0 Ada Employee pending
	// 1 Bob Boss new
	// %PDF-1.7 signed
}

// List the newest case files, one page of at most 20, and All of them
// page after page.
func ExampleClient_List() {
	ctx := context.Background()
	client := exampleClient(`[]`)

	page, err := client.CaseFiles.List(ctx, &casefiles.ListOptions{PerPage: 20})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range page {
		fmt.Println(d.ID, d.Title, d.Status)
	}

	pending := casefiles.CaseFilePending
	for d, err := range client.CaseFiles.All(ctx, &casefiles.ListOptions{Status: &pending}) {
		if err != nil {
			log.Fatal(err) // the first error ends the iteration
		}
		fmt.Println("pending:", d.ID) // (the fake platform ignores the filter)
	}
	// Output:
	// 43 Employment contract (draft) new
	// 42 Employment contract pending
	// pending: 43
	// pending: 42
}

// Delete a case file that was never sent (one that is completed cannot be
// deleted).
func ExampleClient_Delete() {
	ctx := context.Background()
	client := exampleClient(`[]`)
	if err := client.CaseFiles.Delete(ctx, 43); err != nil {
		log.Fatal(err)
	}
	fmt.Println("deleted")
	// Output:
	// deleted
}

// A duplicate: the platform had already accepted the same case file with
// the same files, so the job was aborted and no second case file exists.
func ExampleDuplicateError() {
	err := error(&casefiles.DuplicateError{
		Job:       casefiles.Job{UUID: "7c6d5e4f-3a2b-4c1d-8e9f-0a1b2c3d4e5f"},
		FirstUUID: "0f8e7a52-3c1b-4d2e-9a6f-5b4c3d2e1f00",
	}) // as client.CaseFiles.Wait returns it
	var dup *casefiles.DuplicateError
	if errors.Is(err, casefiles.ErrDuplicate) && errors.As(err, &dup) {
		fmt.Println("already sent as job", dup.FirstUUID)
	}
	// Output:
	// already sent as job 0f8e7a52-3c1b-4d2e-9a6f-5b4c3d2e1f00
}

// A signer without an email gets no email from the service: fetch the
// signing link and deliver it by other means (an SMS, your own portal).
func ExampleClient_Wait() {
	ctx := context.Background()
	client := exampleClient(`[{"name":"Carl Customer","role":"","email":"","signingLink":"https://sign.example/s/3"}]`)

	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Order confirmation",
		Signers:   []casefiles.Signer{{Name: "Carl Customer"}}, // no Email
		Documents: []casefiles.Document{{Name: "order.pdf", Title: "Order"}},
	}, casefiles.BytesUpload("order.pdf", []byte("%PDF-1.7 ...")))
	if err != nil {
		log.Fatal(err)
	}
	result, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range result.SigningLinks {
		fmt.Printf("send %s to %s\n", l.URL, l.Name)
	}
	// Output:
	// send https://sign.example/s/3 to Carl Customer
}

// The fake platform's case files, in the platform's shape: roles and sign
// orders live on the documents' signature lines.
const (
	caseFile42 = `{"id":42,"title":"Employment contract","status":1,"created":1767225600,"signers":[
		{"id":1,"name":"Ada Employee","signingRequest":{"id":11,"status":1,"email":"ada@example.com"}},
		{"id":2,"name":"Bob Boss","signingRequest":{"id":12,"status":0,"email":"bob@example.com"}}],
		"documents":[
		{"id":5,"documentId":"K3V9A-77QWE","title":"Contract","signable":true,"signatureLines":[
			{"id":51,"signerId":1,"role":"employee","signOrder":0},{"id":52,"signerId":2,"role":"employer","signOrder":1}]},
		{"id":6,"documentId":"B8D2E-19XQA","title":"Terms","signable":false}]}`
	caseFile43 = `{"id":43,"title":"Employment contract (draft)","status":0,"created":1767312000,"signers":[],"documents":[]}`
)

// exampleClient is a client of a fake platform whose job completes with the
// given signing links.
func exampleClient(links string) *signkit.Client {
	const base = "https://platform.example"
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, base+"/auth/oauth/token",
		httpmock.NewStringResponder(200, `{"access_token":"t","token_type":"Bearer","expires_in":600}`))
	mt.RegisterResponder(http.MethodPost, base+"/send/api/v1/casefiles/20251022/create",
		httpmock.NewStringResponder(200, `{"uuid":"job-1","payloadHash":"9f86d0","status":"handled","message":"Job created"}`))
	mt.RegisterResponder(http.MethodPost, base+"/send/api/v1/queue/public/status",
		httpmock.NewStringResponder(200, `{"uuid":"job-1","jobStatus":"completed","result":{"data":{"caseFile":{"id":42},"signingLinks":`+links+`}}}`))
	mt.RegisterResponder(http.MethodGet, base+"/api/v1/casefiles/42", httpmock.NewStringResponder(200, caseFile42))
	mt.RegisterResponder(http.MethodGet, base+"/api/v1/casefiles", httpmock.NewStringResponder(200, "["+caseFile43+","+caseFile42+"]"))
	mt.RegisterResponder(http.MethodDelete, base+"/api/v1/casefiles/43", httpmock.NewStringResponder(200, "{}"))
	mt.RegisterResponder(http.MethodGet, base+"/api/v3/documents/5/content", httpmock.NewStringResponder(200, "%PDF-1.7 signed\n"))
	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(base),
		Credentials: auth.Credentials{ClientID: "id", ClientSecret: "secret", APIKey: "key", APISecret: "api-secret"},
		HTTPClient:  &http.Client{Transport: mt},
	})
	if err != nil {
		log.Fatal(err)
	}
	return client
}
