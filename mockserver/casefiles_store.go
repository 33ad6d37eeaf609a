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
// the customer and u is not a super API user.
func (c *caseFileStore) access(id int64, u *user) (*caseFile, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	cf := c.files[id]
	if cf == nil || cf.CustomerID != u.CustomerID {
		return nil, errNotFound("no case file %d", id)
	}
	if cf.UserID != u.ID && !u.SuperUser {
		return nil, errForbidden("case file %d belongs to another user", id)
	}
	return cf, nil
}

// add stores a new case file, assigning its id and the ids of its signers,
// documents and attachments.
func (c *caseFileStore) add(cf *caseFile) {
	c.mu.Lock()
	defer c.mu.Unlock()
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
		c.docs[d.DocumentID] = d
	}
	for _, a := range cf.Attachments {
		a.ID = c.nextRow
		c.nextRow++
	}
	c.files[cf.ID] = cf
}
