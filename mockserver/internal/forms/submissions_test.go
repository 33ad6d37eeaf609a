package forms_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

func TestSubmissionCreatesCaseFile(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	id := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	in := forms.NewSubmissionInput(testkit.ValidAnswers(), map[string]*forms.Upload{
		"attachment": forms.NewUpload("cv.txt", "text/plain", []byte("hello"))})
	core := testkit.Core(s)
	sub, err := core.Forms.Submit(id, "", in)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := core.Signing.Access(sub.CaseFileID(), core.Auth.ByID(mockserver.DefaultUserID))
	if err != nil {
		t.Fatal(err)
	}
	if cf.Title != "Membership for Ann Smith" || len(cf.Signers) != 1 || cf.Signers[0].Name != "Ann Smith" ||
		cf.Signers[0].Email != "ann@example.com" || len(cf.Documents) != 1 || len(cf.Attachments) != 1 || cf.UserID != mockserver.DefaultUserID {
		t.Fatalf("case file: %+v", cf)
	}
	pdf, err := cf.Documents[0].Render()
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("answers PDF: %v %q", err, pdf[:min(len(pdf), 20)])
	}
	if _, err := exec.LookPath("pdftotext"); err == nil {
		f := t.TempDir() + "/a.pdf"
		_ = os.WriteFile(f, pdf, 0o600)
		out, err := exec.Command("pdftotext", f, "-").Output()
		if err != nil || !strings.Contains(string(out), "Ann ApS") || !strings.Contains(string(out), "Membership for Ann Smith") {
			t.Fatalf("pdftotext: %v %s", err, out)
		}
	}
	var files []forms.FileJSON
	st, b := testkit.Call(t, s, "GET", fmt.Sprintf("/collect/api/v1/casefiles/%d/files", cf.ID), tok, nil, &files)
	if st != 200 || len(files) != 1 || files[0].Filename != "cv.txt" || files[0].Size != 5 || files[0].ContentType != "text/plain" {
		t.Fatalf("files: %d %s", st, b)
	}
	req := testkit.NewReq(t, s, "GET", strings.TrimPrefix(files[0].URL, s.URL()))
	req.Header.Set("Authorization", "Bearer "+tok)
	if st, body := testkit.Do(t, s, req, nil); st != 200 || string(body) != "hello" {
		t.Fatalf("download: %d %q", st, body)
	}
	var ans forms.AnswersJSON
	st, b = testkit.Call(t, s, "GET", fmt.Sprintf("/collect/api/v1/forms/%s/submissions/%d/answers", id, sub.ID()), tok, nil, &ans)
	if st != 200 || ans.SubmissionID != sub.ID() || ans.ExternalID != id || ans.Version != 1 || len(ans.Sections) != 3 ||
		ans.Sections[1].Slug != "company" || ans.Sections[1].Answers[0].Value != "Ann ApS" || ans.Sections[2].Answers[0].Value != "cv.txt" {
		t.Fatalf("answers: %d %s", st, b)
	}
	for _, p := range []string{"/submissions/999/answers", "/submissions/x/answers"} {
		if st, _ := testkit.Call(t, s, "GET", "/collect/api/v1/forms/"+id+p, tok, nil, nil); st != 404 {
			t.Errorf("%s: %d, want 404", p, st)
		}
	}
}

func TestHiddenSectionAnswersAreDropped(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	id := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	in := testkit.ValidAnswers()
	in["hasCompany"] = "no"
	in["vat"] = "not a number" // hidden: ignored, not validated
	sub, err := testkit.Core(s).Forms.Submit(id, "", forms.NewSubmissionInput(in, nil))
	if err != nil {
		t.Fatal(err)
	}
	ans := sub.Answers(id)
	if len(ans.Sections) != 2 || ans.Sections[1].Slug != "review" || len(ans.Sections[0].Answers) != 4 {
		t.Fatalf("answers of a hidden section or field kept: %+v", ans)
	}
}

func TestSubmissionListing(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	id := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	for range 25 {
		if _, err := testkit.Core(s).Forms.Submit(id, "", forms.NewSubmissionInput(testkit.ValidAnswers(), nil)); err != nil {
			t.Fatal(err)
		}
		s.Advance(time.Minute)
	}
	tok = login(t, s, s.DefaultCredentials()) // 25 minutes later the first token has expired
	tests := []struct {
		query         string
		status        int
		first, n      int
		limit, offset int
		detail        string
	}{
		{"", 200, 1, 10, 10, 0, ""},
		{"?limit=5&offset=20", 200, 21, 5, 5, 20, ""},
		{"?limit=1000&offset=24", 200, 25, 1, 1000, 24, ""},
		{"?offset=30", 200, 0, 0, 10, 30, ""},
		{"?completedAfter=" + testkit.Epoch.Add(2*time.Minute+time.Second).Format(time.RFC3339), 200, 4, 10, 10, 0, ""},
		{"?limit=0", 422, 0, 0, 0, 0, "limit"},
		{"?limit=1001", 422, 0, 0, 0, 0, "limit"},
		{"?limit=ten", 422, 0, 0, 0, 0, "limit"},
		{"?offset=-1", 422, 0, 0, 0, 0, "offset"},
		{"?completedBefore=yesterday", 422, 0, 0, 0, 0, "completedBefore"},
	}
	for _, tc := range tests {
		var out struct {
			Items         []forms.SubmissionJSON `json:"items"`
			Limit, Offset int
			Total         int
			testkit.APIError
		}
		st, b := testkit.Call(t, s, "GET", "/collect/api/v1/forms/"+id+"/submissions"+tc.query, tok, nil, &out)
		if st != tc.status {
			t.Errorf("%q: %d %s", tc.query, st, b)
			continue
		}
		if st == 422 {
			if len(out.Details) != 1 || out.Details[0].Field != tc.detail {
				t.Errorf("%q: details %+v", tc.query, out.Details)
			}
			continue
		}
		if len(out.Items) != tc.n || out.Limit != tc.limit || out.Offset != tc.offset || out.Items == nil {
			t.Errorf("%q: %s", tc.query, b)
			continue
		}
		for i, it := range out.Items {
			if it.SubmissionID != int64(tc.first+i) || it.CaseFileID == 0 || it.FormVersion != 1 {
				t.Errorf("%q: item %d = %+v", tc.query, i, it)
			}
		}
	}
}

func TestOwnership(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	id := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	sub, err := testkit.Core(s).Forms.Submit(id, "", forms.NewSubmissionInput(testkit.ValidAnswers(), nil))
	if err != nil {
		t.Fatal(err)
	}
	add := func(spec mockserver.UserSpec) string {
		c, err := s.AddUser(spec)
		if err != nil {
			t.Fatal(err)
		}
		return login(t, s, c)
	}
	colleague := add(mockserver.UserSpec{Name: "Colleague", Admin: true})
	super := add(mockserver.UserSpec{Name: "Super", SuperUser: true})
	stranger := add(mockserver.UserSpec{Name: "Stranger", NewCustomer: true, SuperUser: true})
	paths := []string{"/collect/api/v1/forms/" + id, "/collect/api/v1/forms/" + id + "/submissions",
		fmt.Sprintf("/collect/api/v1/forms/%s/submissions/%d/answers", id, sub.ID()),
		fmt.Sprintf("/collect/api/v1/casefiles/%d/files", sub.CaseFileID())}
	tests := []struct {
		name, tok string
		status    int
	}{{"owner", tok, 200}, {"colleague", colleague, 403}, {"super user", super, 200}, {"other customer", stranger, 404}}
	for _, tc := range tests {
		for _, p := range paths {
			if st, b := testkit.Call(t, s, "GET", p, tc.tok, nil, nil); st != tc.status {
				t.Errorf("%s %s: %d %s, want %d", tc.name, p, st, b, tc.status)
			}
		}
	}
	if st, _ := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+id+"/archive", colleague, nil, nil); st != 403 {
		t.Errorf("colleague archived the form: %d", st)
	}
}
