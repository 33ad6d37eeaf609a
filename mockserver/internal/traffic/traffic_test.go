package traffic

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRecordKeepsExchangesWithoutSecrets(t *testing.T) {
	dir := t.TempDir()
	h := Record(dir, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/drop" {
			w.(interface{ MarkDropped() }).MarkDropped()
			return
		}
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	for _, c := range []struct{ path, ctype, body string }{
		{"/a?x=1", "application/json", `{"name":"n"}`},
		{"/b", "multipart/form-data; boundary=z", "--z--"},
		{"/drop", "", ""},
	} {
		req := httptest.NewRequest(http.MethodPost, c.path, strings.NewReader(c.body))
		if c.ctype != "" {
			req.Header.Set("Content-Type", c.ctype)
		}
		req.Header.Set("Authorization", "Bearer s3cret-token")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("recorded %d exchanges, want 2 (the dropped one has no answer): %+v", len(got), got)
	}
	a, b := got[0], got[1]
	if a.Path != "/a" || a.RawQuery != "x=1" || a.Body != `{"name":"n"}` || !a.BodyKept ||
		a.Status != 201 || a.Answer != `{"ok":true}` || !a.AnswerKept {
		t.Errorf("JSON exchange: %+v", a)
	}
	if b.Body != "" || b.BodyKept {
		t.Errorf("a multipart body is not kept: %+v", b)
	}
	for _, ex := range got {
		for k, v := range ex.Header {
			if strings.Contains(v, "s3cret") || strings.EqualFold(k, "Authorization") {
				t.Errorf("the token was recorded: %s: %s", k, v)
			}
		}
	}
}

func TestRecordRedactsSecretsInBodiesAndPaths(t *testing.T) {
	dir := t.TempDir()
	h := Record(dir, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"access_token":"tok-s3cret","expires_in":600,"items":[{"secret":"whsec-s3cret",` +
			`"text":"open http://m/public/sign/abcdef0123456789s3cret now"}]}`))
	}))
	for _, c := range []struct{ path, ctype, body string }{
		{"/auth/oauth/token", "application/json", `{"client_secret":"cs-s3cret","key":"k-s3cret","digest":"d-s3cret","grant_type":"api_keys"}`},
		{"/public/sign/abcdef0123456789s3cret", "application/x-www-form-urlencoded", "action=sign&nonce=n-s3cret"},
	} {
		req := httptest.NewRequest(http.MethodPost, c.path, strings.NewReader(c.body))
		req.Header.Set("Content-Type", c.ctype)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	got, err := Read(dir)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d exchanges, %v", len(got), err)
	}
	for _, ex := range got {
		if all := ex.Path + ex.Body + ex.Answer; strings.Contains(all, "s3cret") {
			t.Errorf("a secret was recorded: %+v", ex)
		}
		if !ex.BodyKept || !ex.AnswerKept || !strings.Contains(ex.Answer, `"expires_in":600`) {
			t.Errorf("the shapes were not kept: %+v", ex)
		}
	}
	if got[0].Path != "/auth/oauth/token" || got[1].Path != "/public/sign/redacted" || !strings.Contains(got[0].Body, `"grant_type":"api_keys"`) {
		t.Errorf("paths or bodies changed beyond their secrets: %+v", got)
	}
}

// TestRecordKeepsTheDataPartOfAMultipartBody: of a multipart body, the
// parts named data are kept (redacted as JSON bodies are), never a file,
// and only when the handler read the body to its end.
func TestRecordKeepsTheDataPartOfAMultipartBody(t *testing.T) {
	dir := t.TempDir()
	h := Record(dir, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/read" {
			mr, err := r.MultipartReader()
			if err != nil {
				t.Error(err)
				return
			}
			for part, err := mr.NextPart(); err == nil; part, err = mr.NextPart() {
				_, _ = io.Copy(io.Discard, part)
			}
		} else {
			_, _ = io.ReadFull(r.Body, make([]byte, 10)) // stops early
		}
		w.WriteHeader(http.StatusOK)
	}))
	body := "--b\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n" +
		`{"caseFile":{"title":"T","sendAt":1767225600,"secret":"s3cret"}}` +
		"\r\n--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"doc.pdf\"\r\n" +
		"Content-Type: application/pdf\r\n\r\n%PDF-1.4 file-bytes\r\n--b--\r\n"
	for _, path := range []string{"/read", "/early"} {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	got, err := Read(dir)
	if err != nil || len(got) != 2 {
		t.Fatalf("%d exchanges, %v", len(got), err)
	}
	read, early := got[0], got[1]
	want := `{"caseFile":{"secret":"redacted","sendAt":1767225600,"title":"T"}}`
	if !read.DataKept || len(read.Data) != 1 || read.Data[0] != want || read.BodyKept || read.Body != "" {
		t.Errorf("read to its end: data %q (kept %v), body %q, want the data part %s alone", read.Data, read.DataKept, read.Body, want)
	}
	if early.DataKept {
		t.Errorf("a body the handler did not read to its end is marked kept: %+v", early)
	}
	for _, ex := range got {
		if s := strings.Join(ex.Data, ""); strings.Contains(s, "file-bytes") || strings.Contains(s, "s3cret") {
			t.Errorf("a file or a secret was recorded: %q", s)
		}
	}
}
