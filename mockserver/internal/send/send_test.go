package send_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// validationRule is one validation rule of the Send API: a request that breaks
// it and the 422 detail it must get.
type validationRule struct {
	name       string
	parts      func(t *testing.T) []testkit.Part
	field, msg string
}

// validationRules are the validation rules of the Send API: the vendor's constraints
// on every field
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1)
// and the mock's own checks of the files.
func validationRules(t *testing.T) []validationRule {
	pdf := mockserver.SamplePDF("x")
	type part = testkit.Part
	data, file := testkit.DataPart, testkit.FilePart
	with := func(edit func(cf map[string]any)) map[string]any {
		cf := testkit.CaseDef("Ann:ann@example.com", "Bob:bob@example.com")
		edit(cf)
		return cf
	}
	signer := func(cf map[string]any, i int) map[string]any { return cf["signers"].([]any)[i].(map[string]any) }
	doc := func(cf map[string]any) map[string]any { return cf["documents"].([]any)[0].(map[string]any) }
	rule := func(name string, edit func(cf map[string]any), field, msg string) validationRule {
		return validationRule{name, func(t *testing.T) []part { return []part{data(t, with(edit)), file("doc.pdf", pdf)} }, field, msg}
	}
	long := strings.Repeat("é", 1025)
	return []validationRule{
		rule("title at most 1024 characters", func(cf map[string]any) { cf["title"] = long }, "caseFile.title", "at most 1024"),
		rule("document title present", func(cf map[string]any) { delete(doc(cf), "title") }, "caseFile.documents[0].title", "is required"),
		rule("document title at most 1024", func(cf map[string]any) { doc(cf)["title"] = long }, "caseFile.documents[0].title", "at most 1024"),
		rule("role pattern", func(cf map[string]any) { signer(cf, 0)["role"] = "buyer " }, "caseFile.signers[0].role", "at least 3 characters"),
		rule("role at least 3", func(cf map[string]any) { signer(cf, 0)["role"] = "ab" }, "caseFile.signers[0].role", "at least 3 characters"),
		rule("document role pattern", func(cf map[string]any) { doc(cf)["roles"] = []string{"-x-"} }, "caseFile.documents[0].roles[0]", "at least 3 characters"),
		rule("email subject at least 5", func(cf map[string]any) { signer(cf, 0)["emailSubject"] = "Hi" }, "caseFile.signers[0].emailSubject", "at least 5"),
		rule("email text at least 5", func(cf map[string]any) { signer(cf, 1)["emailText"] = "" }, "caseFile.signers[1].emailText", "at least 5"),
		rule("reminder subject at least 5", func(cf map[string]any) { signer(cf, 0)["reminderEmailSubject"] = "Re" }, "caseFile.signers[0].reminderEmailSubject", "at least 5"),
		rule("reminder text at least 5", func(cf map[string]any) { signer(cf, 0)["reminderEmailText"] = "abcd" }, "caseFile.signers[0].reminderEmailText", "at least 5"),
		rule("completed subject at least 5", func(cf map[string]any) { signer(cf, 0)["completedEmailSubject"] = "ok" }, "caseFile.signers[0].completedEmailSubject", "at least 5"),
		rule("completed text at least 5", func(cf map[string]any) { signer(cf, 0)["completedEmailText"] = "done" }, "caseFile.signers[0].completedEmailText", "at least 5"),
		rule("success URL absolute", func(cf map[string]any) { signer(cf, 0)["successUrl"] = "/done/here" }, "caseFile.signers[0].successUrl", "absolute URL"),
		rule("fail URL at least 5", func(cf map[string]any) { signer(cf, 0)["failUrl"] = "a:b" }, "caseFile.signers[0].failUrl", "at least 5"),
		rule("signer language", func(cf map[string]any) { signer(cf, 0)["language"] = "xx" }, "caseFile.signers[0].language", "must be one of"),
		rule("case file language", func(cf map[string]any) { cf["language"] = "klingon" }, "caseFile.language", "must be one of"),
		rule("ssnType", func(cf map[string]any) { signer(cf, 0)["ssnType"] = "passport" }, "caseFile.signers[0].ssnType", "must be one of"),
		rule("secure signing methods not empty", func(cf map[string]any) { signer(cf, 0)["secureSigningMethods"] = []string{} },
			"caseFile.signers[0].secureSigningMethods", "at least one"),
		rule("insecure signing method", func(cf map[string]any) { signer(cf, 0)["insecureSigningMethods"] = []string{"smoke"} },
			"caseFile.signers[0].insecureSigningMethods[0]", "must be one of"),
		rule("folderId at least 1", func(cf map[string]any) { cf["folderId"] = 0 }, "caseFile.folderId", "at least 1"),
		rule("visibilityMode 0 or 1", func(cf map[string]any) { cf["visibilityMode"] = 2 }, "caseFile.visibilityMode", "must be 0"),
		rule("documentOrder not negative", func(cf map[string]any) { doc(cf)["documentOrder"] = -1 }, "caseFile.documents[0].documentOrder", "0 or more"),
		rule("sendAt a time", func(cf map[string]any) { cf["sendAt"] = "tomorrow" }, "caseFile.sendAt", "unix seconds"),
		rule("expireAt a time", func(cf map[string]any) { cf["expireAt"] = 1.5 }, "caseFile.expireAt", "unix seconds"),
		rule("expireAt after sendAt", func(cf map[string]any) {
			cf["sendAt"], cf["expireAt"] = testkit.Epoch.Add(2*time.Hour).Unix(), testkit.Epoch.Add(time.Hour).Unix()
		}, "caseFile.expireAt", "after sendAt"),
		rule("expireAt in unix seconds in the future", func(cf map[string]any) { cf["expireAt"] = testkit.Epoch.Add(-time.Minute).Unix() },
			"caseFile.expireAt", "must be in the future"),
		rule("signer expireAt after activeAt", func(cf map[string]any) {
			signer(cf, 0)["activeAt"], signer(cf, 0)["expireAt"] = testkit.Epoch.Add(time.Hour).Unix(), testkit.Epoch.Unix()
		}, "caseFile.signers[0].expireAt", "after activeAt"),
		rule("CC recipient email", func(cf map[string]any) { cf["ccRecipients"] = []any{map[string]any{"name": "Carl"}} },
			"caseFile.ccRecipients[0].email", "is required"),
		rule("CC recipient name", func(cf map[string]any) { cf["ccRecipients"] = []any{map[string]any{"email": "c@example.com"}} },
			"caseFile.ccRecipients[0].name", "is required"),
		rule("metaData is a string", func(cf map[string]any) { cf["metaData"] = map[string]any{"k": 1} }, "caseFile.metaData", "must be a string"),
		{"title present", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { cf["title"] = " " })), file("doc.pdf", pdf)}
		}, "caseFile.title", "is required"},
		{"at least one signer", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { cf["signers"] = []any{} })), file("doc.pdf", pdf)}
		}, "caseFile.signers", "at least one signer"},
		{"signer with a name", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { signer(cf, 1)["name"] = "" })), file("doc.pdf", pdf)}
		}, "caseFile.signers[1].name", "is required"},
		{"at least one signable document", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { doc(cf)["signable"] = false })), file("doc.pdf", pdf)}
		}, "caseFile.documents", "at least one document must be signable"},
		{"document names an uploaded file", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) {})), file("other.pdf", pdf)}
		}, "caseFile.documents[0].name", `no uploaded file is named "doc.pdf"`},
		{"document names exactly one file", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) {})), file("doc.pdf", pdf), file("doc.pdf", pdf)}
		}, "caseFile.documents[0].name", `2 uploaded files are named "doc.pdf"`},
		{"every file named by a document", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) {})), file("doc.pdf", pdf), file("extra.pdf", pdf)}
		}, "files[1]", `the file "extra.pdf" is not named by any document`},
		{"roles are signer roles", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) {
				signer(cf, 0)["role"] = "buyer"
				doc(cf)["roles"] = []string{"buyer", "seller"}
			})), file("doc.pdf", pdf)}
		}, "caseFile.documents[0].roles[1]", `no signer has the role "seller"`},
		{"signOrder not negative", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { signer(cf, 0)["signOrder"] = -1 })), file("doc.pdf", pdf)}
		}, "caseFile.signers[0].signOrder", "must be 0 or more"},
		{"reminderInterval at least 1", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { signer(cf, 1)["reminderInterval"] = 0 })), file("doc.pdf", pdf)}
		}, "caseFile.signers[1].reminderInterval", "must be at least 1"},
		{"each file is a PDF", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) {})), file("doc.pdf", []byte("GIF89a not a pdf"))}
		}, "files[0]", `the file "doc.pdf" is not a PDF`},
		{"Base64 PDF in the JSON refused", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) {
				doc(cf)["content"] = base64.StdEncoding.EncodeToString(pdf)
			})), file("doc.pdf", pdf)}
		}, "caseFile.documents[0].content", "upload each document as a binary part of the files element"},
		{"data part present", func(t *testing.T) []part { return []part{file("doc.pdf", pdf)} },
			"data", "is required"},
		{"data is {caseFile}", func(t *testing.T) []part {
			return []part{{Field: "data", Body: []byte(`{"title":"flat"}`)}, file("doc.pdf", pdf)}
		}, "data.caseFile", "is required"},
		{"email of a signer", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { signer(cf, 0)["email"] = "not-an-email" })), file("doc.pdf", pdf)}
		}, "caseFile.signers[0].email", "is not an email address"},
		{"expireAt in the future", func(t *testing.T) []part {
			return []part{data(t, with(func(cf map[string]any) { cf["expireAt"] = testkit.Epoch.Add(-time.Hour).Format(time.RFC3339) })),
				file("doc.pdf", pdf)}
		}, "caseFile.expireAt", "must be in the future"},
	}
}

func TestSendValidation(t *testing.T) {
	t.Parallel()
	for _, tc := range validationRules(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, tok, _ := sendServer(t)
			st, b, _ := testkit.SendCreate(t, s, tok, tc.parts(t)...)
			if st != http.StatusBadRequest {
				t.Fatalf("status %d, want 400: %s", st, b)
			}
			var e testkit.APIError
			if err := json.Unmarshal(b, &e); err != nil {
				t.Fatal(err)
			}
			// The platform's answer
			// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
			if e.Error != "Bad Request" || e.StatusCode != http.StatusBadRequest || e.Message == "" {
				t.Fatalf("not the platform's 400 body: %s", b)
			}
			found := false
			for _, d := range e.Details {
				found = found || d.Field == tc.field && strings.Contains(d.Message, tc.msg)
			}
			if !found {
				t.Fatalf("no detail %s: %q in %+v", tc.field, tc.msg, e.Details)
			}
			s.Advance(time.Hour)
			if n, c, f := s.Stats().Jobs, s.Stats().CaseFiles, testkit.TempFiles(t, s); n != 0 || c != 0 || len(f) != 0 {
				t.Fatalf("after a 422: %d jobs, %d case files, files %q; want none", n, c, f)
			}
		})
	}
}

func TestSendCreateAndQueueStatus(t *testing.T) {
	t.Parallel()
	file := testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text"))
	second := testkit.FilePart("terms.pdf", mockserver.SamplePDF("Terms"))
	cf := testkit.CaseDef("Ann:ann@example.com", "Bob:-")
	cf["documents"] = append(cf["documents"].([]any), map[string]any{"name": "terms.pdf", "title": "Terms", "signable": false})
	data := testkit.DataPart(t, cf)
	sum := sha256.New()
	for _, p := range []testkit.Part{data, file, second} {
		sum.Write(p.Body)
	}
	wantHash := hex.EncodeToString(sum.Sum(nil))
	orders := map[string][]testkit.Part{"data first": {data, file, second}, "data after a file": {file, data, second}}
	for name, order := range orders {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, tok, _ := sendServer(t, mockserver.WithJobDelay(5*time.Second))
			st, b, j := testkit.SendCreate(t, s, tok, order...)
			if st != http.StatusOK {
				t.Fatalf("create: %d %s, want 200", st, b)
			}
			if j.PayloadHash != wantHash || j.UUID == "" || len(j.Jobs) != 1 || j.Jobs[0].UUID != j.UUID ||
				j.Jobs[0].PayloadHash != wantHash || j.Status != "handled" || j.Message != "Job created" ||
				j.Jobs[0].CreatedAt != "2026-11-22T10:00:00Z" {
				t.Fatalf("create answer %s; want payloadHash %s in both places", b, wantHash)
			}
			if st, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash); st != 200 || out.JobStatus != testkit.JobPending || out.Result != nil ||
				out.Type != "casefile_creation" {
				t.Fatalf("status before the delay: %d %s", st, raw)
			}
			s.Advance(4 * time.Second)
			if _, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash); out.JobStatus != testkit.JobPending {
				t.Fatalf("status 4 s after: %s", raw)
			}
			s.Advance(time.Second)
			st, out, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash)
			if st != 200 || out.JobStatus != testkit.JobCompleted || out.Result == nil || out.Result.Data.CaseFile.ID == 0 {
				t.Fatalf("status after the delay: %d %s", st, raw)
			}
			links := out.Result.Data.SigningLinks
			if len(links) != 2 || links[0].Name != "Ann" || links[0].Email != "ann@example.com" || links[1].Email != "" ||
				!strings.HasPrefix(links[1].SigningLink, "http://signkit.mock/public/sign/") || links[0].SigningLink == links[1].SigningLink {
				t.Fatalf("signing links %+v", links)
			}
			if !bytes.Equal(out.Payload, data.Body) || out.PayloadHash != wantHash || out.Retries == nil || out.MaxRetries == nil ||
				!out.CreatedAt.Equal(testkit.Epoch) || !out.UpdatedAt.Equal(testkit.Epoch.Add(5*time.Second)) {
				t.Fatalf("status fields: %s", raw)
			}
			var details signing.CaseFileJSON
			testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", out.Result.Data.CaseFile.ID), tok, nil, &details)
			if len(details.Documents) != 2 || details.Documents[0].Title != "The contract" || details.Documents[1].Title != "Terms" ||
				details.Documents[0].DocumentOrder != 0 || details.Documents[1].DocumentOrder != 1 {
				t.Fatalf("documents do not follow the definition's order: %+v", details.Documents)
			}
		})
	}
}

func TestQueueStatusShapeAndUnknownJobs(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	_, _, j := testkit.SendCreate(t, s, tok, testkit.DataPart(t, testkit.CaseDef("Ann:ann@example.com")), file)
	want := []string{"createdAt", "errorMessage", "jobStatus", "maxRetries", "payload", "payloadHash", "result", "retries",
		"type", "updatedAt", "uuid"}
	for _, stage := range []string{"pending", "completed"} {
		_, _, raw := testkit.QueueStatus(t, s, j.UUID, j.PayloadHash)
		var body map[string]json.RawMessage
		if err := json.Unmarshal(raw, &body); err != nil {
			t.Fatal(err)
		}
		if got := slices.Sorted(maps.Keys(body)); !slices.Equal(got, want) {
			t.Errorf("%s: keys %q, want %q", stage, got, want)
		}
		if !bytes.HasPrefix(body["payload"], []byte(`{"caseFile":`)) {
			t.Errorf("%s: payload %s, want the data part", stage, body["payload"])
		}
		s.Advance(testkit.JobDelay(s))
	}
	for _, bad := range [][2]string{{"00000000-0000-4000-8000-000000000000", j.PayloadHash}, {"", ""},
		{j.UUID, strings.Repeat("0", 64)}} {
		st, _, raw := testkit.QueueStatus(t, s, bad[0], bad[1])
		if st != 404 || string(raw) != `{"message":"Job not found","statusCode":404}`+"\n" {
			t.Fatalf("unknown job %q: %d %s", bad, st, raw)
		}
	}
	if st, _, _ := testkit.QueueStatus(t, s, j.UUID, strings.ToUpper(j.PayloadHash)); st != 200 {
		t.Fatalf("the hash in upper case: %d, want 200", st)
	}
}

func TestSendNeedsTokenAndLimit(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t, mockserver.WithMaxUploadBytes(1<<20))
	data := testkit.DataPart(t, testkit.CaseDef("Ann:ann@example.com"))
	if st, _, _ := testkit.SendCreate(t, s, "", data, file); st != http.StatusUnauthorized {
		t.Fatalf("no token: %d, want 401", st)
	}
	big := testkit.FilePart("doc.pdf", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("x"), 2<<20)...))
	body, ct := testkit.Multipart(t, data, big)
	for _, chunked := range []bool{false, true} {
		req, _ := http.NewRequest("POST", s.URL()+"/send"+testkit.SendCreatePath, bytes.NewReader(body.Bytes()))
		if chunked {
			req.ContentLength = -1 // the limit must hold without a Content-Length too
		}
		req.Header.Set("Content-Type", ct)
		req.Header.Set("X-Auth-Token", tok)
		if st, b := testkit.Do(t, s, req, nil); st != http.StatusRequestEntityTooLarge {
			t.Fatalf("over the limit (chunked %v): %d %s", chunked, st, b)
		}
	}
	if n, f := s.Stats().Jobs, testkit.TempFiles(t, s); n != 0 || len(f) != 0 {
		t.Fatalf("after 413: %d jobs, files %q", n, f)
	}
	req, _ := http.NewRequest("POST", s.URL()+"/send"+testkit.SendCreatePath, strings.NewReader(`{"caseFile":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Auth-Token", tok)
	if st, b := testkit.Do(t, s, req, nil); st != http.StatusBadRequest || !strings.Contains(string(b), "multipart/form-data") {
		t.Fatalf("JSON body: %d %s, want 400 saying to send multipart/form-data", st, b)
	}
	req, _ = http.NewRequest("POST", s.URL()+"/send"+testkit.SendCreatePath, strings.NewReader(`not multipart`))
	req.Header.Set("Content-Type", "multipart/form-data") // no boundary
	req.Header.Set("X-Auth-Token", tok)
	if st, _ := testkit.Do(t, s, req, nil); st != http.StatusBadRequest {
		t.Fatalf("multipart without a boundary: %d, want 400", st)
	}
	if n := s.Stats().Jobs; n != 0 {
		t.Fatalf("after refused bodies: %d jobs", n)
	}
}

func TestTempDirRemovedOnResetAndClose(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	if f := testkit.TempFiles(t, s); len(f) != 1 {
		t.Fatalf("files after a job: %q", f)
	}
	s.Reset()
	if f := testkit.TempFiles(t, s); len(f) != 0 || s.Stats().CaseFiles != 0 || s.Stats().Jobs != 0 || len(s.Events(0)) != 0 {
		t.Fatalf("after reset: files %q", f)
	}
	tok = login(t, s, s.DefaultCredentials())
	testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	root := testkit.TempRoot(s)
	s.Close()
	if _, err := os.Stat(root); err == nil {
		t.Fatalf("%s still exists after Close", root)
	}
}
