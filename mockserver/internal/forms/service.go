// Package forms is the mock's forms service (the platform's Collect), the
// one the SDK's package forms calls: forms and their versions, prefilled
// requests, the public pages that people fill in, submissions, their
// answers and files, and the answers PDF of each submission's case file.
// The mock server wires it to the signing store and its limits through
// Config.
package forms

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
)

// CaseFiles is what the service needs of the signing store: a submission
// creates and activates a case file, and its files are read through it.
type CaseFiles interface {
	Add(*signing.CaseFile)
	Access(id int64, u *auth.User) (*signing.CaseFile, error)
	// SignerLinks answers the signers of a case file with their signing
	// links under base, for the thank-you page.
	SignerLinks(caseFileID int64, base string) []signing.SignerLink
}

// Limits are the server's per-account limits the service keeps: each Take
// reserves a place (TakeSubmission also the submission's case file) or
// answers the server's limit error; Versions is the highest version number
// a form may reach (< 0: none), with VersionsError the error beyond it.
type Limits struct {
	TakeForm, TakePrefill, TakeSubmission func(customerID int64) error
	Versions                              int
	VersionsError                         func(customerID int64) error
}

// Config connects the service to the rest of the server.
type Config struct {
	// Clock dates forms and submissions.
	Clock *clock.Clock
	// MaxBodyBytes bounds a request body; MaxFileBytes one uploaded file.
	MaxBodyBytes, MaxFileBytes int64
	CaseFiles                  CaseFiles
	Limits                     Limits
}

// Service holds the forms. Its methods are safe for concurrent use.
type Service struct {
	cfg   Config
	forms *formStore
}

// user is an API user, as package auth authenticates them.
type user = auth.User

// userFrom answers the authenticated caller of a token-protected route.
func userFrom(r *http.Request) *user { return auth.From(r.Context()) }

// New answers a service with no forms.
func New(cfg Config) *Service {
	s := &Service{cfg: cfg, forms: newFormStore(cfg.Limits)}
	return s
}

// Now answers the current mock time.
func (s *Service) Now() time.Time { return s.cfg.Clock.Now() }

// Reset forgets every form, request and submission.
func (s *Service) Reset() { s.forms.reset() }

// Counts answers how many forms, prefilled requests and submissions there
// are, of every customer.
func (s *Service) Counts() (forms, requests, submissions int) {
	s.forms.mu.Lock()
	defer s.forms.mu.Unlock()
	for _, f := range s.forms.forms {
		submissions += len(f.subs)
	}
	return len(s.forms.forms), len(s.forms.requests), submissions
}
