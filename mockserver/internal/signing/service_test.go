package signing

import (
	"errors"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/tmpdir"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

func newService(t *testing.T) *Service {
	t.Helper()
	c := clock.New(true, time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	t.Cleanup(c.Close)
	s := New(Config{Clock: c, Temp: &tmpdir.Dir{}, MaxBodyBytes: 1 << 20, BaseURL: func() string { return "http://mock" },
		GiveCaseFile: func(int64) {}})
	t.Cleanup(s.Close)
	return s
}

// A case file added with a signer is activated: pending, the signer has a
// signing link, an email went out and events were emitted; its owner may
// read it, another customer may not.
func TestAddActivatesAndAccess(t *testing.T) {
	t.Parallel()
	s := newService(t)
	owner := &auth.User{ID: 1, CustomerID: 1}
	s.Add(&CaseFile{Title: "Contract", UserID: 1, CustomerID: 1,
		Signers: []*Signer{{Name: "Ann", Email: "ann@example.com"}}})
	if s.Count() != 1 {
		t.Fatalf("Count = %d", s.Count())
	}
	cf, err := s.Access(1, owner)
	if err != nil || cf.Title != "Contract" {
		t.Fatalf("Access = %v, %v", cf, err)
	}
	var status int
	s.Inspect(1, func(cf *CaseFile) { status = cf.Status })
	links := s.SignerLinks(1, "http://base")
	if status != cfPending || len(links) != 1 || links[0].Name != "Ann" || links[0].URL == "" {
		t.Fatalf("status %d, links %+v", status, links)
	}
	if mails := s.Emails(); len(mails) != 1 || mails[0].To != "ann@example.com" || mails[0].SigningLink == "" {
		t.Fatalf("emails %+v", mails)
	}
	if len(s.EventsSince(1, 0)) == 0 {
		t.Fatal("no events")
	}
	var e *wire.Error
	if _, err := s.Access(1, &auth.User{ID: 9, CustomerID: 2}); !errors.As(err, &e) || e.Status != 404 {
		t.Fatalf("another customer: %v", err)
	}
	s.Reset()
	if s.Count() != 0 || len(s.Emails()) != 0 || len(s.EventsSince(0, 0)) != 0 {
		t.Fatal("Reset left state behind")
	}
}
