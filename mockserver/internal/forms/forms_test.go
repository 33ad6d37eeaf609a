package forms_test

import (
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

func TestFormStateTable(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	path := func(id, op string) string { return "/collect/api/v1/forms/" + id + op }

	// (none) → DRAFT: not public.
	f := testkit.CreateForm(t, s, tok, testkit.SampleForm())
	if f.Status != "DRAFT" || f.Version != 1 || f.ExternalID == "" || f.PublicURL != "" {
		t.Fatalf("create: %+v", f)
	}
	if _, err := testkit.Core(s).Forms.Submit(f.ExternalID, "", forms.NewSubmissionInput(testkit.ValidAnswers(), nil)); err == nil {
		t.Fatal("a DRAFT form accepted a submission")
	}
	// DRAFT → publish → ACTIVE with a public URL.
	var pub testkit.FormView
	if st, b := testkit.Call(t, s, "POST", path(f.ExternalID, "/publish"), tok, nil, &pub); st != 200 || pub.Status != "ACTIVE" ||
		pub.Version != 1 || !strings.HasSuffix(pub.PublicURL, "/public/forms/"+f.ExternalID) {
		t.Fatalf("publish: %d %s", st, b)
	}
	// ACTIVE → PUT → new DRAFT version 2, live version unchanged.
	v2 := testkit.EditedForm(func(m map[string]any) { m["name"] = "Membership v2" })
	var upd testkit.FormView
	if st, b := testkit.Call(t, s, "PUT", path(f.ExternalID, ""), tok, v2, &upd); st != 200 || upd.Status != "DRAFT" ||
		upd.Version != 2 || upd.Name != "Membership v2" || upd.ExternalID != f.ExternalID {
		t.Fatalf("update active: %d %s", st, b)
	}
	var got testkit.FormView
	testkit.Call(t, s, "GET", path(f.ExternalID, ""), tok, nil, &got)
	if got.Status != "ACTIVE" || got.Version != 1 || got.Name != "Membership" || got.DraftVersion != 2 || got.PublicURL == "" {
		t.Fatalf("live version changed by update: %+v", got)
	}
	sub1, err := testkit.Core(s).Forms.Submit(f.ExternalID, "", forms.NewSubmissionInput(testkit.ValidAnswers(), nil))
	if err != nil || sub1.VersionNumber() != 1 {
		t.Fatalf("live version 1 should keep serving: %v", err)
	}
	// publish again → version 2 live.
	got = testkit.FormView{}
	if st, b := testkit.Call(t, s, "POST", path(f.ExternalID, "/publish"), tok, nil, &got); st != 200 || got.Version != 2 ||
		got.Status != "ACTIVE" || got.Name != "Membership v2" || got.DraftVersion != 0 {
		t.Fatalf("republish: %d %s", st, b)
	}
	// ACTIVE → archive → ARCHIVED: public URL dead, old submissions stay.
	got = testkit.FormView{}
	if st, b := testkit.Call(t, s, "POST", path(f.ExternalID, "/archive"), tok, nil, &got); st != 200 || got.Status != "ARCHIVED" || got.PublicURL != "" {
		t.Fatalf("archive: %d %s", st, b)
	}
	if _, err := testkit.Core(s).Forms.Submit(f.ExternalID, "", forms.NewSubmissionInput(testkit.ValidAnswers(), nil)); err == nil {
		t.Fatal("an ARCHIVED form accepted a submission")
	}
	var list struct {
		Items []forms.SubmissionJSON `json:"items"`
		Total int                    `json:"total"`
	}
	if st, _ := testkit.Call(t, s, "GET", path(f.ExternalID, "/submissions"), tok, nil, &list); st != 200 || list.Total != 1 || list.Items[0].SubmissionID != sub1.ID() {
		t.Fatalf("submissions after archive: %d %+v", st, list)
	}
}

func TestFormUnlistedMovesConflict(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	draft := testkit.CreateForm(t, s, tok, testkit.SampleForm()).ExternalID
	active := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	archived := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	if st, _ := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+archived+"/archive", tok, nil, nil); st != 200 {
		t.Fatal("archive")
	}
	prefill := map[string]any{"answers": map[string]any{"email": map[string]any{"value": "a@b.co"}}}
	tests := []struct {
		name, method, id, op string
		body                 any
		state                string
	}{
		{"publish ACTIVE without draft", "POST", active, "/publish", nil, "ACTIVE"},
		{"archive ARCHIVED", "POST", archived, "/archive", nil, "ARCHIVED"},
		{"publish ARCHIVED", "POST", archived, "/publish", nil, "ARCHIVED"},
		{"update ARCHIVED", "PUT", archived, "", testkit.SampleForm(), "ARCHIVED"},
		{"prefill DRAFT", "POST", draft, "/requests", prefill, "DRAFT"},
		{"prefill ARCHIVED", "POST", archived, "/requests", prefill, "ARCHIVED"},
	}
	for _, tc := range tests {
		before := testkit.GetForm(t, s, tok, tc.id)
		var e testkit.APIError
		st, b := testkit.Call(t, s, tc.method, "/collect/api/v1/forms/"+tc.id+tc.op, tok, tc.body, &e)
		if st != 409 || e.Error != "conflict" || !strings.Contains(e.Message, tc.state) {
			t.Errorf("%s: %d %s, want 409 naming %s", tc.name, st, b, tc.state)
		}
		if after := testkit.GetForm(t, s, tok, tc.id); after != before {
			t.Errorf("%s: form changed:\n%s\n%s", tc.name, before, after)
		}
	}
}

func TestFormUpdateInDraftKeepsVersion(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	f := testkit.CreateForm(t, s, tok, testkit.SampleForm())
	var upd testkit.FormView
	if st, b := testkit.Call(t, s, "PUT", "/collect/api/v1/forms/"+f.ExternalID, tok, testkit.EditedForm(func(m map[string]any) { m["name"] = "X" }), &upd); st != 200 ||
		upd.Version != 1 || upd.Status != "DRAFT" || upd.Name != "X" {
		t.Fatalf("update draft: %d %s", st, b)
	}
}

func TestFormValidation(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	existing := testkit.CreateForm(t, s, tok, testkit.SampleForm()).ExternalID
	rule := func(field string) map[string]any {
		return map[string]any{"rules": []any{map[string]any{"field": field, "operator": "EQUALS", "value": "x"}}}
	}
	tests := []struct {
		name   string
		edit   func(m map[string]any)
		fields []string
	}{
		{"missing field name", func(m map[string]any) { delete(testkit.FieldOf(m, 0, 2), "name") }, []string{"sections[0].fields[2].name"}},
		{"duplicate field name", func(m map[string]any) { testkit.FieldOf(m, 1, 1)["name"] = "email" }, []string{"sections[1].fields[1].name"}},
		{"no type", func(m map[string]any) { delete(testkit.FieldOf(m, 0, 2), "type") }, []string{"sections[0].fields[2].type"}},
		{"unknown mapTo", func(m map[string]any) { testkit.FieldOf(m, 0, 2)["mapTo"] = "secondSigner.name" }, []string{"sections[0].fields[2].mapTo"}},
		{".email mapTo not EMAIL", func(m map[string]any) { testkit.FieldOf(m, 0, 1)["type"] = "TEXT" }, []string{"sections[0].fields[1].mapTo"}},
		{"condition on later field", func(m map[string]any) { testkit.FieldOf(m, 0, 2)["condition"] = rule("hasCompany") }, []string{"sections[0].fields[2].condition.rules[0].field"}},
		{"condition on unknown field", func(m map[string]any) { testkit.FieldOf(m, 0, 2)["condition"] = rule("nope") }, []string{"sections[0].fields[2].condition.rules[0].field"}},
		{"section condition on own field", func(m map[string]any) {
			m["sections"].([]any)[1].(map[string]any)["condition"] = rule("companyName")
		}, []string{"sections[1].condition.rules[0].field"}},
		{"condition operator", func(m map[string]any) {
			testkit.FieldOf(m, 0, 4)["condition"].(map[string]any)["rules"].([]any)[0].(map[string]any)["operator"] = "CONTAINS"
		}, []string{"sections[0].fields[4].condition.rules[0].operator"}},
		{"empty condition", func(m map[string]any) { testkit.FieldOf(m, 0, 4)["condition"] = map[string]any{"rules": []any{}} }, []string{"sections[0].fields[4].condition.rules"}},
		{"merge field of same section", func(m map[string]any) { testkit.FieldOf(m, 2, 0)["content"] = "{{attachment}}" }, []string{"sections[2].fields[0].content"}},
		{"merge field unknown", func(m map[string]any) { testkit.FieldOf(m, 2, 0)["content"] = "{{nobody}}" }, []string{"sections[2].fields[0].content"}},
		{"title template merge field", func(m map[string]any) { m["caseFileTitleTemplate"] = "{{fullName}}" }, []string{"caseFileTitleTemplate"}},
		{"choice without options", func(m map[string]any) { delete(testkit.FieldOf(m, 0, 3), "options") }, []string{"sections[0].fields[3].options"}},
		{"two wire.Problems, two details", func(m map[string]any) {
			testkit.FieldOf(m, 0, 2)["type"] = ""
			m["caseFileTitleTemplate"] = "{{x}}"
		}, []string{"caseFileTitleTemplate", "sections[0].fields[2].type"}},
	}
	for _, tc := range tests {
		before, n := testkit.GetForm(t, s, tok, existing), s.Stats().Forms
		def := testkit.EditedForm(tc.edit)
		for _, op := range []struct{ method, path string }{{"POST", "/collect/api/v1/forms"}, {"PUT", "/collect/api/v1/forms/" + existing}} {
			var e testkit.APIError
			st, b := testkit.Call(t, s, op.method, op.path, tok, def, &e)
			var got []string
			for _, d := range e.Details {
				got = append(got, d.Field)
				if d.Message == "" {
					t.Errorf("%s: empty message in %s", tc.name, b)
				}
			}
			if st != 422 || e.Error != "validation_failed" || strings.Join(got, ",") != strings.Join(tc.fields, ",") {
				t.Errorf("%s %s: %d %s, want 422 with details %v", tc.name, op.method, st, b, tc.fields)
			}
		}
		if s.Stats().Forms != n || testkit.GetForm(t, s, tok, existing) != before {
			t.Errorf("%s: something was stored or changed", tc.name)
		}
	}
	if st, _ := testkit.Call(t, s, "POST", "/collect/api/v1/forms", tok, "not an object", nil); st != 400 {
		t.Errorf("malformed body: %d, want 400", st)
	}
}

func TestPrefillRequests(t *testing.T) {
	t.Parallel()
	s, tok := newManual(t)
	id := testkit.ActiveForm(t, s, tok, testkit.SampleForm()).ExternalID
	tests := []struct {
		name    string
		answers map[string]any
		status  int
		fields  []string
	}{
		{"valid", map[string]any{"email": map[string]any{"value": "ann@example.com", "editable": false},
			"fullName": map[string]any{"value": "Ann", "editable": true}}, 200, nil},
		{"unknown key", map[string]any{"mail": map[string]any{"value": "x"}}, 422, []string{"answers.mail"}},
		{"HTML field", map[string]any{"summary": map[string]any{"value": "x"}}, 422, []string{"answers.summary"}},
		{"FILE field", map[string]any{"attachment": map[string]any{"value": "x"}}, 422, []string{"answers.attachment"}},
		{"bad email", map[string]any{"email": map[string]any{"value": "nope"}}, 422, []string{"answers.email"}},
		{"bad choice", map[string]any{"hasCompany": map[string]any{"value": "maybe"}}, 422, []string{"answers.hasCompany"}},
		{"missing answers", nil, 422, []string{"answers"}},
	}
	for _, tc := range tests {
		n := s.Stats().PrefillRequests
		var out prefillAnswer
		body := map[string]any{}
		if tc.answers != nil {
			body["answers"] = tc.answers
		}
		st, b := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+id+"/requests", tok, body, &out)
		var got []string
		for _, d := range out.Details {
			got = append(got, d.Field)
		}
		if st != tc.status || strings.Join(got, ",") != strings.Join(tc.fields, ",") {
			t.Errorf("%s: %d %s", tc.name, st, b)
		}
		after := s.Stats().PrefillRequests
		added := after - n
		if want := map[bool]int{true: 1, false: 0}[st == 200]; added != want {
			t.Errorf("%s: %d requests stored", tc.name, added)
		}
		if st == 200 && !strings.HasSuffix(out.RequestURL, "/public/forms/"+id+"/requests/"+out.RequestID) {
			t.Errorf("%s: request URL %q", tc.name, out.RequestURL)
		}
	}
}
