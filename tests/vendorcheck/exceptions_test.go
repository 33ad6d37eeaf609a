package vendorcheck

import (
	"errors"
	"slices"
	"testing"
)

func TestParseExceptions(t *testing.T) {
	md := "# Title\n\nSome text | with a pipe.\n\n" +
		"| Collection | Request | Assertion | Reason |\n|---|:--|---|---|\n" +
		"| Penneo API | `5. Get Document` | Response is a PDF | offline \\| no CDN |\n" +
		"| Penneo Webhooks | 2. Create | Status code is 201 | the spec governs |\n\nAfter.\n| not | a | table | row |\n"
	got, err := ParseExceptions([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	want := []Exception{
		{"Penneo API", "5. Get Document", "Response is a PDF", "offline | no CDN"},
		{"Penneo Webhooks", "2. Create", "Status code is 201", "the spec governs"},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	header := "| Collection | Request | Assertion | Reason |\n|---|---|---|---|\n"
	bad := map[string]string{
		"no table":       "just text\n",
		"three cells":    header + "| a | b | c |\n",
		"empty reason":   header + "| a | b | c |  |\n",
		"listed twice":   header + "| a | b | c | d |\n| a | b | c | e |\n",
		"wrong header":   "| Collection | Request | Reason |\n|---|---|---|\n",
		"empty key cell": header + "| a |  | c | d |\n",
	}
	for name, in := range bad {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseExceptions([]byte(in)); !errors.Is(err, ErrExceptionsFormat) {
				t.Fatalf("err = %v, want ErrExceptionsFormat", err)
			}
		})
	}
	if _, err := ParseExceptions([]byte(header)); err != nil {
		t.Fatalf("an empty table: %v", err)
	}
}

func TestJudge(t *testing.T) {
	res := &Result{Label: "C", Assertions: []Assertion{
		{Request: "R1", Name: "ok", Passed: true},
		{Request: "R1", Name: "listed", Message: "m"},
		{Request: "R2", Name: "unlisted", Message: "m"},
		{Request: "R3", Name: "now passes", Passed: true},
	}}
	exc := []Exception{
		{"C", "R1", "listed", "why"},
		{"C", "R3", "now passes", "why"},
		{"C", "R9", "never ran", "why"},
		{"Other", "R2", "unlisted", "another collection"},
	}
	v := Judge(res, exc)
	if len(v.Unexpected) != 1 || v.Unexpected[0].Name != "unlisted" {
		t.Errorf("Unexpected = %+v", v.Unexpected)
	}
	if len(v.Excused) != 1 || v.Excused[0].Name != "listed" {
		t.Errorf("Excused = %+v", v.Excused)
	}
	var stale []string
	for _, e := range v.Stale {
		stale = append(stale, e.Assertion)
	}
	if !slices.Equal(stale, []string{"now passes", "never ran"}) {
		t.Errorf("Stale = %q", stale)
	}
}

func TestRedact(t *testing.T) {
	vars := map[string]string{"accessToken": "tok-123456", "apiSecret": "sec-abcdef", "formId": "form-1", "digest": "ab"}
	got := Redact("expected tok-123456 and sec-abcdef for form-1 ab", vars)
	if want := "expected [redacted] and [redacted] for form-1 ab"; got != want {
		t.Fatalf("Redact = %q, want %q", got, want)
	}
}
