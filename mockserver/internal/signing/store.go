package signing

import (
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// caseFileStore is the signing service's state: case files with their
// signers, documents and signature lines. Form submissions and Send jobs
// both add case files here; the signing simulation (signing.go) changes
// them.
type caseFileStore struct {
	mu       sync.RWMutex
	files    map[int64]*CaseFile
	docs     map[string]*Document // by documentId, the string key stamped on the pages
	docsByID map[int64]*Document  // by id, the integer the content endpoint takes
	nextCase int64
	nextRow  int64 // signer, document, signature line and attachment row ids
	// now dates a case file added without a Created time.
	now func() time.Time
	// onAdd, when set, runs after add has stored a case file (outside the
	// lock): the signing simulation activates the case file there, so a
	// form submission and a Send job are activated by the same code.
	onAdd func(*CaseFile)
}

// CaseFile is one case file. Callers that build one (form submissions, Send
// jobs) set Title, UserID, CustomerID, Signers and Documents, and may set
// the Send fields; add assigns ids and derives the signature lines.
type CaseFile struct {
	ID         int64
	Title      string
	Status     int // see the cf… constants (signing.go)
	UserID     int64
	CustomerID int64
	Created    time.Time
	Updated    time.Time
	Activated  time.Time
	Signers    []*Signer
	Documents  []*Document
	// Attachments are files uploaded through FILE fields of a form; they
	// are listed by GET {Forms}/v1/casefiles/{id}/files and not signed.
	Attachments []*Attachment

	// Fields of a Send definition, shown by the signing service as sent
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1 and
	// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
	Language                  string
	Reference                 string
	MetaData                  string
	FolderID                  int64 // 0: none
	SendAt                    time.Time
	SensitiveData             bool
	SignOnMeeting             bool
	VisibilityMode            int
	DisableNotificationsOwner bool
	DisableEmailAttachments   bool
	CCRecipients              []CCRecipient
	SenderName                string
	AccessControl             bool // case level: on for every signer too

	// Signing simulation (signing.go). The simulation changes these (and
	// Status, Updated, Activated) holding both the simulation lock and
	// c.mu; readers hold c.mu.
	Shared    bool      // in a shared folder: every user of the customer may read it
	ExpireAt  time.Time // when a still unsigned case file expires; zero: never
	Completed time.Time
	expiry    *clock.Task
	sending   *clock.Task // the activation planned for SendAt
	// FailureReasons say why the case file failed (status 6), as
	// GET {Sign}/api/v1/casefiles/{id}/errors answers them (errors.go).
	FailureReasons []string
}

// CCRecipient receives a copy when the case file completes.
type CCRecipient struct {
	Name           string `json:"name"`
	Email          string `json:"email"`
	StoreAsContact bool   `json:"storeAsContact"`
}

// Signer is a signer of a case file.
type Signer struct {
	ID        int64
	Name      string
	Email     string
	Role      string
	SignOrder int
	Status    int // see the sg… constants (signing.go)
	RequestID int64

	// Fields of a Send definition
	// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
	// SSN is kept but never shown.
	OnBehalfOf             string
	SSNType                string
	SSN                    string
	VATIN                  string
	AccessControl          bool
	Language               string
	SuccessURL, FailURL    string
	ActiveAt, ExpireAt     time.Time
	StoreAsContact         bool
	EmailFormat            string
	EnableInsecureSigning  bool
	InsecureSigningMethods []string
	SecureSigningMethods   []string

	// Signing simulation (signing.go).
	Texts            EmailTexts // email texts of the Send definition; empty: defaults
	ReminderInterval int        // days between reminders; 0: none
	Token            string     // secret of the signing link, assigned on activation
	ActivatedAt      time.Time
	SignedAt         time.Time
	RejectReason     string // the reason given when rejecting; empty: none
	reminder         *clock.Task
}

// Document is a document of a case file. Its content is produced on demand
// (Render) or read from disk (OrigPath), so a stored case file stays small.
type Document struct {
	ID            int64
	DocumentID    string
	Title         string
	Signable      bool
	Format        string
	DocumentOrder int    // from the Send definition (there: else the position)
	MetaData      string // from the Send definition
	Created       time.Time
	// Render produces the content of a document made on demand (a form's
	// answers); nil for an uploaded one, which has OrigPath.
	Render func() ([]byte, error)

	// Signing simulation (signing.go, pdf.go).
	CaseFileID int64
	Roles      []string // roles that sign it; empty: every signer
	Status     int      // follows the case file: 0 new, 1 pending, 5 completed …
	FileSize   int64    // size of the original, once known
	Lines      []*signatureLine
	OrigPath   string // the uploaded original on disk (Send API); empty: Render
	signedPath string // the signed PDF on disk, once completed
}

// signatureLine is where one signer signs one document: role and sign order
// live here on the platform, not on the signer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
type signatureLine struct {
	ID        int64
	SignerID  int64
	Role      string
	SignOrder int
}

// Attachment is a file uploaded through a FILE field.
type Attachment struct {
	ID          int64
	Filename    string
	ContentType string
	Data        []byte
}

func newCaseFileStore(now func() time.Time) *caseFileStore {
	c := &caseFileStore{now: now}
	c.reset()
	return c
}

func (c *caseFileStore) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.files, c.docs, c.docsByID = map[int64]*CaseFile{}, map[string]*Document{}, map[int64]*Document{}
	c.nextCase, c.nextRow = 1, 1
}

// visible tells whether u may read cf: the owner; a super API user or anyone
// when it is in a shared folder, within the customer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
func visible(cf *CaseFile, u *user) bool {
	return cf.CustomerID == u.CustomerID && (cf.UserID == u.ID || u.SuperUser || cf.Shared)
}

// access answers a case file the user may see: 404 when it does not exist
// or belongs to another customer, 403 when it belongs to another user of
// the customer, u is not a super API user and the case file is not in a
// shared folder.
func (c *caseFileStore) access(id int64, u *user) (*CaseFile, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	cf := c.files[id]
	if cf == nil || cf.CustomerID != u.CustomerID {
		return nil, wire.NotFound("no case file %d", id)
	}
	if !visible(cf, u) {
		return nil, wire.Forbidden("case file %d belongs to another user", id)
	}
	return cf, nil
}

// add stores a new case file, assigning its id and the ids of its signers,
// documents and attachments, dating it now when the caller did not, and
// deriving the signature lines: a signable document gets one line per
// signer who signs it (signsDocument), with that signer's role and sign
// order. Then it runs the onAdd hook (activation).
func (c *caseFileStore) add(cf *CaseFile) {
	c.mu.Lock()
	hook := c.onAdd
	if cf.Created.IsZero() && c.now != nil {
		cf.Created = c.now()
	}
	if cf.Updated.IsZero() {
		cf.Updated = cf.Created
	}
	cf.ID = c.nextCase
	c.nextCase++
	for _, s := range cf.Signers {
		s.ID, s.RequestID = c.nextRow, c.nextRow
		c.nextRow++
	}
	for _, d := range cf.Documents {
		d.ID = c.nextRow
		c.nextRow++
		d.DocumentID = ids.UUID()
		d.CaseFileID = cf.ID
		if d.Created.IsZero() {
			d.Created = cf.Created
		}
		d.Lines = nil
		for _, sg := range cf.Signers {
			if d.Signable && signsDocument(sg, d) {
				d.Lines = append(d.Lines, &signatureLine{ID: c.nextRow, SignerID: sg.ID, Role: sg.Role, SignOrder: sg.SignOrder})
				c.nextRow++
			}
		}
		c.docs[d.DocumentID] = d
		c.docsByID[d.ID] = d
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

// remove forgets a case file and its documents; call with c.mu held.
func (c *caseFileStore) removeLocked(cf *CaseFile) {
	for _, d := range cf.Documents {
		delete(c.docs, d.DocumentID)
		delete(c.docsByID, d.ID)
	}
	delete(c.files, cf.ID)
}

// Document answers a document by its integer id (all digits) or by its string
// documentId key
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi,
// "Document ids").
func (c *caseFileStore) Document(key string) *Document {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if id, ok := allDigits(key); ok {
		return c.docsByID[id]
	}
	return c.docs[key]
}

// allDigits parses a path segment made only of ASCII digits.
func allDigits(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		n = n*10 + int64(r-'0')
	}
	return n, true
}
