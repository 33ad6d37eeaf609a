package forms_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

func TestPublicPageRenders(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	resp, err := (&http.Client{Transport: s.Transport()}).Get(f.PublicURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("page: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	_, b := testkit.Do(t, s, testkit.NewReq(t, s, "GET", testkit.PublicPath(f)), nil)
	page := string(b)
	for _, want := range []string{
		`<form id="signkit-form" method="post" enctype="multipart/form-data" action="` + testkit.PublicPath(f) + `" novalidate>`,
		`id="section-company" data-scope="section" data-cond="[{&#34;field&#34;:&#34;hasCompany&#34;,&#34;operator&#34;:&#34;EQUALS&#34;,&#34;value&#34;:&#34;yes&#34;}]" hidden>`,
		`<input id="in-email" type="email" name="email" value="" required>`,
		`<input id="in-attachment" type="file" name="attachment">`,
		`<span class="merge empty" data-merge="fullName" data-merge-type="TEXT" data-placeholder="[Full name]">[Full name]</span>`,
		`<option value="yes">Yes</option>`,
		`<p class="note" id="required-note">Fields marked * are required.</p>`,
		`<noscript><p class="note" id="nojs-note">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	order := regexp.MustCompile(`id="section-([a-z]+)"`).FindAllStringSubmatch(page, -1)
	if len(order) != 3 || order[0][1] != "applicant" || order[1][1] != "company" || order[2][1] != "review" {
		t.Errorf("sections out of order: %v", order)
	}
	if st, _ := testkit.Do(t, s, testkit.NewReq(t, s, "GET", "/public/forms/nope"), nil); st != 404 {
		t.Errorf("unknown form page: %d", st)
	}
}

func TestPublicPagePrefill(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	var link struct {
		RequestURL string `json:"requestUrl"`
	}
	testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/requests", tok, map[string]any{"answers": map[string]any{
		"email": map[string]any{"value": "ann@example.com", "editable": false}, "fullName": map[string]any{"value": "Ann <b>", "editable": true}}}, &link)
	path := strings.TrimPrefix(link.RequestURL, "http://signkit.mock")
	_, b := testkit.Do(t, s, testkit.NewReq(t, s, "GET", path), nil)
	page := string(b)
	for _, want := range []string{
		`<input id="in-email" type="text" name="email" value="ann@example.com" readonly aria-describedby="locked-email">`,
		`<span class="locked" id="locked-email"><svg class="lock" aria-hidden="true"`,
		`</svg> Set by the sender</span>`,
		`<input id="in-fullName" type="text" name="fullName" value="Ann &lt;b&gt;" required>`,
		`<span class="merge" data-merge="fullName" data-merge-type="TEXT" data-placeholder="[Full name]">Ann &lt;b&gt;</span>`,
		`action="` + path + `"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("prefilled page lacks %s", want)
		}
	}
	vals := testkit.ValidAnswers()
	vals["email"] = "eve@example.com"
	var e testkit.APIError
	if st, b := testkit.PostPublic(t, s, path, vals, nil, true, &e); st != 422 || len(e.Details) != 1 || e.Details[0].Field != "email" {
		t.Fatalf("changed locked value: %d %s", st, b)
	}
	delete(vals, "email") // absent: the locked value stands
	var ok struct{ SubmissionID int64 }
	if st, b := testkit.PostPublic(t, s, path, vals, nil, true, &ok); st != 201 {
		t.Fatalf("locked value omitted: %d %s", st, b)
	}
	if st, _ := testkit.Do(t, s, testkit.NewReq(t, s, "GET", testkit.PublicPath(f)+"/requests/nope"), nil); st != 404 {
		t.Errorf("unknown request: %d", st)
	}
}

func TestPublicSubmitValidation(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t, mockserver.WithMaxFileBytes(10))
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	with := func(edit func(m map[string]string)) map[string]string {
		m := testkit.ValidAnswers()
		edit(m)
		return m
	}
	tests := []struct {
		name   string
		values map[string]string
		files  map[string][2]string
		fields []string
	}{
		{"required missing", with(func(m map[string]string) { delete(m, "fullName") }), nil, []string{"fullName"}},
		{"required blank", with(func(m map[string]string) { m["fullName"] = "  " }), nil, []string{"fullName"}},
		{"email format", with(func(m map[string]string) { m["email"] = "ann@" }), nil, []string{"email"}},
		{"phone format", with(func(m map[string]string) { m["phone"] = "call me" }), nil, []string{"phone"}},
		{"number format", with(func(m map[string]string) { m["vat"] = "12a" }), nil, []string{"vat"}},
		{"date format", with(func(m map[string]string) { m["founded"] = "31.01.2020" }), nil, []string{"founded"}},
		{"choice not an option", with(func(m map[string]string) { m["hasCompany"] = "maybe" }), nil, []string{"hasCompany"}},
		{"conditional required once visible", with(func(m map[string]string) { delete(m, "companyName"); delete(m, "vat") }), nil, []string{"vat", "companyName"}},
		{"file too large", testkit.ValidAnswers(), map[string][2]string{"attachment": {"big.bin", "0123456789ABC"}}, []string{"attachment"}},
		{"several wire.Problems", with(func(m map[string]string) { m["email"] = "x"; m["phone"] = "y" }), nil, []string{"email", "phone"}},
	}
	for _, tc := range tests {
		subs, cases := s.Stats().Submissions, s.Stats().CaseFiles
		var e testkit.APIError
		st, b := testkit.PostPublic(t, s, testkit.PublicPath(f), tc.values, tc.files, true, &e)
		var got []string
		for _, d := range e.Details {
			got = append(got, d.Field)
		}
		if st != 422 || e.Error != "validation_failed" || strings.Join(got, ",") != strings.Join(tc.fields, ",") {
			t.Errorf("%s: %d %s, want details %v", tc.name, st, b, tc.fields)
		}
		if s.Stats().Submissions != subs || s.Stats().CaseFiles != cases {
			t.Errorf("%s: something was stored", tc.name)
		}
	}
	hidden := with(func(m map[string]string) { m["hasCompany"] = "no"; m["vat"] = "not checked"; delete(m, "companyName") })
	var ok struct {
		SubmissionID int64 `json:"submissionId"`
		CaseFileID   int64 `json:"casefileId"`
	}
	if st, b := testkit.PostPublic(t, s, testkit.PublicPath(f), hidden, map[string][2]string{"attachment": {"ok.txt", "small"}}, true, &ok); st != 201 || ok.SubmissionID != 1 || ok.CaseFileID != 1 {
		t.Fatalf("hidden fields should be ignored: %d %s", st, b)
	}
}

func TestPublicSubmitHTML(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t, mockserver.WithMaxBodyBytes(4096))
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	st, b := testkit.PostPublic(t, s, testkit.PublicPath(f), testkit.ValidAnswers(), nil, false, nil)
	if st != 201 || !strings.Contains(string(b), `<dd id="submission-id">1</dd>`) || !strings.Contains(string(b), `signing-link" href="http://signkit.mock/public/sign/`) {
		t.Fatalf("thank-you page: %d %s", st, b)
	}
	bad := testkit.ValidAnswers()
	bad["email"] = "nope"
	st, b = testkit.PostPublic(t, s, testkit.PublicPath(f), bad, nil, false, nil)
	if st != 422 || !strings.Contains(string(b), `id="error-email"`) || !strings.Contains(string(b), `value="Ann Smith"`) {
		t.Fatalf("error page: %d %s", st, b)
	}
	if st, _ := testkit.PostPublic(t, s, testkit.PublicPath(f), testkit.ValidAnswers(), map[string][2]string{"attachment": {"x", strings.Repeat("x", 5000)}}, true, nil); st != 413 {
		t.Fatalf("body over the limit: %d", st)
	}
	testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/archive", tok, nil, nil)
	if st, b := testkit.PostPublic(t, s, testkit.PublicPath(f), testkit.ValidAnswers(), nil, true, nil); st != 404 {
		t.Fatalf("archived form accepted: %d %s", st, b)
	}
	if st, b := testkit.Do(t, s, testkit.NewReq(t, s, "GET", testkit.PublicPath(f)), nil); st != 404 || !strings.Contains(string(b), "not available") {
		t.Fatalf("archived page: %d %s", st, b)
	}
}
