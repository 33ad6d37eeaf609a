package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// call sends a request with a JSON body (nil for none) and answers the
// status and body.
func call(t *testing.T, method, url, token string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// The three signing request routes over HTTP on the command's server: the
// update changes only what it is given and shows in the case file's
// signingRequest, a bad update is a 422 that changes nothing, the resend
// reaches the outbox, the link is the signing page.
func TestBinarySigningRequests(t *testing.T) {
	t.Parallel()
	base, client, ctx := binaryClient(t, "-addr", "127.0.0.1:0", "-clock", "manual")
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: "T", Signers: []casefiles.Signer{{Name: "A", Email: "a@exmaple.com"}},
		Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}, casefiles.BytesUpload("a.pdf", mockserver.SamplePDF("A")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if st, b := call(t, "POST", base+"/mock/token", "", nil); st != 200 || json.Unmarshal(b, &tok) != nil {
		t.Fatalf("token: %d %s", st, b)
	}
	type request struct {
		ID                     int64    `json:"id"`
		Status                 int      `json:"status"`
		Email                  string   `json:"email"`
		EmailSubject           string   `json:"emailSubject"`
		ReminderEmailText      string   `json:"reminderEmailText"`
		CompletedEmailSubject  string   `json:"completedEmailSubject"`
		EmailFormat            string   `json:"emailFormat"`
		SuccessURL             string   `json:"successUrl"`
		ReminderInterval       int      `json:"reminderInterval"`
		AccessControl          bool     `json:"accessControl"`
		EnableInsecureSigning  bool     `json:"enableInsecureSigning"`
		InsecureSigningMethods []string `json:"insecureSigningMethods"`
	}
	var cf struct {
		Signers []struct {
			SigningRequest request `json:"signingRequest"`
		} `json:"signers"`
	}
	getCase := func() request {
		st, b := call(t, "GET", fmt.Sprintf("%s/api/v1/casefiles/%d", base, res.CaseFileID), tok.AccessToken, nil)
		if st != 200 || json.Unmarshal(b, &cf) != nil || len(cf.Signers) != 1 {
			t.Fatalf("case file: %d %s", st, b)
		}
		return cf.Signers[0].SigningRequest
	}
	sr := getCase()
	url := fmt.Sprintf("%s/api/v1/signingrequests/%d", base, sr.ID)

	if st, b := call(t, "PUT", url, "", map[string]any{"email": "a@example.com"}); st != 401 {
		t.Errorf("no token: %d %s", st, b)
	}
	st, b := call(t, "PUT", url, tok.AccessToken, map[string]any{"email": "nope", "emailSubject": "Hi", "reminderInterval": 0,
		"emailFormat": "pdf", "successUrl": "/x", "insecureSigningMethods": []string{"smoke"}})
	if st != 422 || !strings.Contains(string(b), `"field":"reminderInterval"`) || strings.Count(string(b), `"field"`) != 6 {
		t.Errorf("a bad update: %d %s", st, b)
	}
	if getCase().Email != "a@exmaple.com" {
		t.Error("a refused update changed the request")
	}

	st, b = call(t, "PUT", url, tok.AccessToken, map[string]any{"email": "a@example.com", "emailSubject": "Please sign T",
		"reminderEmailText": "Still waiting", "completedEmailSubject": "All done", "emailFormat": "html",
		"successUrl": "https://example.com/ok", "reminderInterval": 3, "accessControl": true, "enableInsecureSigning": true,
		"insecureSigningMethods": []string{"draw", "text"}})
	var put request
	if st != 200 || json.Unmarshal(b, &put) != nil || put.Email != "a@example.com" || put.ID != sr.ID {
		t.Fatalf("update: %d %s", st, b)
	}
	got := getCase()
	want := request{ID: sr.ID, Status: 1, Email: "a@example.com", EmailSubject: "Please sign T", ReminderEmailText: "Still waiting",
		CompletedEmailSubject: "All done", EmailFormat: "html", SuccessURL: "https://example.com/ok", ReminderInterval: 3,
		AccessControl: true, EnableInsecureSigning: true, InsecureSigningMethods: []string{"draw", "text"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the case file's signingRequest after the update:\n got %+v\nwant %+v", got, want)
	}

	if st, b := call(t, "PATCH", url+"/send", tok.AccessToken, nil); st != 204 {
		t.Errorf("resend: %d %s", st, b)
	}
	var out struct {
		Items []struct{ To, Subject, SigningLink string } `json:"items"`
	}
	if st, b := call(t, "GET", base+"/mock/emails", "", nil); st != 200 || json.Unmarshal(b, &out) != nil {
		t.Fatalf("emails: %d %s", st, b)
	}
	last := out.Items[len(out.Items)-1]
	if last.To != "a@example.com" || last.Subject != "Please sign T" {
		t.Errorf("the last email: %+v", last)
	}
	st, b = call(t, "GET", url+"/link", tok.AccessToken, nil)
	var link []string
	if st != 200 || json.Unmarshal(b, &link) != nil || len(link) != 1 || link[0] != last.SigningLink ||
		!strings.HasPrefix(link[0], base+"/public/sign/") {
		t.Errorf("link: %d %s (the email links %s)", st, b, last.SigningLink)
	}
	// Both vendor SDKs GET the link
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid).
	if st, b := call(t, "PATCH", url+"/link", tok.AccessToken, nil); st != http.StatusMethodNotAllowed {
		t.Errorf("PATCH of the link: %d %s", st, b)
	}
	for _, m := range []string{"PUT", "PATCH"} {
		path := url[:strings.LastIndex(url, "/")] + "/999999"
		if m == "PATCH" {
			path += "/send"
		}
		if st, b := call(t, m, path, tok.AccessToken, map[string]any{"email": "a@example.com"}); st != 404 {
			t.Errorf("%s of an unknown request: %d %s", m, st, b)
		}
	}
}
