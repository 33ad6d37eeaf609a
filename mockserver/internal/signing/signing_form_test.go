package signing_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// A form submission's case file is activated by the same simulation as a
// Send job: its primary signer (from the mapTo fields) gets the request
// email and signs through the signing page; the answers PDF gets signed.
func TestFormSubmissionIsActivatedAndSignedOnThePage(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	tok := adminToken(t, s)
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	var sub struct {
		CaseFileID int64 `json:"casefileId"`
	}
	if st, b := submitPublic(t, s, f, &sub); st != 201 {
		t.Fatalf("submit: %d %s", st, b)
	}
	id := sub.CaseFileID
	if got, want := testkit.EventTrail(t, s, id), []string{"signer.requestActivated:Ann Smith", "signer.requestSent:Ann Smith"}; !slices.Equal(got, want) {
		t.Fatalf("events after submission %q, want %q", got, want)
	}
	mails := s.Emails()
	if len(mails) != 1 || mails[0].To != "ann@example.com" || mails[0].SigningLink == "" {
		t.Fatalf("request email: %+v", mails)
	}
	link := strings.TrimPrefix(mails[0].SigningLink, s.URL())
	req := testkit.NewReq(t, s, "GET", link)
	st, page := testkit.Do(t, s, req, nil)
	if st != 200 || !bytes.Contains(page, []byte(`value="sign"`)) || !bytes.Contains(page, []byte("Ann Smith")) {
		t.Fatalf("signing page: %d %s", st, page)
	}
	post, err := http.NewRequest("POST", s.URL()+link, strings.NewReader(url.Values{"action": {"sign"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := (&http.Client{Transport: s.Transport()}).Do(post)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("sign on the page: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	want := []string{"signer.requestActivated:Ann Smith", "signer.requestSent:Ann Smith", "signer.opened:Ann Smith",
		"signer.signed:Ann Smith", "casefile.completed", "signer.finalized:Ann Smith"}
	if got := testkit.EventTrail(t, s, id); !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q", got, want)
	}
	var details signing.CaseFileJSON
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &details)
	if details.Status != testkit.CaseCompleted || details.Documents[0].FileSize == 0 || len(details.Documents[0].SignatureLines) != 1 ||
		details.Documents[0].SignatureLines[0].SignerID != details.Signers[0].ID || details.Documents[0].SignatureLines[0].SignedAt == nil {
		t.Fatalf("details after signing: %+v", details)
	}
	_, signed := testkit.GetAccept(t, s, fmt.Sprintf("/api/v3/documents/%d/content", details.Documents[0].ID), tok, "application/pdf")
	text := pdfText(t, signed)
	for _, w := range []string{"Ann ApS", "Signatures", "Ann Smith"} {
		if !strings.Contains(text, w) {
			t.Errorf("signed answers PDF lacks %q:\n%s", w, text)
		}
	}
	if st, again := testkit.Do(t, s, testkit.NewReq(t, s, "GET", link), nil); st != 200 || bytes.Contains(again, []byte(`value="sign"`)) {
		t.Fatalf("page after completion still offers signing: %d", st)
	}
}

// The signing page's answers: HTML pages for unknown links, Post/Redirect/Get
// after Sign and Reject, a reject only once confirmed, and the JSON
// errors for JSON clients.
func TestSigningPageErrors(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	_, links := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	link := strings.TrimPrefix(links[0].SigningLink, s.URL())
	noFollow := &http.Client{Transport: s.Transport(), CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	tests := []struct {
		method, path, body, accept string
		want                       int
		location, contentType      string
	}{
		{"GET", "/public/sign/nope", "", "", 404, "", "text/html; charset=utf-8"},
		{"GET", "/public/sign/nope", "", "application/json", 404, "", "application/json"},
		{"HEAD", link, "", "", 200, "", "text/html; charset=utf-8"},
		{"POST", link, "action=dance", "", 422, "", "application/json"},
		{"POST", link, "action=reject", "", 303, link + "?confirm=reject", ""},
		{"POST", link, "action=reject&confirm=yes", "", 303, link + "?done=reject", ""},
		{"POST", link, "action=sign", "", 303, link, ""}, // rejected meanwhile: the page says so
		{"POST", link, "action=sign", "application/json", 409, "", "application/json"},
	}
	for _, tc := range tests {
		req, err := http.NewRequest(tc.method, s.URL()+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if tc.accept != "" {
			req.Header.Set("Accept", tc.accept)
		}
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		what := tc.method + " " + tc.path + " " + tc.body + " " + tc.accept
		if resp.StatusCode != tc.want {
			t.Fatalf("%s: %d, want %d", what, resp.StatusCode, tc.want)
		}
		if loc := strings.TrimPrefix(resp.Header.Get("Location"), s.URL()); loc != tc.location {
			t.Errorf("%s: Location %q, want %q", what, loc, tc.location)
		}
		if ct := resp.Header.Get("Content-Type"); tc.contentType != "" && !strings.HasPrefix(ct, tc.contentType) {
			t.Errorf("%s: Content-Type %q, want %s", what, ct, tc.contentType)
		}
	}
	want := []string{"signer.requestActivated:Ann", "signer.requestSent:Ann", "signer.rejected:Ann", "casefile.rejected"}
	if got := testkit.EventTrail(t, s, 1); !slices.Equal(got, want) {
		t.Fatalf("events %q, want %q (HEAD, unconfirmed rejects and failed posts emit nothing)", got, want)
	}
	_, page := testkit.Do(t, s, testkit.NewReq(t, s, "GET", link+"?done=reject"), nil)
	for _, w := range []string{`id="flash"`, "You have rejected the case file.", `data-status="rejected"`, "This case file is rejected."} {
		if !bytes.Contains(page, []byte(w)) {
			t.Errorf("page after the reject lacks %q", w)
		}
	}
	if bytes.Contains(page, []byte(`id="sign"`)) {
		t.Error("page after the reject still offers Sign")
	}
}

// A deleted case file's signing link answers 410 with an HTML page.
func TestSigningLinkOfDeletedCaseFileIsGone(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	id, links := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	if st, b := testkit.Call(t, s, "DELETE", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, nil); st != 200 {
		t.Fatalf("delete: %d %s", st, b)
	}
	st, page := testkit.Do(t, s, testkit.NewReq(t, s, "GET", strings.TrimPrefix(links[0].SigningLink, s.URL())), nil)
	if st != 410 || !bytes.Contains(page, []byte("Link no longer valid")) || !bytes.Contains(page, []byte(`name="viewport"`)) {
		t.Fatalf("link of a deleted case file: %d %s", st, page)
	}
}

// submitPublic posts a complete submission of testkit.SampleForm, with a
// company, to the public page of f as a JSON client, and decodes the answer
// into out.
func submitPublic(t *testing.T, s *mockserver.Server, f testkit.FormView, out any) (int, []byte) {
	t.Helper()
	answers := map[string]string{"fullName": "Ann Smith", "email": "ann@example.com", "phone": "+45 12345678",
		"hasCompany": "yes", "vat": "12345678", "companyName": "Ann ApS", "founded": "2020-01-31"}
	var parts []testkit.Part
	for name, value := range answers {
		parts = append(parts, testkit.Part{Field: name, Body: []byte(value)})
	}
	body, ct := testkit.Multipart(t, parts...)
	req, err := http.NewRequest("POST", f.PublicURL, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Accept", "application/json")
	return testkit.Do(t, s, req, out)
}
