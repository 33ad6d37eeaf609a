package mockserver

import (
	"crypto/subtle"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Job states of the queue status check.
const (
	jobPending    = "pending"
	jobProcessing = "processing"
	jobCompleted  = "completed"
	jobFailed     = "failed"
)

// job is a queued case file creation.
type job struct {
	UUID, PayloadHash    string
	UserID, CustomerID   int64
	State                string
	CreatedAt, UpdatedAt time.Time
	CaseFileID           int64
	ErrorMessage         string

	def   *sendCaseFile
	files []uploadedFile
	dir   string
}

// jobStore holds the Send jobs by uuid.
type jobStore struct {
	mu   sync.Mutex
	jobs map[string]*job
}

func newJobStore() *jobStore { return &jobStore{jobs: map[string]*job{}} }

func (js *jobStore) reset() {
	js.mu.Lock()
	defer js.mu.Unlock()
	js.jobs = map[string]*job{}
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

// queueJob stores a pending job for a validated upload and schedules it to
// run after the job delay of mock time.
func (s *Server) queueJob(u *user, def *sendCaseFile, up *sendUpload) *job {
	now := s.Now()
	j := &job{UUID: newUUID(), PayloadHash: up.hash, UserID: u.ID, CustomerID: u.CustomerID, State: jobPending,
		CreatedAt: now, UpdatedAt: now, def: def, files: up.files, dir: up.dir}
	s.sign.jobs.mu.Lock()
	s.sign.jobs.jobs[j.UUID] = j
	s.sign.jobs.mu.Unlock()
	s.clock.after(s.cfg.jobDelay, func() { s.runJob(j) })
	return j
}

// runJob creates the case file of a job; the store's add hook activates it.
func (s *Server) runJob(j *job) {
	s.sign.jobs.set(j, func(j *job) { j.State, j.UpdatedAt = jobProcessing, s.Now() })
	cf, err := jobCaseFile(j, s.Now())
	if err != nil {
		_ = os.RemoveAll(j.dir)
		s.sign.jobs.set(j, func(j *job) { j.State, j.ErrorMessage, j.UpdatedAt = jobFailed, err.Error(), s.Now() })
		return
	}
	s.cases.add(cf)
	s.sign.jobs.set(j, func(j *job) { j.State, j.CaseFileID, j.UpdatedAt = jobCompleted, cf.ID, s.Now() })
}

// jobCaseFile turns a job's definition and files into a new case file.
func jobCaseFile(j *job, now time.Time) (*caseFile, error) {
	def := j.def
	cf := &caseFile{Title: def.Title, UserID: j.UserID, CustomerID: j.CustomerID, Created: now, Updated: now,
		ExpireAt: def.expireAt}
	for _, sg := range def.Signers {
		ns := &signer{Name: sg.Name, Email: sg.Email, Role: sg.Role, Texts: emailTexts{
			RequestSubject: sg.EmailSubject, RequestText: sg.EmailText,
			ReminderSubject: sg.ReminderEmailSubject, ReminderText: sg.ReminderEmailText,
			CompletedSubject: sg.CompletedEmailSubject, CompletedText: sg.CompletedEmailText}}
		if sg.SignOrder != nil {
			ns.SignOrder = *sg.SignOrder
		}
		if sg.ReminderInterval != nil {
			ns.ReminderInterval = *sg.ReminderInterval
		}
		cf.Signers = append(cf.Signers, ns)
	}
	for _, d := range def.Documents {
		for _, f := range j.files {
			if f.Name != d.Name {
				continue
			}
			if _, err := os.Stat(f.Path); err != nil {
				return nil, errGone(d.Name)
			}
			cf.Documents = append(cf.Documents, &document{Title: cmpOr(d.Title, d.Name), Signable: d.signable(),
				Format: "pdf", Roles: d.Roles, FileSize: f.Size, origPath: f.Path})
		}
	}
	return cf, nil
}

// errGone is the failure of a job whose uploaded files were removed (by a
// reset between acceptance and execution).
type errGone string

func (e errGone) Error() string { return "the uploaded file " + string(e) + " is no longer available" }

// queueStatusJSON is the answer of the queue status check.
type queueStatusJSON struct {
	UUID         string       `json:"uuid"`
	Type         string       `json:"type"`
	JobStatus    string       `json:"jobStatus"`
	Result       *queueResult `json:"result"`
	ErrorMessage *string      `json:"errorMessage"`
	CreatedAt    time.Time    `json:"createdAt"`
	UpdatedAt    time.Time    `json:"updatedAt"`
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

// handleQueueStatus is POST {Send}/api/v1/queue/public/status (no token):
// {"uuid","payloadHash"} → the job's state, with the case file id and one
// signing link per signer once completed; an unknown pair → 404.
func (s *Server) handleQueueStatus(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		UUID        string `json:"uuid"`
		PayloadHash string `json:"payloadHash"`
	}
	if err := decodeJSON(w, r, s.cfg.maxBodyBytes, &body); err != nil {
		return err
	}
	j, ok := s.sign.jobs.lookup(body.UUID, body.PayloadHash)
	if !ok {
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Job not found", "statusCode": http.StatusNotFound})
		return nil
	}
	out := queueStatusJSON{UUID: j.UUID, Type: "casefile_creation", JobStatus: j.State,
		CreatedAt: j.CreatedAt.UTC(), UpdatedAt: j.UpdatedAt.UTC()}
	if j.ErrorMessage != "" {
		out.ErrorMessage = &j.ErrorMessage
	}
	if j.State == jobCompleted {
		res := &queueResult{}
		res.Data.CaseFile.ID = j.CaseFileID
		res.Data.SigningLinks = s.signingLinks(j.CaseFileID, baseURLOf(r))
		out.Result = res
	}
	writeJSON(w, http.StatusOK, out)
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
