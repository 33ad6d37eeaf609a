package signing_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// signerRequest is the part of a signer's JSON the reason tests read.
type signerRequest struct {
	SigningRequest struct {
		Status       int     `json:"status"`
		RejectReason *string `json:"rejectReason"`
	} `json:"signingRequest"`
}

// The signing page's JSON reject carries a reason into rejectReason; a
// reason with sign is refused (422) and changes nothing; a reject without
// one shows no rejectReason member.
func TestReasonSigningPageJSON(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	post := func(link, form string) (int, []byte) {
		t.Helper()
		req, err := http.NewRequest("POST", link, strings.NewReader(form))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		return testkit.Do(t, s, req, nil)
	}
	id, links := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com", "Bob:bob@example.com"), file)
	if st, b := post(links[0].SigningLink, "action=sign&reason=because"); st != http.StatusUnprocessableEntity {
		t.Fatalf("sign with a reason: %d %s, want 422", st, b)
	}
	if got := testkit.EventTrail(t, s, id); slices.Contains(got, "signer.signed:Ann") {
		t.Fatalf("a refused sign signed: %q", got)
	}
	var cf struct{ Signers []signerRequest }
	st, b := post(links[0].SigningLink, "action=reject&reason="+url.QueryEscape("  Wrong rent.  "))
	if st != http.StatusOK {
		t.Fatalf("reject: %d %s", st, b)
	}
	testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, &cf)
	if r := cf.Signers[0].SigningRequest.RejectReason; r == nil || *r != "Wrong rent." {
		t.Errorf("rejectReason %v, want the reason trimmed", r)
	}
	if r := cf.Signers[1].SigningRequest.RejectReason; r != nil {
		t.Errorf("Bob's rejectReason %q, want none", *r)
	}
}

// Anonymizing a rejected case file blanks the reason, which is free text
// that may name people.
func TestReasonAnonymizeBlanksRejectReason(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), file)
	ann := testkit.SignerIDs(s, id)[0]
	if err := s.RejectSigner(id, ann, "Ann Andersen disagrees."); err != nil {
		t.Fatal(err)
	}
	if err := s.AnonymizeCaseFile(id); err != nil {
		t.Fatal(err)
	}
	_, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d", id), tok, nil, nil)
	if strings.Contains(string(b), "Andersen") || strings.Contains(string(b), "rejectReason") {
		t.Errorf("the anonymized case file still shows the reason: %s", b)
	}
}

// FailCaseFile fails a new case file waiting for its sendAt and a pending
// one: sign.casefile.failed once, the reason (or the default one) in the
// errors answer, the planned activation and expiry stopped; a final one
// is a conflict and keeps its reasons.
func TestReasonFailCaseFile(t *testing.T) {
	t.Parallel()
	s, tok, file := newMock(t)
	later := testkit.CaseDef("Ann:ann@example.com")
	later["title"] = "Later"
	later["sendAt"] = s.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	waiting, _ := testkit.RunCase(t, s, tok, later, file)
	expiring := testkit.CaseDef("Bob:bob@example.com")
	expiring["expireAt"] = s.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	pending, _ := testkit.RunCase(t, s, tok, expiring, file)

	if err := s.FailCaseFile(waiting, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.FailCaseFile(pending, "Storage is full."); err != nil {
		t.Fatal(err)
	}
	s.Advance(3 * time.Hour)
	tok = adminToken(t, s) // the first one has expired
	for id, want := range map[int64][]string{waiting: {defaultFailureText}, pending: {"Storage is full."}} {
		if st := testkit.CaseStatus(s, id); st != testkit.CaseFailed {
			t.Errorf("case file %d is %d after the planned work fell due, want failed", id, st)
		}
		var reasons []string
		if st, b := testkit.Call(t, s, "GET", fmt.Sprintf("/api/v1/casefiles/%d/errors", id), tok, nil, &reasons); st != 200 {
			t.Fatalf("errors: %d %s", st, b)
		}
		if !slices.Equal(reasons, want) {
			t.Errorf("errors of %d: %q, want %q", id, reasons, want)
		}
		var failed int
		for _, e := range testkit.EventTrail(t, s, id) {
			if e == "casefile.failed" {
				failed++
			}
			if e == "casefile.expired" || strings.HasPrefix(e, "signer.requestActivated") && id == waiting {
				t.Errorf("case file %d: %s after it failed", id, e)
			}
		}
		if failed != 1 {
			t.Errorf("case file %d: %d sign.casefile.failed, want 1", id, failed)
		}
	}
	err := s.FailCaseFile(pending, "again")
	var se *signkit.Error
	if !errors.Is(err, signkit.ErrConflict) || !errors.As(err, &se) || se.StatusCode != http.StatusConflict {
		t.Errorf("failing a failed case file: %v, want a 409", err)
	}
	if err := s.FailCaseFile(pending, strings.Repeat("é", 4001)); !errors.Is(err, signkit.ErrValidation) {
		t.Errorf("a reason of 4001 characters: %v, want a validation error", err)
	}
	if st, _ := testkit.Call(t, s, "POST", fmt.Sprintf("/mock/casefiles/%d/fail", pending), "", map[string]string{"reason": "x"}, nil); st != http.StatusConflict {
		t.Errorf("control fail of a failed case file: %d, want 409", st)
	}
	if st, _ := testkit.Call(t, s, "POST", "/mock/casefiles/999/fail", "", nil, nil); st != http.StatusNotFound {
		t.Errorf("control fail of an unknown case file: %d, want 404", st)
	}
}

// defaultFailureText is the reason of a case file failed without one.
const defaultFailureText = "The case file was failed through the mock's control API."
