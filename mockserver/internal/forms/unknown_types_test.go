package forms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
)

// builderForm is a form as the vendor's form builder makes it: field types the
// mock does not know and members it does not model at every level
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
// The HTML field shows the NIN answer, and the type of the third field is
// markup, which the page must escape. The second field's last modelled member
// is an object (validations), after which its unknown members are written.
const builderForm = `{"name":"KYC","storageFolderId":42,"theme":{"accent":"#0a0"},
 "sections":[{"slug":"id","title":"Identity","layoutColumns":2,"fields":[
  {"name":"cpr","label":"CPR","type":"NIN","required":true,"mask":"######-####"},
  {"name":"cvr","label":"CVR","type":"BUSINESS_ID","country":"DK","validations":{"minLength":8}},
  {"name":"odd","label":"Odd","type":"A\"<b>x","required":true}]},
 {"slug":"review","title":"Review","fields":[{"type":"HTML","content":"<p>{{cpr}} {{odd}}</p>"}]}]}`

// formsService answers a service with no limits and the user its handlers
// serve.
func formsService(t *testing.T) (*Service, *auth.User) {
	t.Helper()
	c := clock.New(true, time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	t.Cleanup(c.Close)
	none := func(int64) error { return nil }
	s := New(Config{Clock: c, MaxBodyBytes: 1 << 20, MaxFileBytes: 1 << 20, CaseFiles: &addedCaseFiles{},
		Limits: Limits{TakeForm: none, TakePrefill: none, TakeSubmission: none, Versions: -1}})
	return s, &auth.User{ID: 1, CustomerID: 1}
}

// serve runs a handler on a request as u, with the path values given.
func serve(t *testing.T, h func(http.ResponseWriter, *http.Request) error, r *http.Request, u *auth.User,
	path map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r = r.WithContext(auth.With(r.Context(), u))
	for k, v := range path {
		r.SetPathValue(k, v)
	}
	w := httptest.NewRecorder()
	if err := h(w, r); err != nil {
		t.Fatalf("%s %s: %v", r.Method, r.URL, err)
	}
	return w
}

// TestUnknownTypesAndMembersAreKept: a form with unknown field types and
// unknown members is created (201), given back as sent on create, get and
// update, shown with a text input per unknown type, and answered as text.
func TestUnknownTypesAndMembersAreKept(t *testing.T) {
	t.Parallel()
	s, u := formsService(t)
	post := httptest.NewRequest(http.MethodPost, "http://mock/collect/api/v1/forms?publish=true", strings.NewReader(builderForm))
	post.Header.Set("Content-Type", "application/json")
	w := serve(t, s.HandleCreateForm, post, u, nil)
	if w.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	var created map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &created); err != nil {
		t.Fatal(err)
	}
	id := created["formId"].(string)
	keptAsSent(t, "create", w.Body.Bytes())

	get := serve(t, s.HandleGetForm, httptest.NewRequest(http.MethodGet, "http://mock/collect/api/v1/forms/"+id, nil), u,
		map[string]string{"externalId": id})
	keptAsSent(t, "get", get.Body.Bytes())

	put := httptest.NewRequest(http.MethodPut, "http://mock/collect/api/v1/forms/"+id, bytes.NewReader(get.Body.Bytes()))
	put.Header.Set("Content-Type", "application/json")
	upd := serve(t, s.HandleUpdateForm, put, u, map[string]string{"externalId": id})
	if upd.Code != http.StatusOK {
		t.Fatalf("update with the form as got: %d %s", upd.Code, upd.Body)
	}
	keptAsSent(t, "update", upd.Body.Bytes())

	page := serve(t, s.HandlePublicPage, httptest.NewRequest(http.MethodGet, "http://mock/public/forms/"+id, nil), u,
		map[string]string{"externalId": id}).Body.String()
	for _, name := range []string{"cpr", "cvr", "odd"} {
		if !regexp.MustCompile(`<input [^>]*type="text" name="` + name + `"[^>]*>`).MatchString(page) {
			t.Errorf("no text input named %s on the page:\n%s", name, page)
		}
	}
	if strings.Contains(page, `A"<b>x`) || !strings.Contains(page, `data-merge-type="A&#34;&lt;b&gt;x"`) {
		t.Errorf("the type of field odd is not escaped on the page:\n%s", page)
	}

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range map[string]string{"cpr": "010190-1234", "cvr": "DK12345678", "odd": "x"} {
		_ = mw.WriteField(k, v)
	}
	_ = mw.Close()
	sub := httptest.NewRequest(http.MethodPost, "http://mock/public/forms/"+id, &body)
	sub.Header.Set("Content-Type", mw.FormDataContentType())
	sub.Header.Set("Accept", "application/json")
	if w := serve(t, s.HandlePublicSubmit, sub, u, map[string]string{"externalId": id}); w.Code != http.StatusCreated {
		t.Fatalf("submit: %d %s", w.Code, w.Body)
	}
	s.forms.mu.Lock()
	answers, _ := json.Marshal(s.forms.forms[id].subs[0].answers(id))
	s.forms.mu.Unlock()
	for _, want := range []string{`{"name":"cpr","label":"CPR","type":"NIN","value":"010190-1234"}`,
		`{"name":"cvr","label":"CVR","type":"BUSINESS_ID","value":"DK12345678"}`} {
		if !strings.Contains(string(answers), want) {
			t.Errorf("answers %s: want %s", answers, want)
		}
	}
}

// keptAsSent checks that a form as answered holds builderForm's unknown
// types and members as sent, and the modelled members once.
func keptAsSent(t *testing.T, step string, answer []byte) {
	t.Helper()
	var got struct {
		StorageFolderID json.RawMessage `json:"storageFolderId"`
		Theme           json.RawMessage `json:"theme"`
		Sections        []map[string]json.RawMessage
	}
	if err := json.Unmarshal(answer, &got); err != nil || len(got.Sections) != 2 {
		t.Fatalf("%s: %s (%v)", step, answer, err)
	}
	var fields []map[string]any
	_ = json.Unmarshal(got.Sections[0]["fields"], &fields)
	ok := string(got.StorageFolderID) == `42` && string(got.Theme) == `{"accent":"#0a0"}` &&
		string(got.Sections[0]["layoutColumns"]) == `2` && len(fields) == 3 &&
		fields[0]["type"] == "NIN" && fields[0]["mask"] == "######-####" &&
		fields[1]["type"] == "BUSINESS_ID" && fields[1]["country"] == "DK" && fields[2]["type"] == `A"<b>x` &&
		fmt.Sprint(fields[1]["validations"]) == "map[minLength:8]"
	if !ok {
		t.Errorf("%s answered %s: unknown types or members lost", step, answer)
	}
	if n := bytes.Count(answer, []byte(`"name":"KYC"`)); n != 1 {
		t.Errorf("%s: name given %d times in %s", step, n, answer)
	}
}

// TestUnknownMembersNeverShadowModelled: a member the mock models is never
// kept as an unknown one, whatever its case (encoding/json reads "Name" into
// name), and an empty type is still refused.
func TestUnknownMembersNeverShadowModelled(t *testing.T) {
	t.Parallel()
	var def formJSON
	if err := json.Unmarshal([]byte(`{"Name":"A","STATUS":"X","formId":"f","extra":1,
		"sections":[{"Slug":"s","fields":[{"NAME":"a","type":"NIN","countryOptions":["DK"],"hint":"h"}]}]}`), &def); err != nil {
		t.Fatal(err)
	}
	if len(def.Extra) != 1 || string(def.Extra["extra"]) != `1` || def.Sections[0].Extra != nil ||
		len(def.Sections[0].Fields[0].Extra) != 1 || def.Name != "A" {
		t.Fatalf("extra %v, section %v, field %v", def.Extra, def.Sections[0].Extra, def.Sections[0].Fields[0].Extra)
	}
	def.Extra["name"] = json.RawMessage(`"B"`) // set by hand: never written over the modelled name
	b, err := json.Marshal(def)
	if err != nil || bytes.Count(b, []byte(`"name"`)) != 2 || !bytes.Contains(b, []byte(`"name":"A"`)) ||
		!bytes.Contains(b, []byte(`"extra":1`)) || !bytes.Contains(b, []byte(`"hint":"h"`)) {
		t.Errorf("encoded %s (%v)", b, err)
	}
	p := validateForm(&formJSON{Name: "n", Sections: []sectionJSON{{Slug: "s", Fields: []fieldJSON{{Name: "a"}}}}})
	if len(p) != 1 || p[0].Field != "sections[0].fields[0].type" {
		t.Errorf("empty type: %v", p)
	}
}
