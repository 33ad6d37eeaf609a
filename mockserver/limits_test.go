package mockserver

import (
	"encoding/json"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/forms"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// expect507 checks a 507 answer that names the limit and the option.
func expect507(t *testing.T, what string, st int, b []byte, field string) {
	t.Helper()
	var e apiErr
	if st != http.StatusInsufficientStorage {
		t.Fatalf("%s over the limit: %d %s, want 507", what, st, b)
	}
	if err := json.Unmarshal(b, &e); err != nil || e.StatusCode != 507 || e.Error != "storage_limit" ||
		!strings.Contains(e.Message, "WithLimits") || !strings.Contains(e.Message, field) ||
		len(e.Details) != 1 || e.Details[0].Field != "limits."+field {
		t.Fatalf("%s: 507 body %s does not name the limit %s and its option", what, b, field)
	}
}

// Each per-account limit answers 507 once reached and stores nothing of
// the refused request; freeing a place (deleting) makes room again; a
// reset empties the counts.
func TestLimits(t *testing.T) {
	t.Parallel()
	s := newManual(t, WithLimits(Limits{Forms: 2, Versions: 2, PrefillRequests: 1, Submissions: 1,
		CaseFiles: 2, Jobs: 2, Subscriptions: 2}))
	tok := login(t, s, s.DefaultCredentials())

	t.Run("forms", func(t *testing.T) {
		form := activeForm(t, s, tok, sampleForm()) // 1
		if st, b := call(t, s, "POST", "/collect/api/v1/forms", tok, sampleForm(), nil); st != 201 {
			t.Fatalf("second form: %d %s", st, b)
		}
		before := s.formCount()
		st, b := call(t, s, "POST", "/collect/api/v1/forms", tok, sampleForm(), nil)
		expect507(t, "third form", st, b, "Forms")
		if s.formCount() != before {
			t.Fatal("the refused form was stored")
		}
		// Versions: version 2 is allowed, 3 is not.
		path := "/collect/api/v1/forms/" + form.ExternalID
		if st, b := call(t, s, "PUT", path+"?publish=true", tok, sampleForm(), nil); st != 200 {
			t.Fatalf("version 2: %d %s", st, b)
		}
		st, b = call(t, s, "PUT", path+"?publish=true", tok, sampleForm(), nil)
		expect507(t, "version 3", st, b, "Versions")

		// Prefilled requests: one, then 507 and nothing stored.
		req := map[string]any{"answers": map[string]any{"fullName": map[string]any{"value": "Ann"}}}
		if st, b := call(t, s, "POST", path+"/requests", tok, req, nil); st != 200 {
			t.Fatalf("first request: %d %s", st, b)
		}
		n := s.prefillCount()
		st, b = call(t, s, "POST", path+"/requests", tok, req, nil)
		expect507(t, "second request", st, b, "PrefillRequests")
		if s.prefillCount() != n {
			t.Fatal("the refused request was stored")
		}

		// Submissions: one, then 507, with neither a submission nor a case
		// file half-stored.
		if _, err := s.core.Forms.Submit(form.ExternalID, "", forms.NewSubmissionInput(validAnswers(), nil)); err != nil {
			t.Fatal(err)
		}
		cases := sndCaseCount(s)
		_, err := s.core.Forms.Submit(form.ExternalID, "", forms.NewSubmissionInput(validAnswers(), nil))
		if ae, ok := err.(*wire.Error); !ok || ae.Status != 507 || ae.Details[0].Field != "limits.Submissions" {
			t.Fatalf("second submission: %v", err)
		}
		subs := len(s.core.Forms.Submissions(form.ExternalID))
		if subs != 1 || sndCaseCount(s) != cases {
			t.Fatalf("after the refused submission: %d submissions, %d case files (was %d)", subs, sndCaseCount(s), cases)
		}
	})

	t.Run("subscriptions", func(t *testing.T) {
		sub := func(host string) (int, []byte) {
			return whCall(t, s, "POST", subsPath, tok, map[string]any{"endpoint": "https://" + host + ".example.test/in",
				"eventTypes": []string{"sign.casefile.completed"}, "isActive": false}, nil)
		}
		var first struct {
			ID string `json:"id"`
		}
		if st, b := whCall(t, s, "POST", subsPath, tok, map[string]any{"endpoint": "https://a.example.test/in",
			"eventTypes": []string{"sign.casefile.completed"}, "isActive": false}, &first); st != 201 {
			t.Fatalf("first: %d %s", st, b)
		}
		if st, b := sub("b"); st != 201 {
			t.Fatalf("second: %d %s", st, b)
		}
		st, b := sub("c")
		expect507(t, "third subscription", st, b, "Subscriptions")
		if st, b := whCall(t, s, "DELETE", subsPath+"/"+first.ID, tok, nil, nil); st != 204 {
			t.Fatalf("delete: %d %s", st, b)
		}
		if st, b := sub("c"); st != 201 {
			t.Fatalf("after a delete: %d %s", st, b)
		}
	})
}

// Send jobs reserve a case file place at acceptance: over the limit the
// upload is refused with 507 and leaves no file behind.
func TestLimitsSendCaseFiles(t *testing.T) {
	t.Parallel()
	s, tok, pdf := sndServer(t, WithLimits(Limits{CaseFiles: 1}))
	if st, b, _ := sndCreate(t, s, tok, sndData(t, sndCase("Ann:ann@example.com")), pdf); st != 200 {
		t.Fatalf("first: %d %s", st, b)
	}
	files := len(sndTempFiles(t, s))
	st, b, _ := sndCreate(t, s, tok, sndData(t, sndCase("Bob:bob@example.com")), pdf)
	expect507(t, "second Send", st, b, "CaseFiles")
	if n := len(sndTempFiles(t, s)); n != files {
		t.Fatalf("the refused upload left files: %d, was %d", n, files)
	}
	s.Advance(DefaultJobDelay)
	if n := sndCaseCount(s); n != 1 {
		t.Fatalf("%d case files, want 1", n)
	}
}

// After a reset the heap is back near a fresh server's: the limits bound
// what a run holds, and a reset gives it back.
func TestResetReturnsHeap(t *testing.T) {
	heap := func() int64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	s := newManual(t, WithLimits(Limits{Forms: 5000}))
	tok := login(t, s, s.DefaultCredentials())
	fresh := heap()
	var st int
	var b []byte
	for i := 0; ; i++ {
		if st, b = call(t, s, "POST", "/collect/api/v1/forms", tok, sampleForm(), nil); st != 201 {
			break
		}
	}
	expect507(t, "form 5001", st, b, "Forms")
	full := heap()
	if st, b := call(t, s, "POST", "/mock/reset", "", nil, nil); st != 204 {
		t.Fatalf("reset: %d %s", st, b)
	}
	after := heap()
	t.Logf("heap: fresh %d KiB, with 5000 forms %d KiB, after reset %d KiB", fresh>>10, full>>10, after>>10)
	if full-fresh < 2<<20 {
		t.Fatalf("5000 forms grew the heap by only %d bytes: the measure is not working", full-fresh)
	}
	if after > fresh+fresh/5 {
		t.Fatalf("after reset the heap is %d bytes, more than 20%% over a fresh server's %d", after, fresh)
	}
}
