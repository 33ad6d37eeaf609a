package casefiles

import (
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"time"
)

// Job identifies the asynchronous job that Create started. UUID and
// PayloadHash are needed to ask for its status; the other fields let Wait
// follow the first job when the SDK's own re-send of the create was
// refused as a duplicate of it. A Job encodes to JSON with all of them, so
// a stored job keeps working while the platform keeps the job.
//
// Jobs expire: the platform's queue status check answers 404 for a job that
// "has expired or been deleted" (its connector's description of that answer;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// Queue status), and says nothing of how long a job is kept. Status and Wait
// then return an error matching signkit.ErrNotFound. Store the Result (the case
// file id and the signing links) as soon as Wait returns it, and keep the case
// file id, not the Job, for later: Get reads the case file for as long as it
// exists.
type Job struct {
	UUID        string `json:"uuid"`
	PayloadHash string `json:"payloadHash"`
	// Resent is set by Create when the SDK sent the create again after an
	// attempt that may have taken effect (a 429, 502, 503, 504 or a lost
	// connection;
	// https://github.com/signkit/signkit-go/blob/main/docs/retries.md). The
	// platform refuses the second copy as a duplicate, and Wait then follows
	// the first job.
	Resent bool `json:"resent,omitempty"`
	// Title is the case file's title as Create sent it, and SentAt when
	// Create started sending: Wait uses them to find the first job's case
	// file with List when the platform's message does not name that job.
	Title  string    `json:"title,omitempty"`
	SentAt time.Time `json:"sentAt,omitzero"`
}

// key is the pair the queue status check takes.
func (j *Job) key() jobKey { return jobKey{UUID: j.UUID, PayloadHash: j.PayloadHash} }

// jobKey is the body of the queue status check
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// Queue status).
type jobKey struct {
	UUID        string `json:"uuid"`
	PayloadHash string `json:"payloadHash"`
}

// JobState is the state of a creation job.
type JobState string

// The states of a creation job
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// Queue status).
const (
	JobPending    JobState = "pending"    // accepted, not yet started
	JobProcessing JobState = "processing" // running
	JobCompleted  JobState = "completed"  // the case file exists; see JobStatus.Result
	JobFailed     JobState = "failed"     // no case file; see JobStatus.ErrorMessage
	// JobAbortedDuplicated: the platform had already accepted the same
	// payload (the same PayloadHash from the same user) and created no
	// second case file; ErrorMessage usually names the first job.
	JobAbortedDuplicated JobState = "aborted_duplicated"
)

// JobStatus is the answer of the queue status check.
type JobStatus struct {
	// State is the job's state.
	State JobState
	// Result is set once the job has completed.
	Result *Result
	// ErrorMessage says why a failed or aborted job ended so.
	ErrorMessage string

	// UUID and PayloadHash identify the job, as in Job.
	UUID, PayloadHash string
	// Type is the kind of job, "casefile_creation".
	Type string
	// Payload is the job's payload as the platform stored it: usually a
	// JSON object, kept raw (null when absent).
	Payload json.RawMessage
	// Retries is how often the platform has retried the job so far, and
	// MaxRetries how often it may.
	Retries, MaxRetries int
	// CreatedAt and UpdatedAt are when the job was accepted and last
	// changed.
	CreatedAt, UpdatedAt time.Time
}

// Result is what a completed job created.
type Result struct {
	// CaseFileID identifies the case file in the signing service (Get).
	CaseFileID int64
	// SigningLinks has one signing link per signer.
	SigningLinks []SigningLink
}

// SigningLink is the link behind which one signer signs. Deliver it
// yourself to signers created without an email.
type SigningLink struct {
	Name, Role, Email string
	URL               string // the signing page
}

// JobFailedError is returned by Wait when the creation job failed: no case
// file was created.
type JobFailedError struct {
	Job     Job
	Message string // the job's error message, as the service gave it
}

// Error names the job and gives the service's message.
func (e *JobFailedError) Error() string {
	if e.Message == "" {
		return "casefiles: job " + e.Job.UUID + " failed"
	}
	return "casefiles: job " + e.Job.UUID + " failed: " + e.Message
}

// ErrDuplicate is matched (errors.Is) by the error Wait returns when the
// platform aborted the job as a duplicate: it had already accepted the
// same case file with the same files from the same user, so no second case
// file was created and no second email sent. The error is a
// *DuplicateError.
var ErrDuplicate = errors.New("casefiles: duplicate case file")

// DuplicateError is returned by Wait when the job ended aborted_duplicated.
// errors.Is(err, ErrDuplicate) holds for it.
type DuplicateError struct {
	// Job is the aborted job.
	Job Job
	// FirstUUID is the uuid of the job that was accepted first, when the
	// platform's message names one (the first UUID in it other than Job's);
	// empty otherwise. Its Status (with the same PayloadHash) gives that
	// job's case file.
	FirstUUID string
	// Message is the platform's errorMessage.
	Message string
}

// Error says that the job was aborted as a duplicate, and of which job.
func (e *DuplicateError) Error() string {
	var b strings.Builder
	b.WriteString("casefiles: job " + e.Job.UUID + " aborted as a duplicate: the platform already accepted this case file")
	if e.FirstUUID != "" {
		b.WriteString(" as job " + e.FirstUUID)
	}
	b.WriteString(" and created no second one")
	if e.Message != "" {
		b.WriteString(" (" + e.Message + ")")
	}
	return b.String()
}

// Is reports whether target is ErrDuplicate.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }

// uuidRx finds a UUID in a message.
var uuidRx = regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)

// newDuplicateError builds the error of job from its message, taking the
// first UUID in the message that is not job's own as the first job's.
func newDuplicateError(job Job, message string) *DuplicateError {
	e := &DuplicateError{Job: job, Message: message}
	for _, u := range uuidRx.FindAllString(message, -1) {
		if !strings.EqualFold(u, job.UUID) {
			e.FirstUUID = u
			break
		}
	}
	return e
}
