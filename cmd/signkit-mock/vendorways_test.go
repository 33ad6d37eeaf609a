package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// rawCall sends body (nil: none) to url with the token where the service
// takes it (header) and answers the status and the body.
func rawCall(t *testing.T, method, url, header, value string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if header != "" {
		req.Header.Set(header, value)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// The command serves what a client of the vendor's other tools sends: the
// sandbox connector's JSON create, the polling guide's query
// (status=5, sort=-completed, completedAfter), and a form whose field type
// and members come from the vendor's form builder, which survives the
// SDK's Get → Update.
func TestBinaryServesTheVendorsWays(t *testing.T) {
	t.Parallel()
	start := time.Now().Add(-time.Minute).Truncate(time.Second)
	base, client, ctx := binaryClient(t, "-addr", "127.0.0.1:0", "-clock", "manual")
	defaults := mockserver.New()
	creds := defaults.DefaultCredentials().Credentials()
	defaults.Close()
	tok, err := auth.NewTokenSource(base+"/auth", creds).Token(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// The sandbox connector's route, then the SDK's Wait on its job.
	body, err := json.Marshal(map[string]any{"caseFile": map[string]any{
		"title":     "Sandbox lease",
		"signers":   []any{map[string]any{"name": "Ada", "email": "ada@example.com"}},
		"documents": []any{map[string]any{"title": "Lease", "pdf": base64.StdEncoding.EncodeToString(mockserver.SamplePDF("Lease"))}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	st, b := rawCall(t, "POST", base+"/send/api/v1/casefiles/json/20251022/create-sandbox-base64", "X-Auth-Token", tok.AccessToken, body)
	var job casefiles.Job
	if st != http.StatusOK || json.Unmarshal(b, &job) != nil || job.UUID == "" {
		t.Fatalf("sandbox create: %d %s", st, b)
	}
	res, err := client.CaseFiles.Wait(ctx, &job)
	if err != nil {
		t.Fatal(err)
	}
	d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("%s/mock/casefiles/%d/signers/%d/sign", base, d.ID, d.Signers[0].ID)
	if st, b := rawCall(t, "POST", path, "", "", nil); st/100 != 2 {
		t.Fatalf("sign: %d %s", st, b)
	}

	// The polling guide's query finds it, with its completion time.
	done := casefiles.CaseFileCompleted
	list, err := client.CaseFiles.List(ctx, &casefiles.ListOptions{Status: &done, Sort: "-completed", CompletedAfter: start})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != d.ID || list[0].Completed.IsZero() {
		t.Fatalf("sort=-completed&status=5&completedAfter: %+v", list)
	}

	// A form from the vendor's builder, created raw, round-trips.
	const builder = `{"name":"KYC","storageFolderId":42,"sections":[{"title":"Identity","fields":[
	 {"name":"email","label":"Email","type":"EMAIL","required":true,"mapTo":"primarySigner.email"},
	 {"name":"cpr","label":"CPR","type":"NIN","mask":"######-####"}]}]}`
	st, b = rawCall(t, "POST", base+"/collect/api/v1/forms", "Authorization", "Bearer "+tok.AccessToken, []byte(builder))
	var created struct{ ExternalID string }
	if st != http.StatusCreated || json.Unmarshal(b, &created) != nil {
		t.Fatalf("create the builder's form: %d %s", st, b)
	}
	f, err := client.Forms.Get(ctx, created.ExternalID)
	if err != nil {
		t.Fatal(err)
	}
	f.Sections[0].Fields[1].Label = "CPR number"
	if _, err := client.Forms.Update(ctx, created.ExternalID, f); err != nil {
		t.Fatalf("Update of a form with a field type the SDK does not know: %v", err)
	}
	st, b = rawCall(t, "GET", base+"/collect/api/v1/forms/"+created.ExternalID, "Authorization", "Bearer "+tok.AccessToken, nil)
	var back struct {
		StorageFolderID int `json:"storageFolderId"`
		Sections        []struct {
			Fields []struct{ Label, Type, Mask string }
		}
	}
	if st != http.StatusOK || json.Unmarshal(b, &back) != nil || len(back.Sections) != 1 || len(back.Sections[0].Fields) != 2 {
		t.Fatalf("read back: %d %s", st, b)
	}
	if got := back.Sections[0].Fields[1]; back.StorageFolderID != 42 || got.Type != string(forms.FieldType("NIN")) ||
		got.Label != "CPR number" || got.Mask != "######-####" {
		t.Errorf("after Get → Update the form lost something: %s", b)
	}
}
