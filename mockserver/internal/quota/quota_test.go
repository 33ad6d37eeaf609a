package quota

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

func TestTakeAllIsAllOrNothing(t *testing.T) {
	s := NewSet(Limits{Submissions: 2, CaseFiles: 1})
	if err := TakeAll(7, s.Submissions, s.CaseFiles); err != nil {
		t.Fatalf("first take: %v", err)
	}
	err := TakeAll(7, s.Submissions, s.CaseFiles)
	var we *wire.Error
	if !errors.As(err, &we) || we.Status != http.StatusInsufficientStorage || !strings.Contains(we.Message, "CaseFiles") {
		t.Fatalf("second take: %v, want the 507 of CaseFiles", err)
	}
	// The submission place taken before the case file failed was given back.
	if err := s.Submissions.Take(7, 1); err != nil {
		t.Fatalf("submission place was not given back: %v", err)
	}
	if err := s.Submissions.Take(8, 2); err != nil {
		t.Fatalf("another customer counts apart: %v", err)
	}
}

func TestNegativeLimitIsUnlimitedAndResetForgets(t *testing.T) {
	s := NewSet(Limits{Forms: -1, Jobs: 1})
	if err := s.Forms.Take(1, 1_000_000); err != nil {
		t.Fatalf("unlimited: %v", err)
	}
	if err := s.Jobs.Take(1, 1); err != nil {
		t.Fatal(err)
	}
	s.Reset()
	if err := s.Jobs.Take(1, 1); err != nil {
		t.Fatalf("after reset: %v", err)
	}
	s.Jobs.Give(1, 5) // more than taken: the count stays at zero, not below
	if err := s.Jobs.Take(1, 2); err == nil {
		t.Fatal("took 2 places of a limit of 1")
	}
}

func TestResolveTakesZeroFieldsFromTheDefaults(t *testing.T) {
	def := Limits{Forms: 1, Versions: 2, PrefillRequests: 3, Submissions: 4, CaseFiles: 5, Jobs: 6, Subscriptions: 7}
	got := Resolve(Limits{Forms: -1, Jobs: 60}, def)
	want := Limits{Forms: -1, Versions: 2, PrefillRequests: 3, Submissions: 4, CaseFiles: 5, Jobs: 60, Subscriptions: 7}
	if got != want {
		t.Fatalf("Resolve = %+v, want %+v", got, want)
	}
}
