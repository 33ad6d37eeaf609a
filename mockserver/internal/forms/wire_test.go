package forms_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// rawForm answers the decoded JSON answer of a call.
func rawForm(t *testing.T, s *mockserver.Server, method, path, tok string, body any, want int) map[string]any {
	t.Helper()
	var m map[string]any
	if st, b := testkit.Call(t, s, method, path, tok, body, &m); st != want {
		t.Fatalf("%s %s: %d %s, want %d", method, path, st, b, want)
	}
	return m
}

// TestFormPropertiesRoundTrip: every property is given back as sent, by
// create and by GET, and GET → PUT → GET loses nothing.
func TestFormPropertiesRoundTrip(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	def := testkit.JobApplication(5)
	secs := def["sections"].([]any)
	f0 := secs[0].(map[string]any)["fields"].([]any)
	f0[1].(map[string]any)["condition"] = nil
	extra := []any{
		map[string]any{"name": "kind", "label": "Kind", "type": "CHOICE", "layout": "RADIO", "required": true,
			"options": []any{map[string]any{"label": "A", "value": "a"}, map[string]any{"label": "B", "value": "b"}}},
		map[string]any{"name": "notes", "label": "Notes", "type": "TEXT", "multiline": false},
		map[string]any{"name": "alias", "label": "Alias phone", "type": "PHONE", "countryOptions": []any{"NO"},
			"condition": map[string]any{"rules": []any{map[string]any{"field": "kind", "operator": "EQUALS", "value": "a"}}}},
	}
	secs[0].(map[string]any)["fields"] = append(f0, extra...)
	delete(f0[1].(map[string]any), "condition")
	created := rawForm(t, s, "POST", "/collect/api/v1/forms", tok, def, 201)
	id, _ := created["formId"].(string)
	if id == "" || created["externalId"] != id {
		t.Fatalf("formId %v and externalId %v must be the same non-empty id", created["formId"], created["externalId"])
	}
	got := rawForm(t, s, "GET", "/collect/api/v1/forms/"+id, tok, nil, 200)
	// What was sent comes back, but for the filled-in slug and the alias.
	want := testkit.Edited(def, func(m map[string]any) {
		m["sections"].([]any)[2].(map[string]any)["slug"] = "summary"
		alias := m["sections"].([]any)[0].(map[string]any)["fields"].([]any)[5].(map[string]any)
		alias["countryCodes"] = alias["countryOptions"]
		delete(alias, "countryOptions")
	})
	for _, k := range []string{"name", "language", "description", "caseFileTitleTemplate"} {
		if got[k] != want[k] {
			t.Errorf("%s: got %v, want %v", k, got[k], want[k])
		}
	}
	if got["language"] != "EN" {
		t.Errorf("language not given back as sent: %v", got["language"])
	}
	assertSubset(t, "sections", want["sections"], got["sections"])
	// GET → PUT → GET loses nothing.
	upd := rawForm(t, s, "PUT", "/collect/api/v1/forms/"+id, tok, got, 200)
	again := rawForm(t, s, "GET", "/collect/api/v1/forms/"+id, tok, nil, 200)
	if !reflect.DeepEqual(again["sections"], got["sections"]) || !reflect.DeepEqual(upd["sections"], got["sections"]) {
		t.Errorf("round trip changed the sections:\n%v\n%v", got["sections"], again["sections"])
	}
}

// assertSubset checks that every key of want (recursively) is in got with
// the same value; got may hold more (defaults such as "required": false).
func assertSubset(t *testing.T, path string, want, got any) {
	t.Helper()
	b, _ := json.Marshal(want)
	var w any
	_ = json.Unmarshal(b, &w)
	switch wv := w.(type) {
	case map[string]any:
		gv, ok := got.(map[string]any)
		if !ok {
			t.Errorf("%s: got %v, want an object", path, got)
			return
		}
		for k, v := range wv {
			assertSubset(t, path+"."+k, v, gv[k])
		}
	case []any:
		gv, ok := got.([]any)
		if !ok || len(gv) != len(wv) {
			t.Errorf("%s: got %v, want %d items", path, got, len(wv))
			return
		}
		for i := range wv {
			assertSubset(t, path+"["+string(rune('0'+i))+"]", wv[i], gv[i])
		}
	default:
		if !reflect.DeepEqual(w, got) {
			t.Errorf("%s: got %v, want %v", path, got, w)
		}
	}
}

func TestFormSlugsFromTitles(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	tests := []struct {
		name   string
		titles []any // a string title, or a map with slug and title
		want   []string
	}{
		{"words joined", []any{"Personal Details"}, []string{"personal-details"}},
		{"punctuation and case", []any{"  Loan -- Details (DKK)!"}, []string{"loan-details-dkk"}},
		{"unique within the form", []any{"About you", "About You", "about-you"}, []string{"about-you", "about-you-2", "about-you-3"}},
		{"explicit slug kept and avoided", []any{"Terms", map[string]any{"slug": "terms", "title": "X"}}, []string{"terms-2", "terms"}},
		{"no title", []any{"", ""}, []string{"section", "section-2"}},
		{"letters beyond ASCII", []any{"Første side"}, []string{"første-side"}},
	}
	for _, tc := range tests {
		var secs []any
		for i, tt := range tc.titles {
			sec, ok := tt.(map[string]any)
			if !ok {
				sec = map[string]any{"title": tt}
			}
			sec["fields"] = []any{map[string]any{"name": "f" + string(rune('a'+i)), "type": "TEXT"}}
			secs = append(secs, sec)
		}
		var out struct {
			Sections []struct{ Slug string } `json:"sections"`
		}
		st, b := testkit.Call(t, s, "POST", "/collect/api/v1/forms", tok, map[string]any{"name": "n", "sections": secs}, &out)
		var got []string
		for _, sec := range out.Sections {
			got = append(got, sec.Slug)
		}
		if st != 201 || strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: %d %s, want slugs %v", tc.name, st, b, tc.want)
		}
	}
}

func TestFormPublishInTheSameCall(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	draft := testkit.CreateForm(t, s, tok, testkit.SampleForm()).ExternalID
	active := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	renamed := testkit.EditedForm(func(m map[string]any) { m["name"] = "Renamed" })
	tests := []struct {
		name, method, path string
		status, version    int
		wantName           string
	}{
		{"create", "POST", "/collect/api/v1/forms?publish=true", 201, 1, "Membership"},
		{"update a draft", "PUT", "/collect/api/v1/forms/" + draft + "?publish=true", 200, 1, "Renamed"},
		{"update an active form", "PUT", "/collect/api/v1/forms/" + active + "?publish=true", 200, 2, "Renamed"},
	}
	for _, tc := range tests {
		body := testkit.SampleForm()
		if tc.method == "PUT" {
			body = renamed
		}
		var f testkit.FormView
		st, b := testkit.Call(t, s, tc.method, tc.path, tok, body, &f)
		if st != tc.status || f.Status != "ACTIVE" || f.Version != tc.version || f.Name != tc.wantName ||
			f.DraftVersion != 0 || !strings.HasSuffix(f.PublicURL, "/public/forms/"+f.ExternalID) {
			t.Errorf("%s: %d %s", tc.name, st, b)
			continue
		}
		if st, _ := testkit.Do(t, s, testkit.NewReq(t, s, "GET", testkit.PublicPath(f)), nil); st != 200 {
			t.Errorf("%s: public page %d", tc.name, st)
		}
	}
	n := s.Stats().Forms
	for _, p := range []string{"/collect/api/v1/forms?publish=maybe", "/collect/api/v1/forms?publish="} {
		st, b := testkit.Call(t, s, "POST", p, tok, testkit.SampleForm(), nil)
		if (p[len(p)-1] == '=') != (st == 201) || (st != 201 && st != 422) {
			t.Errorf("%s: %d %s", p, st, b)
		}
	}
	if s.Stats().Forms != n+1 {
		t.Errorf("a refused ?publish stored a form: %d forms, want %d", s.Stats().Forms, n+1)
	}
	before := testkit.GetForm(t, s, tok, draft)
	if st, _ := testkit.Call(t, s, "PUT", "/collect/api/v1/forms/"+draft+"?publish=yes!", tok, testkit.SampleForm(), nil); st != 422 || testkit.GetForm(t, s, tok, draft) != before {
		t.Errorf("bad ?publish on update: %d, or the form changed", st)
	}
}

func TestFormArchiveFromDraft(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.CreateForm(t, s, tok, testkit.SampleForm())
	var got testkit.FormView
	if st, b := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/archive", tok, nil, &got); st != 200 ||
		got.Status != "ARCHIVED" || got.PublicURL != "" || got.Name != "Membership" || len(got.Sections) != 3 {
		t.Fatalf("archive a draft: %d %s", st, b)
	}
	if !strings.Contains(testkit.GetForm(t, s, tok, f.ExternalID), `"status":"ARCHIVED"`) {
		t.Error("GET does not show the archived draft")
	}
	for _, op := range []string{"/publish", "/archive"} {
		if st, _ := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+op, tok, nil, nil); st != 409 {
			t.Errorf("%s of an archived draft: %d, want 409", op, st)
		}
	}
	if st, _ := testkit.Do(t, s, testkit.NewReq(t, s, "GET", "/public/forms/"+f.ExternalID), nil); st != 404 {
		t.Errorf("public page of an archived draft: %d", st)
	}
}

func TestFormMultiEntryAndMergeValidation(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	field := func(m map[string]any, si, fi int) map[string]any {
		return m["sections"].([]any)[si].(map[string]any)["fields"].([]any)[fi].(map[string]any)
	}
	section := func(m map[string]any, si int) map[string]any { return m["sections"].([]any)[si].(map[string]any) }
	rule := func(f string) map[string]any {
		return map[string]any{"rules": []any{map[string]any{"field": f, "operator": "EQUALS", "value": "x"}}}
	}
	tests := []struct {
		name   string
		edit   func(m map[string]any)
		fields []string
	}{
		{"valid", func(map[string]any) {}, nil},
		{"section max 0", func(m map[string]any) { section(m, 1)["multipleEntries"] = map[string]any{"max": 0} }, []string{"sections[1].multipleEntries.max"}},
		{"section max over the bound", func(m map[string]any) { section(m, 1)["multipleEntries"] = map[string]any{"max": forms.MaxEntries + 1} }, []string{"sections[1].multipleEntries.max"}},
		{"field max 0", func(m map[string]any) { field(m, 0, 2)["multipleEntries"] = map[string]any{"max": 0} }, []string{"sections[0].fields[2].multipleEntries.max"}},
		{"multi-entry FILE field", func(m map[string]any) { field(m, 1, 2)["multipleEntries"] = map[string]any{"max": 2} }, []string{"sections[1].fields[2].multipleEntries"}},
		{"multi-entry field in a multi-entry section", func(m map[string]any) { field(m, 1, 0)["multipleEntries"] = map[string]any{"max": 2} }, []string{"sections[1].fields[0].multipleEntries"}},
		{"condition on a multi-entry field", func(m map[string]any) { section(m, 2)["condition"] = rule("phone_numbers") }, []string{"sections[2].condition.rules[0].field"}},
		{"condition on a field of a multi-entry section", func(m map[string]any) { section(m, 2)["condition"] = rule("employer") }, []string{"sections[2].condition.rules[0].field"}},
		{"condition on a sibling in a multi-entry section", func(m map[string]any) { field(m, 1, 1)["condition"] = rule("employer") }, []string{"sections[1].fields[1].condition.rules[0].field"}},
		{"unknown layout", func(m map[string]any) { field(m, 0, 0)["layout"] = "GRID" }, []string{"sections[0].fields[0].layout"}},
		{"merge field not required", func(m map[string]any) { field(m, 0, 0)["required"] = false }, []string{"sections[2].fields[0].content"}},
		{"merge field conditional", func(m map[string]any) {
			field(m, 0, 1)["condition"] = rule("full_name")
			field(m, 2, 0)["content"] = "<p>{{email_address}}</p>"
		}, []string{"sections[2].fields[0].content"}},
		{"non-HTML field without name", func(m map[string]any) { delete(field(m, 1, 1), "name") }, []string{"sections[1].fields[1].name"}},
		{"bracket in a name", func(m map[string]any) { field(m, 1, 1)["name"] = "job[0]" }, []string{"sections[1].fields[1].name"}},
	}
	for _, tc := range tests {
		n := s.Stats().Forms
		var e testkit.APIError
		st, b := testkit.Call(t, s, "POST", "/collect/api/v1/forms", tok, testkit.Edited(testkit.JobApplication(5), tc.edit), &e)
		var got []string
		for _, d := range e.Details {
			got = append(got, d.Field)
		}
		wantStatus := map[bool]int{true: 201, false: 422}[tc.fields == nil]
		if st != wantStatus || strings.Join(got, ",") != strings.Join(tc.fields, ",") {
			t.Errorf("%s: %d %s, want %d %v", tc.name, st, b, wantStatus, tc.fields)
		}
		if added := s.Stats().Forms - n; added != map[bool]int{true: 1, false: 0}[st == 201] {
			t.Errorf("%s: %d forms stored", tc.name, added)
		}
	}
}
