package send

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// Job states of the queue status check
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Queue status").
const (
	jobPending    = "pending"
	jobProcessing = "processing"
	jobCompleted  = "completed"
	jobFailed     = "failed"
	jobDuplicate  = "aborted_duplicated"
)

// duplicateWindow is how long, in mock time from a Job's acceptance, the same
// payload from the same user is refused as a duplicate
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Duplicates").
const duplicateWindow = 24 * time.Hour

// Job is a queued case file creation.
type Job struct {
	UUID, PayloadHash    string
	UserID, CustomerID   int64
	State                string
	CreatedAt, UpdatedAt time.Time
	CaseFileID           int64
	ErrorMessage         string
	DuplicateOf          string          // uuid of the first Job with this payload; "": not a duplicate
	Payload              json.RawMessage // the data part as sent

	// Def, Files and Dir are what the job creates its case file from: the
	// validated definition and the uploaded files; a duplicate has none.
	Def   *CaseFile
	Files []File
	Dir   string
}

// FileOf answers the content of the job's document i: the files part
// named by the document, or on the JSON route the document's own pdf
// (File.Field set).
func (j *Job) FileOf(i int) (File, bool) {
	if j.Def == nil || i < 0 || i >= len(j.Def.Documents) {
		return File{}, false
	}
	for _, f := range j.Files {
		if f.Field != "" && f.Doc == i || f.Field == "" && f.Name == j.Def.Documents[i].Name {
			return f, true
		}
	}
	return File{}, false
}

// dupKey names a payload of a user.
type dupKey struct {
	userID int64
	hash   string
}

// jobStore holds the Send jobs by uuid, and the first Job of each payload
// of each user for duplicate detection.
type jobStore struct {
	mu    sync.Mutex
	jobs  map[string]*Job
	first map[dupKey]*Job
}

func newJobStore() *jobStore { return &jobStore{jobs: map[string]*Job{}, first: map[dupKey]*Job{}} }

func (js *jobStore) reset() {
	js.mu.Lock()
	defer js.mu.Unlock()
	js.jobs, js.first = map[string]*Job{}, map[dupKey]*Job{}
}

// count answers how many jobs exist.
func (js *jobStore) count() int {
	js.mu.Lock()
	defer js.mu.Unlock()
	return len(js.jobs)
}

// lookup answers a copy of the Job with this uuid and payload hash,
// unless it is past its retention at now (retention.go).
func (js *jobStore) lookup(uuid, payloadHash string, retention time.Duration, now time.Time) (Job, bool) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j := js.jobs[uuid]
	if j == nil || subtle.ConstantTimeCompare([]byte(strings.ToLower(payloadHash)), []byte(j.PayloadHash)) != 1 ||
		j.expired(retention, now) {
		return Job{}, false
	}
	return *j, true
}

// set changes a Job's state under the lock.
func (js *jobStore) set(j *Job, fn func(j *Job)) {
	js.mu.Lock()
	defer js.mu.Unlock()
	fn(j)
}

// store adds a new Job. When the same user's same payload was accepted
// less than duplicateWindow ago, the Job is marked a duplicate of that
// first Job and keeps no definition or files; otherwise it becomes the
// first of its payload, and its window starts. A duplicate never restarts
// the window; of two jobs stored at once, the one stored first counts.
// store answers whether j is a duplicate.
func (js *jobStore) store(j *Job) bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	key := dupKey{j.UserID, j.PayloadHash}
	if first := js.first[key]; first != nil && j.CreatedAt.Before(first.CreatedAt.Add(duplicateWindow)) {
		j.DuplicateOf = first.UUID
		j.Def, j.Files, j.Dir = nil, nil, ""
	} else {
		js.first[key] = j
	}
	js.jobs[j.UUID] = j
	return j.DuplicateOf != ""
}

// queue stores a pending job for a validated upload and schedules it to
// run after the Job delay of mock time. A duplicate keeps no files.
func (svc *Service) queue(userID, customerID int64, def *CaseFile, up *upload) *Job {
	now := svc.cfg.Clock.Now()
	j := &Job{UUID: ids.UUID(), PayloadHash: up.hash, UserID: userID, CustomerID: customerID, State: jobPending,
		CreatedAt: now, UpdatedAt: now, Payload: json.RawMessage(up.data), Def: def, Files: up.files, Dir: up.dir}
	if svc.jobs.store(j) {
		up.remove()
	}
	svc.cfg.Clock.After(svc.cfg.JobDelay, func() { svc.run(j) })
	return j
}

// run creates the case file of a job through Config.Create. A duplicate
// ends aborted_duplicated, naming the first job, and creates nothing; the
// case file place reserved at acceptance is given back then, and when the
// creation fails.
func (svc *Service) run(j *Job) {
	now := svc.cfg.Clock.Now
	if j.DuplicateOf != "" {
		msg := fmt.Sprintf("Duplicate payload: the same payload (payloadHash %s) was already submitted by job %s "+
			"within the last 24 hours; no case file was created", j.PayloadHash, j.DuplicateOf)
		svc.jobs.set(j, func(j *Job) { j.State, j.ErrorMessage, j.UpdatedAt = jobDuplicate, msg, now() })
		svc.cfg.GiveCaseFile(j.CustomerID)
		svc.retire(j)
		return
	}
	svc.jobs.set(j, func(j *Job) { j.State, j.UpdatedAt = jobProcessing, now() })
	id, err := svc.cfg.Create(j)
	if err != nil {
		_ = os.RemoveAll(j.Dir)
		svc.jobs.set(j, func(j *Job) { j.State, j.ErrorMessage, j.UpdatedAt = jobFailed, err.Error(), now() })
		svc.cfg.GiveCaseFile(j.CustomerID)
		svc.retire(j)
		return
	}
	svc.jobs.set(j, func(j *Job) { j.State, j.CaseFileID, j.UpdatedAt = jobCompleted, id, now() })
	svc.retire(j)
}
