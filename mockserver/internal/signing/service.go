// Package signing is the mock's signing service and simulation: the store
// of case files (from form submissions and Send jobs), their details and
// documents on the signing service, the signing pages behind the signing
// links, the simulation (rounds by sign order, reminders, expiry,
// rejection, completion, signed PDFs), its control API, the event log and
// the outbox of emails. The mock server wires it in through Config.
package signing

import (
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/tmpdir"
)

// Config connects the service to the rest of the server.
type Config struct {
	// Clock dates everything and runs reminders, expiry and rounds.
	Clock *clock.Clock
	// Temp holds the signed PDFs.
	Temp *tmpdir.Dir
	// MaxBodyBytes bounds a request body.
	MaxBodyBytes int64
	// Control says whether the control API is served (its handlers exist
	// either way).
	Control bool
	// BaseURL answers the server's base URL, for the signing links of
	// emails.
	BaseURL func() string
	// GiveCaseFile frees the place of a deleted case file in the server's
	// limits.
	GiveCaseFile func(customerID int64)
}

// Service holds the case files, the signing links, the event log and the
// outbox, and serves the signing service's routes. Its methods, and those
// of its Pages and Control, are safe for concurrent use.
type Service struct {
	*state
	sim *simulation

	// Pages serves the signing pages behind the signing links.
	Pages *Pages
	// Control is the simulation's control API: signer actions, shared
	// folders, expiry, anonymization, and the event log and outbox.
	Control *Control
}

// state is what the service, its pages, its control API and the
// simulation share; its methods are the helpers they all use.
type state struct {
	cfg   Config
	clock *clock.Clock
	tmp   *tmpdir.Dir
	cases *caseFileStore
	sign  *signingState
}

// simulation moves case files and signers through their statuses:
// activation, rounds, signing, rejection, completion, reminders and expiry
// (signing.go).
type simulation struct{ *state }

// Pages serves the signing pages (signing_page.go).
type Pages struct {
	*state
	sim *simulation
}

// Control is the simulation's control API (control.go).
type Control struct {
	*state
	sim *simulation
}

// user is an API user, as package auth authenticates them.
type user = auth.User

// userFrom answers the authenticated caller of a token-protected route.
func userFrom(r *http.Request) *user { return auth.From(r.Context()) }

// New answers a service with no case files.
func New(cfg Config) *Service {
	st := &state{cfg: cfg, clock: cfg.Clock, tmp: cfg.Temp}
	st.cases = newCaseFileStore(st.Now)
	st.sign = &signingState{links: map[string]linkRef{}, gone: map[string]bool{}, events: newEventLog(), outbox: newOutbox()}
	sim := &simulation{st}
	st.cases.onAdd = sim.activate
	return &Service{state: st, sim: sim, Pages: &Pages{st, sim}, Control: &Control{st, sim}}
}

// Now answers the current mock time.
func (s *state) Now() time.Time { return s.clock.Now() }

// Reset forgets every case file, signing link, event and email, and the
// signed PDFs (the clock has dropped the scheduled work). Listeners of the
// event log stay.
func (s *Service) Reset() {
	s.cases.reset()
	s.sign.mu.Lock()
	s.sign.links = map[string]linkRef{}
	s.sign.gone = map[string]bool{}
	s.sign.mu.Unlock()
	s.sign.events.reset()
	s.sign.outbox.Reset()
	s.tmp.RemoveAll()
}

// Close removes the temporary directory.
func (s *Service) Close() { s.tmp.RemoveAll() }

// Add stores a new case file and activates it (see caseFileStore.add).
func (s *Service) Add(cf *CaseFile) { s.cases.add(cf) }

// Access answers a case file the user may see, or the 404 or 403.
func (s *Service) Access(id int64, u *auth.User) (*CaseFile, error) { return s.cases.access(id, u) }

// Count answers how many case files there are, of every customer.
func (s *Service) Count() int {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	return len(s.cases.files)
}

// SignerLink is a signer of a case file and the URL of their signing page
// ("" while the signer has no signing link).
type SignerLink struct{ Name, Role, Email, URL string }

// SignerLinks answers the signers of a case file with their signing links
// under base.
func (s *Service) SignerLinks(caseFileID int64, base string) []SignerLink {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	links := []SignerLink{}
	cf := s.cases.files[caseFileID]
	if cf == nil {
		return links
	}
	for _, sg := range cf.Signers {
		link := ""
		if sg.Token != "" {
			link = SigningPageURL(base, sg.Token)
		}
		links = append(links, SignerLink{Name: sg.Name, Role: sg.Role, Email: sg.Email, URL: link})
	}
	return links
}

// Subscribe calls fn with each event as it is emitted (see
// eventLog.subscribe for what fn may do); the answer removes it.
func (s *Service) Subscribe(fn func(*Event)) (cancel func()) { return s.sign.events.subscribe(fn) }

// Emit puts an event of a customer (and of a case file, or 0) in the event
// log, dated at.
func (s *Service) Emit(customerID, caseFileID int64, typ string, at time.Time, payload any) {
	s.sign.events.emit(customerID, caseFileID, typ, at, payload)
}

// EventsSince answers the events of a customer (0: every customer) with a
// sequence number above after, oldest first.
func (s *Service) EventsSince(customerID, after int64) []*Event {
	return s.sign.events.since(customerID, after)
}

// Emails answers the outbox, oldest first.
func (s *Service) Emails() []Email { return s.sign.outbox.List() }

// ResetLogs empties the event log and the outbox, and nothing else.
func (s *Service) ResetLogs() {
	s.sign.events.reset()
	s.sign.outbox.Reset()
}

// Inspect calls fn with the case file id under the store's read lock (nil
// when there is none): fn may read it, not keep or change it.
func (s *Service) Inspect(id int64, fn func(*CaseFile)) {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	fn(s.cases.files[id])
}
