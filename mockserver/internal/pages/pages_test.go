package pages

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

// TestEveryLanguageHasEveryText keeps a new text from being left out of a
// language: every field of every Text is set, and the formats take one %s.
func TestEveryLanguageHasEveryText(t *testing.T) {
	for _, lang := range []string{"en", "da", "sv", "nl", "fr", "fi", "no", "de"} {
		tx := texts[lang]
		if tx == nil {
			t.Fatalf("no texts for %s", lang)
		}
		v := reflect.ValueOf(*tx)
		for i := range v.NumField() {
			name, s := v.Type().Field(i).Name, v.Field(i).String()
			if s == "" {
				t.Errorf("%s: %s is empty", lang, name)
			}
			if strings.HasSuffix(name, "F") && strings.Count(s, "%s") != 1 {
				t.Errorf("%s: %s = %q, want one %%s", lang, name, s)
			}
		}
	}
	if len(texts) != 8 {
		t.Errorf("%d languages, want the platform's 8", len(texts))
	}
}

func TestLanguage(t *testing.T) {
	for in, want := range map[string]string{"EN": "en", " da ": "da", "De": "de", "xx": "en", "": "en"} {
		if got, tx := Language(in); got != want || tx != texts[want] {
			t.Errorf("Language(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestWriteMessageIsAnHTMLPage(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := WriteMessage(rec, 404, Message{Lang: "da", Title: "Linket findes ikke", Message: "<b>x</b>"}); err != nil {
		t.Fatal(err)
	}
	body := rec.Body.String()
	for _, want := range []string{`<html lang="da">`, `name="viewport"`, "<title>Linket findes ikke</title>", "&lt;b&gt;x&lt;/b&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q:\n%s", want, body)
		}
	}
	if rec.Code != 404 || rec.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("status %d, type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
}
