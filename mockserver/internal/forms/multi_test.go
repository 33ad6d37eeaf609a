package forms_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// pairs are posted inputs in order; a name may repeat (<field>[]).
type pairs [][2]string

// postPairs posts inputs as multipart/form-data to a public path, asking
// for JSON; files maps a posted name to filename:content.
func postPairs(t testing.TB, s *mockserver.Server, path string, in pairs, files map[string][2]string, out any) (int, []byte) {
	t.Helper()
	return testkit.PostPublicPairs(t, s, path, in, files, true, out)
}

// jobPairs is a valid submission of testkit.JobApplication with n employments.
func jobPairs(n int) pairs {
	p := pairs{{"full_name", "Ann Smith"}, {"email_address", "ann@example.com"}, {"phone_numbers[]", "+45 11111111"}}
	for i := range n {
		p = append(p, [2]string{fmt.Sprintf("employer[%d]", i), fmt.Sprintf("Employer %d", i)},
			[2]string{fmt.Sprintf("job_title[%d]", i), fmt.Sprintf("Title %d", i)})
	}
	return p
}

// without answers p without the named inputs.
func (p pairs) without(names ...string) pairs {
	var out pairs
	for _, kv := range p {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+kv[0]+" ") {
			out = append(out, kv)
		}
	}
	return out
}

func TestMultiEntrySubmissions(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t, mockserver.WithMaxFileBytes(10))
	f := testkit.ActiveForm(t, s, tok, testkit.JobApplication(3))
	tests := []struct {
		name   string
		in     pairs
		files  map[string][2]string
		fields []string // nil: accepted
		jobs   []string // the employers stored, in order
		phones []string
	}{
		{"one instance", jobPairs(1), nil, nil, []string{"Employer 0"}, []string{"+45 11111111"}},
		{"two instances, three phones", append(jobPairs(2), [2]string{"phone_numbers[]", "+45 22222222"}, [2]string{"phone_numbers[]", " "},
			[2]string{"phone_numbers[]", "+46 33333333"}), nil, nil, []string{"Employer 0", "Employer 1"}, []string{"+45 11111111", "+45 22222222", "+46 33333333"}},
		{"plain names are instance 0", pairs{{"full_name", "Ann"}, {"email_address", "a@example.com"}, {"phone_numbers", "+45 11111111"},
			{"employer", "Plain"}, {"job_title", "Dev"}}, nil, nil, []string{"Plain"}, []string{"+45 11111111"}},
		{"files per instance", jobPairs(2), map[string][2]string{"reference[0]": {"a.txt", "A"}, "reference[1]": {"b.txt", "B"}}, nil,
			[]string{"Employer 0", "Employer 1"}, []string{"+45 11111111"}},
		{"required missing in instance 1", jobPairs(2).without("job_title[1]"), nil, []string{"job_title[1]"}, nil, nil},
		{"gap makes an empty instance", append(jobPairs(1), [2]string{"employer[2]", "X"}, [2]string{"job_title[2]", "Y"}), nil,
			[]string{"employer[1]", "job_title[1]"}, nil, nil},
		{"more instances than max", jobPairs(4), nil, []string{"previous-employment"}, nil, nil},
		{"huge index", append(jobPairs(1), [2]string{"employer[99999999999999999999]", "X"}), nil, []string{"previous-employment"}, nil, nil},
		{"more values than max", append(jobPairs(1), [2]string{"phone_numbers[]", "+45 22222222"}, [2]string{"phone_numbers[]", "+45 33333333"},
			[2]string{"phone_numbers[]", "+45 44444444"}), nil, []string{"phone_numbers"}, nil, nil},
		{"multi-entry field required", jobPairs(1).without("phone_numbers[]"), nil, []string{"phone_numbers"}, nil, nil},
		{"bad value of a multi-entry field", append(jobPairs(1), [2]string{"phone_numbers[]", "call me"}), nil, []string{"phone_numbers[1]"}, nil, nil},
		{"file too large in an instance", jobPairs(1), map[string][2]string{"reference[0]": {"big", "0123456789AB"}}, []string{"reference[0]"}, nil, nil},
	}
	for _, tc := range tests {
		subs, cases := len(testkit.Core(s).Forms.Submissions(f.ExternalID)), s.Stats().CaseFiles
		var out struct {
			SubmissionID int64 `json:"submissionId"`
			testkit.APIError
		}
		st, b := postPairs(t, s, testkit.PublicPath(f), tc.in, tc.files, &out)
		if tc.fields != nil {
			var got []string
			for _, d := range out.Details {
				got = append(got, d.Field)
			}
			if st != 422 || strings.Join(got, ",") != strings.Join(tc.fields, ",") {
				t.Errorf("%s: %d %s, want 422 %v", tc.name, st, b, tc.fields)
			}
			if len(testkit.Core(s).Forms.Submissions(f.ExternalID)) != subs || s.Stats().CaseFiles != cases {
				t.Errorf("%s: something was stored", tc.name)
			}
			continue
		}
		if st != 201 {
			t.Errorf("%s: %d %s", tc.name, st, b)
			continue
		}
		var ans forms.AnswersJSON
		testkit.Call(t, s, "GET", fmt.Sprintf("/collect/api/v1/forms/%s/submissions/%d/answers", f.ExternalID, out.SubmissionID), tok, nil, &ans)
		var jobs []string
		for _, in := range ans.Sections[1].Instances {
			jobs = append(jobs, in.Answers[0].Value)
		}
		if !reflect.DeepEqual(jobs, tc.jobs) || !reflect.DeepEqual(ans.Sections[0].Answers[2].Values, tc.phones) {
			t.Errorf("%s: stored employers %v phones %v, want %v %v", tc.name, jobs, ans.Sections[0].Answers[2].Values, tc.jobs, tc.phones)
		}
		if tc.files != nil {
			core := testkit.Core(s)
			cf, _ := core.Signing.Access(core.Forms.Submissions(f.ExternalID)[subs].CaseFileID(), core.Auth.ByID(mockserver.DefaultUserID))
			if len(cf.Attachments) != len(tc.files) {
				t.Errorf("%s: %d attachments, want %d", tc.name, len(cf.Attachments), len(tc.files))
			}
		}
	}
}

// TestMultiEntryAnswersWire checks the answers' JSON shape: instances for a
// multi-entry section, values for a multi-entry field, the id under both
// names, the respondent from the mapped fields, and the first instance
// feeding the case file title.
func TestMultiEntryAnswersWire(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.ActiveForm(t, s, tok, testkit.JobApplication(3))
	var out struct {
		SubmissionID int64 `json:"submissionId"`
		CaseFileID   int64 `json:"casefileId"`
	}
	if st, b := postPairs(t, s, testkit.PublicPath(f), jobPairs(2), nil, &out); st != 201 {
		t.Fatalf("submit: %d %s", st, b)
	}
	_, b := testkit.Call(t, s, "GET", fmt.Sprintf("/collect/api/v1/forms/%s/submissions/%d/answers", f.ExternalID, out.SubmissionID), tok, nil, nil)
	want := fmt.Sprintf(`{"submissionId":1,"formId":"%[1]s","externalId":"%[1]s","version":1,`+
		`"respondents":[{"name":"Ann Smith","email":"ann@example.com"}],"sections":[`+
		`{"slug":"personal-information","title":"Personal Information","multipleEntries":false,"answers":[`+
		`{"name":"full_name","label":"Full Name","type":"TEXT","value":"Ann Smith"},`+
		`{"name":"email_address","label":"Email Address","type":"EMAIL","value":"ann@example.com"},`+
		`{"name":"phone_numbers","label":"Phone Numbers","type":"PHONE","values":["+45 11111111"]}]},`+
		`{"slug":"previous-employment","title":"Previous Employment","multipleEntries":true,"instances":[`+
		`{"answers":[{"name":"employer","label":"Employer","type":"TEXT","value":"Employer 0"},{"name":"job_title","label":"Job Title","type":"TEXT","value":"Title 0"},{"name":"reference","label":"Reference","type":"FILE","value":""}]},`+
		`{"answers":[{"name":"employer","label":"Employer","type":"TEXT","value":"Employer 1"},{"name":"job_title","label":"Job Title","type":"TEXT","value":"Title 1"},{"name":"reference","label":"Reference","type":"FILE","value":""}]}]},`+
		`{"slug":"summary","title":"Summary","multipleEntries":false,"answers":[]}]}`, f.ExternalID)
	if strings.TrimSpace(string(b)) != want {
		t.Errorf("answers:\n%s\nwant\n%s", b, want)
	}
	core := testkit.Core(s)
	cf, err := core.Signing.Access(out.CaseFileID, core.Auth.ByID(mockserver.DefaultUserID))
	if err != nil || cf.Title != "Job Application - Ann Smith" {
		t.Errorf("case file: %v %+v", err, cf)
	}
}

// prefillV2Body builds a v2 body: slug → instances of field → value, all
// editable unless the value starts with "!" (locked).
func prefillV2Body(secs map[string][]map[string]string) map[string]any {
	answers := map[string]any{}
	for slug, insts := range secs {
		list := []any{}
		for _, inst := range insts {
			m := map[string]any{}
			for k, v := range inst {
				m[k] = map[string]any{"value": strings.TrimPrefix(v, "!"), "editable": !strings.HasPrefix(v, "!")}
			}
			list = append(list, m)
		}
		answers[slug] = list
	}
	return map[string]any{"answers": answers}
}

func TestPrefillV2(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.ActiveForm(t, s, tok, testkit.JobApplication(2))
	type secs = map[string][]map[string]string
	tests := []struct {
		name   string
		body   any
		status int
		fields []string
	}{
		{"vendor's shape: one instance of a single section", prefillV2Body(secs{"personal-information": {{"full_name": "Jane Doe", "email_address": "jane@example.com"}}}), 200, nil},
		{"two instances of a multi-entry section", prefillV2Body(secs{"previous-employment": {{"employer": "A"}, {"employer": "B", "job_title": "!Dev"}}}), 200, nil},
		{"empty instance object", prefillV2Body(secs{"previous-employment": {{}}}), 200, nil},
		{"unknown slug", prefillV2Body(secs{"nope": {{"full_name": "x"}}}), 422, []string{"answers.nope"}},
		{"two instances of a single section", prefillV2Body(secs{"personal-information": {{}, {}}}), 422, []string{"answers.personal-information"}},
		{"more instances than max", prefillV2Body(secs{"previous-employment": {{}, {}, {}}}), 422, []string{"answers.previous-employment"}},
		{"empty list", prefillV2Body(secs{"previous-employment": {}}), 422, []string{"answers.previous-employment"}},
		{"field of another section", prefillV2Body(secs{"personal-information": {{"employer": "x"}}}), 422, []string{"answers.personal-information[0].employer"}},
		{"bad value", prefillV2Body(secs{"personal-information": {{"email_address": "nope"}}}), 422, []string{"answers.personal-information[0].email_address"}},
		{"FILE field", prefillV2Body(secs{"previous-employment": {{}, {"reference": "x"}}}), 422, []string{"answers.previous-employment[1].reference"}},
		{"not a list", map[string]any{"answers": map[string]any{"personal-information": map[string]any{}}}, 400, nil},
		{"missing answers", map[string]any{}, 422, []string{"answers"}},
	}
	for _, tc := range tests {
		n := s.Stats().PrefillRequests
		var out prefillAnswer
		st, b := testkit.Call(t, s, "POST", "/collect/api/v2/forms/"+f.ExternalID+"/requests", tok, tc.body, &out)
		var got []string
		for _, d := range out.Details {
			got = append(got, d.Field)
		}
		if st != tc.status || strings.Join(got, ",") != strings.Join(tc.fields, ",") {
			t.Errorf("%s: %d %s, want %d %v", tc.name, st, b, tc.status, tc.fields)
		}
		if added := s.Stats().PrefillRequests - n; added != map[bool]int{true: 1, false: 0}[st == 200] {
			t.Errorf("%s: %d requests stored", tc.name, added)
		}
		if st == 200 && (out.RequestID == "" || !strings.HasSuffix(out.RequestURL, "/requests/"+out.RequestID)) {
			t.Errorf("%s: link %s", tc.name, b)
		}
	}
	draft := testkit.CreateForm(t, s, tok, testkit.JobApplication(2)).ExternalID
	if st, _ := testkit.Call(t, s, "POST", "/collect/api/v2/forms/"+draft+"/requests", tok, prefillV2Body(secs{}), nil); st != 409 {
		t.Errorf("v2 prefill of a DRAFT: %d, want 409", st)
	}
	if st, _ := testkit.Call(t, s, "POST", "/collect/api/v2/forms/"+f.ExternalID+"/requests", "", prefillV2Body(secs{}), nil); st != 401 {
		t.Errorf("v2 prefill without a token: %d, want 401", st)
	}
}

// TestPrefillV2PageAndLocks: a v2 link renders its instances with their
// values, locks per instance, and the server enforces the lock.
func TestPrefillV2PageAndLocks(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.ActiveForm(t, s, tok, testkit.JobApplication(3))
	var link struct {
		RequestURL string `json:"requestUrl"`
	}
	body := prefillV2Body(map[string][]map[string]string{
		"personal-information": {{"full_name": "Jane", "phone_numbers": "!+45 12345678"}},
		"previous-employment":  {{"employer": "First ApS"}, {"employer": "!Second A/S", "job_title": "Boss"}},
	})
	if st, b := testkit.Call(t, s, "POST", "/collect/api/v2/forms/"+f.ExternalID+"/requests", tok, body, &link); st != 200 {
		t.Fatalf("prefill: %d %s", st, b)
	}
	path := strings.TrimPrefix(link.RequestURL, "http://signkit.mock")
	_, page := testkit.Do(t, s, testkit.NewReq(t, s, "GET", path), nil)
	for _, want := range []string{
		`<input id="in-full_name" type="text" name="full_name" value="Jane" required>`,
		`<input id="in-phone_numbers" type="text" name="phone_numbers[]" value="&#43;45 12345678" readonly aria-describedby="locked-phone_numbers">`,
		`<input id="in-employer-0" type="text" name="employer[0]" value="First ApS" required>`,
		`<input id="in-employer-1" type="text" name="employer[1]" value="Second A/S" readonly aria-describedby="locked-employer-1">`,
		`<input id="in-job_title-1" type="text" name="job_title[1]" value="Boss" required>`,
		`<div class="instance" data-instance="1">`,
		`<input id="in-employer-__i__" type="text" name="employer[__i__]" value="" required>`,
		`<button type="button" class="secondary add" id="add-previous-employment" data-add="previous-employment">Add another</button>`,
		`<span class="merge" data-merge="employer" data-merge-type="TEXT" data-placeholder="[`,
		`>First ApS</span>`,
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(string(page), `data-instance="2"`) || strings.Contains(string(page), `id="add-phone_numbers"`) {
		t.Error("page shows a third instance, or an add button for a locked field")
	}
	// What a browser sends: the editable values as shown, the locked ones.
	good := pairs{{"full_name", "Jane"}, {"email_address", "jane@example.com"}, {"employer[0]", "First ApS"}, {"job_title[0]", "Dev"},
		{"job_title[1]", "Boss"}}
	for _, tc := range []struct {
		name  string
		extra pairs
		field string
	}{
		{"locked instance value changed", pairs{{"employer[1]", "Third"}}, "employer[1]"},
		{"locked multi-entry field changed", pairs{{"phone_numbers[]", "+45 99999999"}}, "phone_numbers"},
	} {
		var e testkit.APIError
		if st, b := postPairs(t, s, path, append(good, tc.extra...), nil, &e); st != 422 || len(e.Details) != 1 || e.Details[0].Field != tc.field {
			t.Errorf("%s: %d %s", tc.name, st, b)
		}
	}
	var ok struct {
		SubmissionID int64 `json:"submissionId"`
	}
	if st, b := postPairs(t, s, path, good, nil, &ok); st != 201 {
		t.Fatalf("submit through the link: %d %s", st, b)
	}
	values, lists, counts := testkit.Core(s).Forms.Submissions(f.ExternalID)[0].Stored()
	if counts[1] != 2 || !reflect.DeepEqual(lists[3], []string{"First ApS", "Second A/S"}) ||
		!reflect.DeepEqual(lists[2], []string{"+45 12345678"}) || values[0] != "Jane" {
		t.Errorf("stored: counts %v lists %v values %v", counts, lists, values)
	}
}

func TestRequestAnswers(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.ActiveForm(t, s, tok, testkit.JobApplication(3))
	newLink := func(version string, body any) (string, string) {
		var link struct{ RequestURL, RequestID string }
		if st, b := testkit.Call(t, s, "POST", "/collect/api/"+version+"/forms/"+f.ExternalID+"/requests", tok, body, &link); st != 200 {
			t.Fatalf("prefill %s: %d %s", version, st, b)
		}
		return strings.TrimPrefix(link.RequestURL, "http://signkit.mock"), link.RequestID
	}
	pathV1, idV1 := newLink("v1", map[string]any{"answers": map[string]any{"full_name": map[string]any{"value": "V1", "editable": false}}})
	pathV2, idV2 := newLink("v2", prefillV2Body(map[string][]map[string]string{"previous-employment": {{"employer": "!E0"}, {"employer": "!E1"}}}))
	answersOf := func(reqID string) (int, []byte) {
		return testkit.Call(t, s, "GET", "/collect/api/v1/forms/"+f.ExternalID+"/requests/"+reqID+"/answers", tok, nil, nil)
	}
	for _, id := range []string{idV1, idV2, "nope"} {
		if st, b := answersOf(id); st != 404 {
			t.Errorf("request %s before a submission: %d %s", id, st, b)
		}
	}
	// A submission without the link does not count for it.
	if st, b := postPairs(t, s, testkit.PublicPath(f), jobPairs(1), nil, nil); st != 201 {
		t.Fatalf("plain submission: %d %s", st, b)
	}
	var subs []int64
	for i, p := range []string{pathV1, pathV2} {
		var out struct {
			SubmissionID int64 `json:"submissionId"`
		}
		locked := [][]string{{"full_name"}, {"employer[0]", "employer[1]"}}[i] // the link's locked values stand
		if st, b := postPairs(t, s, p, jobPairs(2).without(locked...), nil, &out); st != 201 {
			t.Fatalf("submit %s: %d %s", p, st, b)
		}
		subs = append(subs, out.SubmissionID)
	}
	testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/archive", tok, nil, nil) // ARCHIVED still answers
	for i, id := range []string{idV1, idV2} {
		st, b := answersOf(id)
		_, want := testkit.Call(t, s, "GET", fmt.Sprintf("/collect/api/v1/forms/%s/submissions/%d/answers", f.ExternalID, subs[i]), tok, nil, nil)
		if st != 200 || string(b) != string(want) {
			t.Errorf("request %d answers: %d %s\nwant %s", i, st, b, want)
		}
	}
	if _, b := answersOf(idV2); !strings.Contains(string(b), `"value":"E1"`) {
		t.Errorf("v2 request answers lack the second locked instance: %s", b)
	}
	other := login(t, s, mustAddUser(t, s, mockserver.UserSpec{Name: "Other", NewCustomer: true}))
	if st, _ := testkit.Call(t, s, "GET", "/collect/api/v1/forms/"+f.ExternalID+"/requests/"+idV1+"/answers", other, nil, nil); st != 404 {
		t.Errorf("another customer read request answers: %d", st)
	}
}

func mustAddUser(t *testing.T, s *mockserver.Server, spec mockserver.UserSpec) mockserver.UserCredentials {
	t.Helper()
	c, err := s.AddUser(spec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPublicPageLanguage(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	tests := []struct{ lang, htmlLang, submit string }{
		{"EN", "en", "Submit"}, {"da", "da", "Indsend"}, {"De", "de", "Absenden"}, {"NO", "no", "Send inn"},
		{"xx", "en", "Submit"}, {"", "en", "Submit"},
	}
	for _, tc := range tests {
		def := testkit.JobApplication(2)
		def["language"] = tc.lang
		f := testkit.ActiveForm(t, s, tok, def)
		_, page := testkit.Do(t, s, testkit.NewReq(t, s, "GET", testkit.PublicPath(f)), nil)
		if !strings.Contains(string(page), `<html lang="`+tc.htmlLang+`">`) || !strings.Contains(string(page), `id="submit">`+tc.submit+`<`) {
			t.Errorf("language %q: page not in %s", tc.lang, tc.htmlLang)
		}
		if got := testkit.GetForm(t, s, tok, f.ExternalID); !strings.Contains(got, `"language":"`+tc.lang+`"`) {
			t.Errorf("language %q not given back as sent", tc.lang)
		}
	}
}
