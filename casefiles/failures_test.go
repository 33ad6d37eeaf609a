package casefiles_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"testing"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/internal/testkit/sdktest"
)

// apiCall is one call of the casefiles client, as the failure paths see it.
type apiCall struct {
	name   string
	method string
	base   string // sendURL or signURL
	path   string // regexp of the path after base
	auth   string // the header that carries the token: "X-Auth-Token", "Authorization" or "" (none)
	status int    // success status
	body   string // success body
	stream bool   // the answer is streamed, not decoded
	// attemptsOn500 is how many requests a 500 gets: 1 for every POST (it
	// may have had an effect) and a single call; Wait tolerates 3 transient
	// failures of its status checks in a row and gives up on the fourth.
	attemptsOn500 int
	do            func(ctx context.Context, c *signkit.Client) error
}

const (
	createJSON    = `{"uuid":"u-1","payloadHash":"abc123","status":"handled","message":"Job created","jobs":[{"uuid":"u-1","payloadHash":"abc123","createdAt":"2026-01-01T00:00:00Z"}]}`
	completedJSON = `{"uuid":"u-1","type":"casefile_creation","jobStatus":"completed","result":{"data":{"caseFile":{"id":42},
		"signingLinks":[{"name":"Ada","role":"employee","email":"ada@example.com","signingLink":"https://sign.test/s/1"}]}}}`
	caseFileJSON = `{"id":42,"title":"Contract","status":5,"signers":[{"id":7,"name":"Ada",
		"signingRequest":{"id":70,"status":4,"email":"ada@example.com"}}],
		"documents":[{"id":9,"caseFileId":42,"documentId":"DOC-9","title":"Contract","signable":true,"status":5,"fileSize":1234,"format":"pdf",
			"signatureLines":[{"id":1,"signerId":7,"documentId":9,"role":"employee","signOrder":0,"activatedAt":1767225600}]}]}`
	contentJSON = `{"content":"JVBERi0xLjcK","signed":true}`
)

var job = &casefiles.Job{UUID: "u-1", PayloadHash: "abc123"}

func validCaseFile() (*casefiles.CaseFile, []casefiles.Upload) {
	return &casefiles.CaseFile{
		Title:     "Contract",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com", Role: "employee"}},
		Documents: []casefiles.Document{{Name: "contract.pdf", Title: "Contract"}},
	}, []casefiles.Upload{casefiles.BytesUpload("contract.pdf", []byte("%PDF-1.7\n"))}
}

// allCalls lists every call of the casefiles client.
func allCalls() []apiCall {
	return []apiCall{
		{"Create", http.MethodPost, sendURL, createPath, "X-Auth-Token", 200, createJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				cf, up := validCaseFile()
				_, err := c.CaseFiles.Create(ctx, cf, up...)
				return err
			}},
		{"Status", http.MethodPost, sendURL, statusPath, "", 200, completedJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Status(ctx, job)
				return err
			}},
		{"Wait", http.MethodPost, sendURL, statusPath, "", 200, completedJSON, false, 4,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Wait(ctx, job)
				return err
			}},
		{"Get", http.MethodGet, signURL, `/api/v1/casefiles/42`, "Authorization", 200, caseFileJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Get(ctx, 42)
				return err
			}},
		{"DownloadDocument", http.MethodGet, signURL, `/api/v3/documents/9/content`, "Authorization", 200, "%PDF-1.7", true, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.DownloadDocument(ctx, 9, io.Discard)
				return err
			}},
		{"DocumentContent", http.MethodGet, signURL, `/api/v3/documents/9/content`, "Authorization", 200, contentJSON, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.DocumentContent(ctx, 9, casefiles.Original())
				return err
			}},
		{"List", http.MethodGet, signURL, `/api/v1/casefiles`, "Authorization", 200, "[" + caseFileJSON + "]", false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.List(ctx, &casefiles.ListOptions{Title: "Contract"})
				return err
			}},
		{"All", http.MethodGet, signURL, `/api/v1/casefiles`, "Authorization", 200, "[" + caseFileJSON + "]", false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				n := 0
				for _, err := range c.CaseFiles.All(ctx, nil) {
					if err != nil {
						return err
					}
					n++
				}
				if n != 1 {
					return fmt.Errorf("All yielded %d case files, want 1", n)
				}
				return nil
			}},
		{"Errors", http.MethodGet, signURL, `/api/v1/casefiles/42/errors`, "Authorization", 200, `["x"]`, false, 1,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.CaseFiles.Errors(ctx, 42)
				return err
			}},
		{"Delete", http.MethodDelete, signURL, `/api/v1/casefiles/42`, "Authorization", 200, "", false, 1, // the body is not read
			func(ctx context.Context, c *signkit.Client) error {
				return c.CaseFiles.Delete(ctx, 42)
			}},
	}
}

func TestFailurePaths(t *testing.T) {
	t.Parallel()
	checks := map[string]func(http.Header, string) bool{"X-Auth-Token": sdktest.XAuthToken, "Authorization": sdktest.Bearer}
	for _, c := range allCalls() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sdktest.RunFailurePaths(t, sdktest.Call{
				Name: c.name, Method: c.method, URL: regexp.QuoteMeta(c.base) + c.path,
				Status: c.status, Body: c.body, Stream: c.stream,
				TokenCheck: checks[c.auth], NoToken: c.auth == "",
				// Wait tolerates 3 transient failures of its status checks in
				// a row and gives up on the fourth; it pauses between them.
				AttemptsOn500: c.attemptsOn500, Synctest: true,
				Do: c.do,
			})
		})
	}
}
