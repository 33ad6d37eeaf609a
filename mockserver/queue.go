package mockserver

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Job states of the queue status check (docs/platform.md, "Queue status").
const (
	jobPending    = "pending"
	jobProcessing = "processing"
	jobCompleted  = "completed"
	jobFailed     = "failed"
	jobDuplicate  = "aborted_duplicated"
)

// duplicateWindow is how long, in mock time from a job's acceptance, the
// same payload from the same user is refused as a duplicate
// (docs/platform.md, "Duplicates").
const duplicateWindow = 24 * time.Hour

// job is a queued case file creation.
type job struct {
	UUID, PayloadHash    string
	UserID, CustomerID   int64
	State                string
	CreatedAt, UpdatedAt time.Time
	CaseFileID           int64
	ErrorMessage         string
	DuplicateOf          string          // uuid of the first job with this payload; "": not a duplicate
	Payload              json.RawMessage // the data part as sent

	def   *sendCaseFile
	files []uploadedFile
	dir   string
}

// dupKey names a payload of a user.
type dupKey struct {
	userID int64
	hash   string
}

// jobStore holds the Send jobs by uuid, and the first job of each payload
// of each user for duplicate detection.
type jobStore struct {
	mu    sync.Mutex
	jobs  map[string]*job
	first map[dupKey]*job
}

func newJobStore() *jobStore { return &jobStore{jobs: map[string]*job{}, first: map[dupKey]*job{}} }

func (js *jobStore) reset() {
	js.mu.Lock()
	defer js.mu.Unlock()
	js.jobs, js.first = map[string]*job{}, map[dupKey]*job{}
}

// count answers how many jobs exist.
func (js *jobStore) count() int {
	js.mu.Lock()
	defer js.mu.Unlock()
	return len(js.jobs)
}

// lookup answers a copy of the job with this uuid and payload hash.
func (js *jobStore) lookup(uuid, payloadHash string) (job, bool) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j := js.jobs[uuid]
	if j == nil || subtle.ConstantTimeCompare([]byte(strings.ToLower(payloadHash)), []byte(j.PayloadHash)) != 1 {
		return job{}, false
	}
	return *j, true
}

// set changes a job's state under the lock.
func (js *jobStore) set(j *job, fn func(j *job)) {
	js.mu.Lock()
	defer js.mu.Unlock()
	fn(j)
}

// store adds a new job. When the same user's same payload was accepted
// less than duplicateWindow ago, the job is marked a duplicate of that
// first job and keeps no definition or files; otherwise it becomes the
// first of its payload, and its window starts. A duplicate never restarts
// the window; of two jobs stored at once, the one stored first counts.
// store answers whether j is a duplicate.
func (js *jobStore) store(j *job) bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	key := dupKey{j.UserID, j.PayloadHash}
	if first := js.first[key]; first != nil && j.CreatedAt.Before(first.CreatedAt.Add(duplicateWindow)) {
		j.DuplicateOf = first.UUID
		j.def, j.files, j.dir = nil, nil, ""
	} else {
		js.first[key] = j
	}
	js.jobs[j.UUID] = j
	return j.DuplicateOf != ""
}

// queueJob stores a pending job for a validated upload and schedules it to
// run after the job delay of mock time. A duplicate keeps no files.
func (s *Server) queueJob(u *user, def *sendCaseFile, up *sendUpload) *job {
	now := s.Now()
	j := &job{UUID: ids.UUID(), PayloadHash: up.hash, UserID: u.ID, CustomerID: u.CustomerID, State: jobPending,
		CreatedAt: now, UpdatedAt: now, Payload: json.RawMessage(up.data), def: def, files: up.files, dir: up.dir}
	if s.sign.jobs.store(j) {
		up.remove()
	}
	s.clock.After(s.cfg.jobDelay, func() { s.runJob(j) })
	return j
}

// runJob creates the case file of a job; the store's add hook activates it.
// A duplicate ends aborted_duplicated, naming the first job, and creates
// nothing.
func (s *Server) runJob(j *job) {
	if j.DuplicateOf != "" {
		msg := fmt.Sprintf("Duplicate payload: the same payload (payloadHash %s) was already submitted by job %s "+
			"within the last 24 hours; no case file was created", j.PayloadHash, j.DuplicateOf)
		s.sign.jobs.set(j, func(j *job) { j.State, j.ErrorMessage, j.UpdatedAt = jobDuplicate, msg, s.Now() })
		s.quotas.caseFiles.give(j.CustomerID, 1) // its place was reserved at acceptance
		return
	}
	s.sign.jobs.set(j, func(j *job) { j.State, j.UpdatedAt = jobProcessing, s.Now() })
	cf, err := jobCaseFile(j, s.Now())
	if err != nil {
		_ = os.RemoveAll(j.dir)
		s.sign.jobs.set(j, func(j *job) { j.State, j.ErrorMessage, j.UpdatedAt = jobFailed, err.Error(), s.Now() })
		s.quotas.caseFiles.give(j.CustomerID, 1)
		return
	}
	s.cases.add(cf)
	s.sign.jobs.set(j, func(j *job) { j.State, j.CaseFileID, j.UpdatedAt = jobCompleted, cf.ID, s.Now() })
}

// jobCaseFile turns a job's definition and files into a new case file;
// documents keep the definition's order.
func jobCaseFile(j *job, now time.Time) (*caseFile, error) {
	def := j.def
	cf := &caseFile{Title: def.Title, UserID: j.UserID, CustomerID: j.CustomerID, Created: now, Updated: now,
		ExpireAt: def.ExpireAt.t, SendAt: def.SendAt.t, Language: def.Language, Reference: def.Reference,
		MetaData: def.MetaData, SensitiveData: def.SensitiveData, SignOnMeeting: def.SignOnMeeting,
		DisableNotificationsOwner: def.DisableNotificationsOwner, DisableEmailAttachments: def.DisableEmailAttachments}
	if def.FolderID != nil {
		cf.FolderID = *def.FolderID
	}
	if def.VisibilityMode != nil {
		cf.VisibilityMode = *def.VisibilityMode
	}
	for _, cc := range def.CCRecipients {
		cf.CCRecipients = append(cf.CCRecipients, ccRecipient{Name: cc.Name, Email: cc.Email,
			StoreAsContact: cc.StoreAsContact == nil || *cc.StoreAsContact})
	}
	for i := range def.Signers {
		cf.Signers = append(cf.Signers, jobSigner(&def.Signers[i]))
	}
	for i, d := range def.Documents {
		for _, f := range j.files {
			if f.Name != d.Name {
				continue
			}
			if _, err := os.Stat(f.Path); err != nil {
				return nil, errGone(d.Name)
			}
			nd := &document{Title: d.Title, Signable: d.signable(), Format: "pdf", Roles: d.Roles,
				FileSize: f.Size, origPath: f.Path, DocumentOrder: i, MetaData: d.MetaData}
			if d.DocumentOrder != nil {
				nd.DocumentOrder = *d.DocumentOrder
			}
			cf.Documents = append(cf.Documents, nd)
		}
	}
	return cf, nil
}

// jobSigner turns a signer of the definition into a case file's signer.
func jobSigner(sg *sendSigner) *signer {
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	ns := &signer{Name: sg.Name, Email: sg.Email, Role: sg.Role, Texts: emailTexts{
		RequestSubject: str(sg.EmailSubject), RequestText: str(sg.EmailText),
		ReminderSubject: str(sg.ReminderEmailSubject), ReminderText: str(sg.ReminderEmailText),
		CompletedSubject: str(sg.CompletedEmailSubject), CompletedText: str(sg.CompletedEmailText)},
		OnBehalfOf: sg.OnBehalfOf, SSNType: sg.SSNType, SSN: sg.SSN, VATIN: sg.VATIN, AccessControl: sg.AccessControl,
		Language: sg.Language, SuccessURL: str(sg.SuccessURL), FailURL: str(sg.FailURL),
		ActiveAt: sg.ActiveAt.t, ExpireAt: sg.ExpireAt.t, StoreAsContact: sg.StoreAsContact == nil || *sg.StoreAsContact,
		EmailFormat: sg.EmailFormat, EnableInsecureSigning: sg.EnableInsecureSigning,
		InsecureSigningMethods: sg.InsecureSigningMethods, SecureSigningMethods: sg.SecureSigningMethods}
	if sg.SignOrder != nil {
		ns.SignOrder = *sg.SignOrder
	}
	if sg.ReminderInterval != nil {
		ns.ReminderInterval = *sg.ReminderInterval
	}
	return ns
}

// errGone is the failure of a job whose uploaded files were removed (by a
// reset between acceptance and execution).
type errGone string

func (e errGone) Error() string { return "the uploaded file " + string(e) + " is no longer available" }

// queueStatusJSON is the answer of the queue status check, with every
// field the vendor's QueueJob schema requires (docs/platform.md, "Queue
// status"). payload is the data part of the create request as sent.
type queueStatusJSON struct {
	UUID         string          `json:"uuid"`
	Type         string          `json:"type"`
	Payload      json.RawMessage `json:"payload"`
	PayloadHash  string          `json:"payloadHash"`
	JobStatus    string          `json:"jobStatus"`
	Retries      int             `json:"retries"`
	MaxRetries   int             `json:"maxRetries"`
	Result       *queueResult    `json:"result"`
	ErrorMessage *string         `json:"errorMessage"`
	CreatedAt    time.Time       `json:"createdAt"`
	UpdatedAt    time.Time       `json:"updatedAt"`
}

type queueResult struct {
	Data queueData `json:"data"`
}

type queueData struct {
	CaseFile struct {
		ID int64 `json:"id"`
	} `json:"caseFile"`
	SigningLinks []signingLinkJSON `json:"signingLinks"`
}

type signingLinkJSON struct {
	Name        string `json:"name"`
	Role        string `json:"role"`
	Email       string `json:"email"`
	SigningLink string `json:"signingLink"`
}

// queueStatusLimit is how many status checks one (uuid, payloadHash) pair
// may make per minute of wall-clock time (docs/platform.md, "Queue status").
const queueStatusLimit = 20

// handleQueueStatus is POST {Send}/api/v1/queue/public/status (no token):
// {"uuid","payloadHash"} → the job's state, with the case file id and one
// signing link per signer once completed; an unknown pair → 404
// {"message":"Job not found","statusCode":404}. Each pair may ask
// queueStatusLimit times per minute of wall-clock time (not mock time, so
// a test that moves the mock clock is never locked out); then 429 with
// Retry-After in seconds.
func (s *Server) handleQueueStatus(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		UUID        string `json:"uuid"`
		PayloadHash string `json:"payloadHash"`
	}
	if err := wire.DecodeJSON(w, r, s.cfg.maxBodyBytes, &body); err != nil {
		return err
	}
	if ok, wait := s.sign.polls.allow(body.UUID + "\x00" + strings.ToLower(body.PayloadHash)); !ok {
		secs := int64((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
		return &wire.Error{Status: http.StatusTooManyRequests, Code: "too_many_requests",
			Message: fmt.Sprintf("at most %d status checks per minute for one job: retry in %d s", queueStatusLimit, max(secs, 1))}
	}
	j, ok := s.sign.jobs.lookup(body.UUID, body.PayloadHash)
	if !ok {
		wire.WriteJSON(w, http.StatusNotFound, map[string]any{"message": "Job not found", "statusCode": http.StatusNotFound})
		return nil
	}
	out := queueStatusJSON{UUID: j.UUID, Type: "casefile_creation", Payload: j.Payload, PayloadHash: j.PayloadHash,
		JobStatus: j.State, CreatedAt: j.CreatedAt.UTC(), UpdatedAt: j.UpdatedAt.UTC()}
	if j.ErrorMessage != "" {
		out.ErrorMessage = &j.ErrorMessage
	}
	if j.State == jobCompleted {
		res := &queueResult{}
		res.Data.CaseFile.ID = j.CaseFileID
		res.Data.SigningLinks = s.signingLinks(j.CaseFileID, baseURLOf(r))
		out.Result = res
	}
	wire.WriteJSON(w, http.StatusOK, out)
	return nil
}

// signingLinks answers one signing link per signer of a case file.
func (s *Server) signingLinks(caseFileID int64, base string) []signingLinkJSON {
	s.cases.mu.RLock()
	defer s.cases.mu.RUnlock()
	links := []signingLinkJSON{}
	cf := s.cases.files[caseFileID]
	if cf == nil {
		return links
	}
	for _, sg := range cf.Signers {
		link := ""
		if sg.Token != "" {
			link = signingPageURL(base, sg.Token)
		}
		links = append(links, signingLinkJSON{Name: sg.Name, Role: sg.Role, Email: sg.Email, SigningLink: link})
	}
	return links
}
