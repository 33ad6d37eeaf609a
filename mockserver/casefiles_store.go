package mockserver

import (
	"sync"
	"time"
)

// caseFileStore is the signing service's state: case files with their
// signers and documents. Mock I creates case files from form submissions;
// Mock II adds the Send API, signing rounds and events on top of it.
type caseFileStore struct {
	mu       sync.RWMutex
	files    map[int64]*caseFile
	docs     map[string]*document // by documentId
	nextCase int64
	nextRow  int64 // signer and document row ids
	// onAdd, when set, runs after add has stored a case file (outside the
	// lock): the signing simulation activates the case file there, so a
	// form submission and a Send job are activated by the same code.
	onAdd func(*caseFile)
}

// caseFile is one case file. Fields Mock II needs (status changes, rounds,
// reminders, events) go on it.
type caseFile struct {
	ID         int64
	Title      string
	Status     int // 0 new, 1 pending, 2 rejected, 3 deleted, 4 signed, 5 completed, 6 failed, 7 expired
	UserID     int64
	CustomerID int64
	Created    time.Time
	Updated    time.Time
	Activated  time.Time
	Signers    []*signer
	Documents  []*document
	// Attachments are files uploaded through FILE fields of a form; they
	// are listed by GET {Forms}/v1/casefiles/{id}/files and not signed.
	Attachments []*attachment

	// Signing simulation (signing.go). The simulation changes these (and
	// Status, Updated, Activated) holding both the simulation lock and
	// c.mu; readers hold c.mu.
	Shared    bool      // in a shared folder: every user of the customer may read it
	ExpireAt  time.Time // when a still unsigned case file expires; zero: never
	Completed time.Time
	expiry    *task
}

// signer is a signer of a case file.
type signer struct {
	ID        int64
	Name      string
	Email     string
	Role      string
	SignOrder int
	Status    int // 0 new, 1 pending, 2 rejected, 3 deleted, 4 signed, 5 undeliverable
	RequestID int64

	// Signing simulation (signing.go).
	Texts            emailTexts // email texts of the Send definition; empty: defaults
	ReminderInterval int        // days between reminders; 0: none
	Token            string     // secret of the signing link, assigned on activation
	ActivatedAt      time.Time
	SignedAt         time.Time
	reminder         *task
}

// document is a document of a case file. Its content is produced on demand
// (render), so a stored case file stays small.
type document struct {
	ID         int64
	DocumentID string
	Title      string
	Signable   bool
	Format     string
	render     func() ([]byte, error)

	// Signing simulation (signing.go, pdf.go).
	CaseFileID int64
	Roles      []string // roles that sign it; empty: every signer
	Status     int      // follows the case file: 0 new, 1 pending, 5 completed …
	FileSize   int64    // size of the original, once known
	origPath   string   // the uploaded original on disk (Send API); empty: render
	signedPath string   // the signed PDF on disk, once completed
}

// attachment is a file uploaded through a FILE field.
type attachment struct {
	ID          int64
	Filename    string
	ContentType string
	Data        []byte
}

func newCaseFileStore() *caseFileStore {
	c := &caseFileStore{}
	c.reset()
	return c
}

func (c *caseFileStore) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.files, c.docs = map[int64]*caseFile{}, map[string]*document{}
	c.nextCase, c.nextRow = 1, 1
}

// initCaseFiles sets up the signing store.
func (s *Server) initCaseFiles() {
	s.cases = newCaseFileStore()
	s.onReset(s.cases.reset)
}

// access answers a case file the user may see: 404 when it does not exist
// or belongs to another customer, 403 when it belongs to another user of
// the customer, u is not a super API user and the case file is not in a
// shared folder.
func (c *caseFileStore) access(id int64, u *user) (*caseFile, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	cf := c.files[id]
	if cf == nil || cf.CustomerID != u.CustomerID {
		return nil, errNotFound("no case file %d", id)
	}
	if cf.UserID != u.ID && !u.SuperUser && !cf.Shared {
		return nil, errForbidden("case file %d belongs to another user", id)
	}
	return cf, nil
}

// add stores a new case file, assigning its id and the ids of its signers,
// documents and attachments, then runs the onAdd hook (activation).
func (c *caseFileStore) add(cf *caseFile) {
	c.mu.Lock()
	hook := c.onAdd
	cf.ID = c.nextCase
	c.nextCase++
	for _, s := range cf.Signers {
		s.ID, s.RequestID = c.nextRow, c.nextRow
		c.nextRow++
	}
	for _, d := range cf.Documents {
		d.ID = c.nextRow
		c.nextRow++
		d.DocumentID = newUUID()
		d.CaseFileID = cf.ID
		c.docs[d.DocumentID] = d
	}
	for _, a := range cf.Attachments {
		a.ID = c.nextRow
		c.nextRow++
	}
	c.files[cf.ID] = cf
	c.mu.Unlock()
	if hook != nil {
		hook(cf)
	}
}
