package forms

import (
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
)

// addedCaseFiles records the case files a submission creates.
type addedCaseFiles struct{ added []*signing.CaseFile }

func (a *addedCaseFiles) Add(cf *signing.CaseFile) {
	cf.ID = int64(len(a.added) + 1)
	a.added = append(a.added, cf)
}

func (a *addedCaseFiles) Access(int64, *auth.User) (*signing.CaseFile, error) { return nil, nil }

func (a *addedCaseFiles) SignerLinks(int64, string) []signing.SignerLink { return nil }

// A submission of a published form stores the answers and creates one case
// file for the mapped signer, with the answers PDF rendered on demand; a
// refused place stores nothing.
func TestSubmitCreatesCaseFile(t *testing.T) {
	t.Parallel()
	c := clock.New(true, time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	t.Cleanup(c.Close)
	cases := &addedCaseFiles{}
	full := false
	s := New(Config{Clock: c, MaxBodyBytes: 1 << 20, MaxFileBytes: 1 << 20, CaseFiles: cases, Limits: Limits{
		TakeForm: func(int64) error { return nil }, TakePrefill: func(int64) error { return nil },
		TakeSubmission: func(int64) error {
			if full {
				return errFull
			}
			return nil
		},
		Versions: -1}})
	def := &formJSON{Name: "Join", Sections: []sectionJSON{{Slug: "you", Fields: []fieldJSON{
		{Name: "name", Type: typeText, Required: true, MapTo: mapSignerName},
		{Name: "email", Type: typeEmail, Required: true, MapTo: mapSignerEmail}}}}}
	view, err := s.forms.create(def, &auth.User{ID: 1, CustomerID: 1}, c.Now(), true, "http://mock")
	if err != nil {
		t.Fatal(err)
	}
	sub, err := s.Submit(view.ExternalID, "", NewSubmissionInput(map[string]string{"name": "Ann", "email": "ann@example.com"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	if sub.ID() != 1 || sub.CaseFileID() != 1 || sub.Answer("email") != "ann@example.com" || len(cases.added) != 1 {
		t.Fatalf("submission %d, case file %d, %d case files", sub.ID(), sub.CaseFileID(), len(cases.added))
	}
	cf := cases.added[0]
	if len(cf.Signers) != 1 || cf.Signers[0].Email != "ann@example.com" || len(cf.Documents) != 1 || cf.Documents[0].Render == nil {
		t.Fatalf("case file %+v", cf)
	}
	if pdf, err := cf.Documents[0].Render(); err != nil || len(pdf) < 100 || string(pdf[:5]) != "%PDF-" {
		t.Fatalf("answers PDF: %d bytes, %v", len(pdf), err)
	}
	full = true
	if _, err := s.Submit(view.ExternalID, "", NewSubmissionInput(map[string]string{"name": "Bob", "email": "bob@example.com"}, nil)); err != errFull {
		t.Fatalf("over the limit: %v", err)
	}
	if forms, _, subs := s.Counts(); forms != 1 || subs != 1 || len(cases.added) != 1 {
		t.Fatalf("after the refused submission: %d forms, %d submissions, %d case files", forms, subs, len(cases.added))
	}
}

// errFull stands for the server's limit error.
var errFull = errorString("full")

type errorString string

func (e errorString) Error() string { return string(e) }
