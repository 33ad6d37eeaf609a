package vendorcheck

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

const sampleCollection = `{
  "info": {"name": "Sample"},
  "variable": [{"key": "baseUrl", "value": "https://example.invalid"}, {"key": "formId", "value": ""}],
  "item": [
    {"name": "1. Token", "request": {"method": "POST", "url": "{{baseUrl}}/token"}},
    {"name": "Folder", "item": [
      {"name": "Inner A", "request": {"method": "GET", "url": "{{baseUrl}}/a"}},
      {"name": "Sub", "item": [{"name": "Inner B", "request": {"method": "POST", "url": "{{baseUrl}}/b",
        "body": {"mode": "formdata", "formdata": [
          {"key": "data", "type": "text", "value": "{}"},
          {"key": "files", "type": "file", "src": []},
          {"key": "kept", "type": "file", "src": "/already/set.pdf"}]}}}]}
    ]},
    {"name": "Last", "request": {"method": "GET", "url": "{{baseUrl}}/last"}}
  ]
}`

func mustParse(t *testing.T) *Collection {
	t.Helper()
	c, err := ParseCollection([]byte(sampleCollection))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCollectionSelect(t *testing.T) {
	tests := []struct {
		names []string
		want  []string
	}{
		{[]string{"1. Token", "Last"}, []string{"1. Token", "Last"}},
		{[]string{"Folder"}, []string{"Inner A", "Inner B"}},
		{[]string{"Inner B"}, []string{"Inner B"}},
		{[]string{"Last", "Inner A"}, []string{"Inner A", "Last"}}, // the collection's order
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.names, "+"), func(t *testing.T) {
			c := mustParse(t)
			got, err := c.Select(tt.names...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.RequestNames(), tt.want) {
				t.Fatalf("RequestNames = %q, want %q", got.RequestNames(), tt.want)
			}
			if all := c.RequestNames(); len(all) != 4 {
				t.Fatalf("Select changed the original: %q", all)
			}
		})
	}
	if _, err := mustParse(t).Select("Inner A", "Nope"); !errors.Is(err, ErrNoSuchItem) {
		t.Fatalf("unknown name: err = %v, want ErrNoSuchItem", err)
	}
}

func TestCollectionVariablesAndFile(t *testing.T) {
	c := mustParse(t)
	c.SetVariables(map[string]string{"formId": "abc", "extra": "1"})
	vars := c.Variables()
	if vars["formId"] != "abc" || vars["extra"] != "1" || vars["baseUrl"] != "https://example.invalid" {
		t.Fatalf("variables = %v", vars)
	}
	if !c.HasVariable("extra") || c.HasVariable("nope") {
		t.Fatal("HasVariable is wrong")
	}
	if n := c.AttachFile("/tmp/contract.pdf"); n != 1 {
		t.Fatalf("AttachFile filled %d parts, want 1 (the empty src only)", n)
	}
	b, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"src": "/tmp/contract.pdf"`, `"src": "/already/set.pdf"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("marshalled collection lacks %s", want)
		}
	}
}

func TestParseCollectionRejects(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"info":{}}`, `{"item":{}}`} {
		if _, err := ParseCollection([]byte(in)); err == nil {
			t.Errorf("ParseCollection(%q) accepted it", in)
		}
	}
}

func TestParseReport(t *testing.T) {
	rep := `{"run":{"executions":[
	  {"item":{"name":"A"},"assertions":[{"assertion":"Status code is 200"},{"assertion":"Has id","error":{"message":"expected x"}},{"assertion":"skip","skipped":true}]},
	  {"item":{"name":"B"},"assertions":[]}],
	 "failures":[
	  {"at":"assertion:1 in test-script","source":{"name":"A"},"error":{"name":"AssertionError","test":"Has id","message":"expected x"}},
	  {"at":"prerequest-script","source":{"name":"B"},"error":{"name":"Error","message":"formId is not set"}}]}}`
	res, err := parseReport([]byte(rep))
	if err != nil {
		t.Fatal(err)
	}
	want := []Assertion{
		{Request: "A", Name: "Status code is 200", Passed: true},
		{Request: "A", Name: "Has id", Message: "expected x"},
		{Request: "B", Name: "prerequest-script", Message: "Error: formId is not set", Script: true},
	}
	if !slices.Equal(res.Assertions, want) {
		t.Fatalf("assertions = %+v, want %+v", res.Assertions, want)
	}
	if !slices.Equal(res.Requests, []string{"A", "B"}) {
		t.Fatalf("requests = %q", res.Requests)
	}
	if p, n := res.Tally(); p != 1 || n != 2 {
		t.Fatalf("Tally = %d/%d, want 1/2 (script errors are not assertions)", p, n)
	}
	if _, err := parseReport([]byte(`{`)); err == nil {
		t.Fatal("a broken report was accepted")
	}
}
