package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
)

// The fuzz targets of the mock server's input handling. Each
// runs its committed corpus (testdata/fuzz/<name>) as a normal test; .ci/run
// fuzzes each for a short while. Invariants: no 5xx answer, and a refused
// request changes nothing.

// fuzzBoundary is the multipart boundary of FuzzSendCreate's bodies.
const fuzzBoundary = "fuzzboundary"

// FuzzCreateForm posts arbitrary bytes as a form definition: never 5xx, and a
// form is stored exactly when the answer is 201 (create answers 201,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
func FuzzCreateForm(f *testing.F) {
	s := newManual(f, fuzzLimits)
	tok := login(f, s, s.DefaultCredentials())
	for _, def := range []any{sampleForm(), map[string]any{"name": "x", "sections": []any{}}, map[string]any{}} {
		b, _ := json.Marshal(def)
		f.Add(b)
	}
	f.Add([]byte(`{"name":"n","sections":[{"slug":"a","fields":[{"name":"e","type":"TEXT","mapTo":"primarySigner.email"}]}]}`))
	f.Add([]byte(`{"sections":[{"fields":[{"name":"a","type":"CHOICE","options":[{"value":"x"},{"value":"x"}]}]}]`))
	f.Add([]byte(`{"name":"n","storageFolderId":42,"sections":[{"slug":"a","cols":2,"fields":[{"name":"cpr","type":"NIN","mask":"#"}]}]}`))
	f.Add([]byte(`[1,2`))
	f.Fuzz(func(t *testing.T, body []byte) {
		createdOnlyOn(t, s, "/collect/api/v1/forms", tok, body, http.StatusCreated, "forms", s.formCount)
	})
}

// FuzzPrefill posts arbitrary bytes as a v1 prefilled request of an ACTIVE
// form: never 5xx, and a request is stored exactly when the answer is 200
// (prefill answers 200,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
func FuzzPrefill(f *testing.F) {
	s := newManual(f, fuzzLimits)
	tok := login(f, s, s.DefaultCredentials())
	form := activeForm(f, s, tok, sampleForm())
	path := "/collect/api/v1/forms/" + form.ExternalID + "/requests"
	f.Add([]byte(`{"answers":{"email":{"value":"ann@example.com","editable":false},"fullName":{"value":"Ann","editable":true}}}`))
	f.Add([]byte(`{"answers":{"nope":{"value":"x"}}}`))
	f.Add([]byte(`{"answers":{"attachment":{"value":"x"}}}`))
	f.Add([]byte(`{"answers":{"vat":{"value":"abc"},"founded":{"value":"2020-13-40"}}}`))
	f.Add([]byte(`{"answers":{"email":"plain"}}`))
	f.Add([]byte(`{"answers":null}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		createdOnlyOn(t, s, path, tok, body, http.StatusOK, "prefilled requests", s.prefillCount)
	})
}

// createdOnlyOn posts body as JSON to path and checks that the answer is
// not a 5xx and that count (of what) grows by one exactly when it is ok.
func createdOnlyOn(t *testing.T, s *Server, path, tok string, body []byte, ok int, what string, count func() int) {
	t.Helper()
	before := count()
	st, b := postRaw(t, s, path, "application/json", tok, body)
	if st >= 500 {
		t.Fatalf("%d for %q: %s", st, body, b)
	}
	want := before
	if st == ok {
		want++
	}
	if got := count(); got != want {
		t.Fatalf("answered %d and %s went from %d to %d for %q", st, what, before, got, body)
	}
}

// FuzzSendCreate posts arbitrary multipart bytes to the Send create
// endpoint: never 5xx; a refused request leaves no temporary file behind and
// queues no job.
func FuzzSendCreate(f *testing.F) {
	s := newManual(f, fuzzLimits, WithMaxUploadBytes(1<<20))
	tok := login(f, s, s.DefaultCredentials())
	pdf := []byte("%PDF-1.4 fuzz") // small: the endpoint checks the magic only, and minimizing stays quick
	data := func(cf any) []byte {
		b, _ := json.Marshal(map[string]any{"caseFile": cf})
		return b
	}
	valid := map[string]any{"title": "T", "signers": []any{map[string]any{"name": "A", "email": "a@example.com"}},
		"documents": []any{map[string]any{"name": "a.pdf", "title": "A"}}}
	f.Add(fuzzMultipart(fuzzPart{"data", "", data(valid)}, fuzzPart{"files", "a.pdf", pdf}))
	f.Add(fuzzMultipart(fuzzPart{"files", "a.pdf", pdf}, fuzzPart{"data", "", data(valid)}))
	f.Add(fuzzMultipart(fuzzPart{"data", "", data(valid)}))
	f.Add(fuzzMultipart(fuzzPart{"data", "", []byte(`{"caseFile":`)}, fuzzPart{"files", "a.pdf", pdf}))
	f.Add(fuzzMultipart(fuzzPart{"data", "", data(valid)}, fuzzPart{"files", "a.pdf", []byte("not a pdf")}))
	f.Add(fuzzMultipart(fuzzPart{"data", "", data(valid)}, fuzzPart{"files", "a.pdf", pdf}, fuzzPart{"files", "a.pdf", pdf}))
	f.Add(fuzzMultipart(fuzzPart{"data", "", data(map[string]any{"title": "T", "signers": []any{}, "documents": []any{
		map[string]any{"name": "a.pdf", "content": "JVBERi0xLjQ="}}})}))
	f.Add([]byte("--" + fuzzBoundary + "\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n{}"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		jobs, temp := s.core.Send.Count(), len(sndTempFiles(t, s))
		st, b := postRaw(t, s, "/send"+sendCreatePath, "multipart/form-data; boundary="+fuzzBoundary, tok, body)
		if st >= 500 {
			t.Fatalf("%d for %q: %s", st, body, b)
		}
		if st == http.StatusOK {
			if s.core.Send.Count() != jobs+1 {
				t.Fatalf("200 without a job for %q", body)
			}
			return
		}
		if n := s.core.Send.Count(); n != jobs {
			t.Fatalf("answered %d and jobs went from %d to %d for %q", st, jobs, n, body)
		}
		if left := sndTempFiles(t, s); len(left) != temp {
			t.Fatalf("answered %d and left temporary files %v for %q", st, left, body)
		}
	})
}

// postRaw posts body with a content type and a token placed for any
// service (Bearer and X-Auth-Token).
func postRaw(t *testing.T, s *Server, path, contentType, tok string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.URL()+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("X-Auth-Token", tok)
	return do(t, s, req, nil)
}

type fuzzPart struct {
	field, filename string
	body            []byte
}

// fuzzMultipart builds a multipart body with fuzzBoundary.
func fuzzMultipart(parts ...fuzzPart) []byte {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.SetBoundary(fuzzBoundary)
	for _, p := range parts {
		create := func() (io.Writer, error) { return mw.CreateFormField(p.field) }
		if p.filename != "" {
			create = func() (io.Writer, error) { return mw.CreateFormFile(p.field, p.filename) }
		}
		if w, err := create(); err == nil {
			_, _ = w.Write(p.body)
		}
	}
	_ = mw.Close()
	return buf.Bytes()
}

// prefillCount answers how many prefilled requests exist.
func (s *Server) prefillCount() int {
	_, n, _ := s.core.Forms.Counts()
	return n
}

// fuzzLimits lifts the per-account limits: a fuzz run stores far more than
// a test, and a 507 at the limit is not what these targets look for.
var fuzzLimits = WithLimits(Limits{Forms: -1, PrefillRequests: -1, Submissions: -1, CaseFiles: -1, Jobs: -1})
