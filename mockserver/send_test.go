package mockserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// sndRule is one validation rule of the Send API: a request that breaks
// it and the 422 detail it must get.
type sndRule struct {
	name       string
	parts      func(t *testing.T) []sndPart
	field, msg string
}

// sndRules are the validation rules of issue 4 and a few more.
func sndRules(t *testing.T) []sndRule {
	pdf := sndPDF(t, "x")
	with := func(edit func(cf map[string]any)) map[string]any {
		cf := sndCase("Ann:ann@example.com", "Bob:bob@example.com")
		edit(cf)
		return cf
	}
	signer := func(cf map[string]any, i int) map[string]any { return cf["signers"].([]any)[i].(map[string]any) }
	doc := func(cf map[string]any) map[string]any { return cf["documents"].([]any)[0].(map[string]any) }
	return []sndRule{
		{"title present", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { cf["title"] = " " })), sndFile("doc.pdf", pdf)}
		}, "caseFile.title", "is required"},
		{"at least one signer", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { cf["signers"] = []any{} })), sndFile("doc.pdf", pdf)}
		}, "caseFile.signers", "at least one signer"},
		{"signer with a name", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { signer(cf, 1)["name"] = "" })), sndFile("doc.pdf", pdf)}
		}, "caseFile.signers[1].name", "is required"},
		{"at least one signable document", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { doc(cf)["signable"] = false })), sndFile("doc.pdf", pdf)}
		}, "caseFile.documents", "at least one document must be signable"},
		{"document names an uploaded file", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) {})), sndFile("other.pdf", pdf)}
		}, "caseFile.documents[0].name", `no uploaded file is named "doc.pdf"`},
		{"document names exactly one file", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) {})), sndFile("doc.pdf", pdf), sndFile("doc.pdf", pdf)}
		}, "caseFile.documents[0].name", `2 uploaded files are named "doc.pdf"`},
		{"every file named by a document", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) {})), sndFile("doc.pdf", pdf), sndFile("extra.pdf", pdf)}
		}, "files[1]", `the file "extra.pdf" is not named by any document`},
		{"roles are signer roles", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) {
				signer(cf, 0)["role"] = "buyer"
				doc(cf)["roles"] = []string{"buyer", "seller"}
			})), sndFile("doc.pdf", pdf)}
		}, "caseFile.documents[0].roles[1]", `no signer has the role "seller"`},
		{"signOrder not negative", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { signer(cf, 0)["signOrder"] = -1 })), sndFile("doc.pdf", pdf)}
		}, "caseFile.signers[0].signOrder", "must be 0 or more"},
		{"reminderInterval at least 1", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { signer(cf, 1)["reminderInterval"] = 0 })), sndFile("doc.pdf", pdf)}
		}, "caseFile.signers[1].reminderInterval", "must be at least 1"},
		{"each file is a PDF", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) {})), sndFile("doc.pdf", []byte("GIF89a not a pdf"))}
		}, "files[0]", `the file "doc.pdf" is not a PDF`},
		{"Base64 PDF in the JSON refused", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) {
				doc(cf)["content"] = base64.StdEncoding.EncodeToString(pdf)
			})), sndFile("doc.pdf", pdf)}
		}, "caseFile.documents[0].content", "upload each document as a binary part of the files element"},
		{"data part present", func(t *testing.T) []sndPart { return []sndPart{sndFile("doc.pdf", pdf)} },
			"data", "is required"},
		{"data is {caseFile}", func(t *testing.T) []sndPart {
			return []sndPart{{field: "data", body: []byte(`{"title":"flat"}`)}, sndFile("doc.pdf", pdf)}
		}, "data.caseFile", "is required"},
		{"email of a signer", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { signer(cf, 0)["email"] = "not-an-email" })), sndFile("doc.pdf", pdf)}
		}, "caseFile.signers[0].email", "is not an email address"},
		{"expireAt in the future", func(t *testing.T) []sndPart {
			return []sndPart{sndData(t, with(func(cf map[string]any) { cf["expireAt"] = epoch.Add(-time.Hour).Format(time.RFC3339) })),
				sndFile("doc.pdf", pdf)}
		}, "caseFile.expireAt", "must be in the future"},
	}
}

func TestSendValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range sndRules(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, tok, _ := sndServer(t)
			st, b, _ := sndCreate(t, s, tok, tc.parts(t)...)
			if st != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422: %s", st, b)
			}
			var e apiErr
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, d := range e.Details {
				found = found || d.Field == tc.field && strings.Contains(d.Message, tc.msg)
			}
			if !found {
				t.Fatalf("no detail %s: %q in %+v", tc.field, tc.msg, e.Details)
			}
			s.Advance(time.Hour)
			if n, c, f := s.sign.jobs.count(), sndCaseCount(s), sndTempFiles(t, s); n != 0 || c != 0 || len(f) != 0 {
				t.Fatalf("after a 422: %d jobs, %d case files, files %q; want none", n, c, f)
			}
		})
	}
}

func TestSendCreateAndQueueStatus(t *testing.T) {
	t.Parallel()
	s, tok, file := sndServer(t, WithJobDelay(5*time.Second))
	second := sndFile("terms.pdf", sndPDF(t, "Terms"))
	cf := sndCase("Ann:ann@example.com", "Bob:-")
	cf["documents"] = append(cf["documents"].([]any), map[string]any{"name": "terms.pdf", "title": "Terms", "signable": false})
	data := sndData(t, cf)
	sum := sha256.New()
	for _, p := range []sndPart{data, file, second} {
		sum.Write(p.body)
	}
	wantHash := hex.EncodeToString(sum.Sum(nil))
	for _, order := range [][]sndPart{{data, file, second}, {file, data, second}} {
		st, b, j := sndCreate(t, s, tok, order...)
		if st != http.StatusCreated {
			t.Fatalf("create: %d %s", st, b)
		}
		if j.PayloadHash != wantHash || j.UUID == "" || len(j.Jobs) != 1 || j.Jobs[0].UUID != j.UUID ||
			j.Jobs[0].PayloadHash != wantHash || j.Status != "handled" {
			t.Fatalf("create answer %s; want payloadHash %s in both places", b, wantHash)
		}
		if st, out, raw := sndStatus(t, s, j.UUID, j.PayloadHash); st != 200 || out.JobStatus != jobPending || out.Result != nil ||
			out.Type != "casefile_creation" {
			t.Fatalf("status before the delay: %d %s", st, raw)
		}
		s.Advance(4 * time.Second)
		if _, out, raw := sndStatus(t, s, j.UUID, j.PayloadHash); out.JobStatus != jobPending {
			t.Fatalf("status 4 s after: %s", raw)
		}
		s.Advance(time.Second)
		st, out, raw := sndStatus(t, s, j.UUID, j.PayloadHash)
		if st != 200 || out.JobStatus != jobCompleted || out.Result == nil || out.Result.Data.CaseFile.ID == 0 {
			t.Fatalf("status after the delay: %d %s", st, raw)
		}
		links := out.Result.Data.SigningLinks
		if len(links) != 2 || links[0].Name != "Ann" || links[0].Email != "ann@example.com" || links[1].Email != "" ||
			!strings.HasPrefix(links[1].SigningLink, "http://signkit.mock/public/sign/") || links[0].SigningLink == links[1].SigningLink {
			t.Fatalf("signing links %+v", links)
		}
	}
	for _, bad := range [][2]string{{"00000000-0000-4000-8000-000000000000", wantHash}, {"", ""}} {
		st, _, raw := sndStatus(t, s, bad[0], bad[1])
		if st != 404 || string(raw) != `{"message":"Job not found","statusCode":404}`+"\n" {
			t.Fatalf("unknown job: %d %s", st, raw)
		}
	}
	_, _, j := sndCreate(t, s, tok, data, file, second)
	if st, _, _ := sndStatus(t, s, j.UUID, strings.Repeat("0", 64)); st != 404 {
		t.Fatalf("wrong hash: %d, want 404", st)
	}
}

func TestSendNeedsTokenAndLimit(t *testing.T) {
	t.Parallel()
	s, tok, file := sndServer(t, WithMaxUploadBytes(1<<20))
	data := sndData(t, sndCase("Ann:ann@example.com"))
	if st, _, _ := sndCreate(t, s, "", data, file); st != http.StatusUnauthorized {
		t.Fatalf("no token: %d, want 401", st)
	}
	big := sndFile("doc.pdf", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), 2<<20)...))
	body, ct := sndBody(t, data, big)
	for _, chunked := range []bool{false, true} {
		req, _ := http.NewRequest("POST", s.URL()+"/send"+sendCreatePath, bytes.NewReader(body.Bytes()))
		if chunked {
			req.ContentLength = -1 // the limit must hold without a Content-Length too
		}
		req.Header.Set("Content-Type", ct)
		req.Header.Set("X-Auth-Token", tok)
		if st, b := do(t, s, req, nil); st != http.StatusRequestEntityTooLarge {
			t.Fatalf("over the limit (chunked %v): %d %s", chunked, st, b)
		}
	}
	if n, f := s.sign.jobs.count(), sndTempFiles(t, s); n != 0 || len(f) != 0 {
		t.Fatalf("after 413: %d jobs, files %q", n, f)
	}
	req, _ := http.NewRequest("POST", s.URL()+"/send"+sendCreatePath, strings.NewReader(`{"caseFile":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Auth-Token", tok)
	if st, _ := do(t, s, req, nil); st != http.StatusUnsupportedMediaType {
		t.Fatalf("JSON body: %d, want 415", st)
	}
	req, _ = http.NewRequest("POST", s.URL()+"/send"+sendCreatePath, strings.NewReader(`not multipart`))
	req.Header.Set("Content-Type", "multipart/form-data") // no boundary
	req.Header.Set("X-Auth-Token", tok)
	if st, _ := do(t, s, req, nil); st != http.StatusBadRequest {
		t.Fatalf("multipart without a boundary: %d, want 400", st)
	}
	if n := s.sign.jobs.count(); n != 0 {
		t.Fatalf("after refused bodies: %d jobs", n)
	}
}

func TestTempDirRemovedOnResetAndClose(t *testing.T) {
	t.Parallel()
	s, tok, file := sndServer(t)
	sndRun(t, s, tok, sndCase("Ann:ann@example.com"), file)
	if f := sndTempFiles(t, s); len(f) != 1 {
		t.Fatalf("files after a job: %q", f)
	}
	s.Reset()
	if f := sndTempFiles(t, s); len(f) != 0 || sndCaseCount(s) != 0 || s.sign.jobs.count() != 0 || len(s.sign.events.since(0, 0)) != 0 {
		t.Fatalf("after reset: files %q", f)
	}
	tok = login(t, s, s.DefaultCredentials())
	sndRun(t, s, tok, sndCase("Ann:ann@example.com"), file)
	s.sign.uploads.mu.Lock()
	root := s.sign.uploads.root
	s.sign.uploads.mu.Unlock()
	s.Close()
	if _, err := os.Stat(root); err == nil {
		t.Fatalf("%s still exists after Close", root)
	}
}
