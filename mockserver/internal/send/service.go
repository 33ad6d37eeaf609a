// Package send is the mock's Send service: simple case file creation in
// one multipart request (streamed to disk, validated, queued as a job that
// runs after a delay of mock time) and the queue status check. The mock
// server wires it to the signing store, which creates the case file of a
// job, through Config.
package send

import (
	"errors"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/clock"
	"github.com/signkit/signkit-go/mockserver/internal/tmpdir"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Caller is who makes a request, as the server authenticated them.
type Caller struct {
	UserID, CustomerID int64
}

// Config connects the service to the rest of the server.
type Config struct {
	// Clock dates jobs and runs them JobDelay after their acceptance.
	Clock    *clock.Clock
	JobDelay time.Duration
	// JobRetention is how long after it ended a job is kept for its status
	// checks; 0 keeps it until reset (retention.go).
	JobRetention time.Duration
	// MaxUploadBytes bounds a create request; MaxBodyBytes a status check.
	MaxUploadBytes, MaxBodyBytes int64
	// MaxDocuments bounds the documents of a create request (below 1:
	// DefaultMaxDocuments).
	MaxDocuments int
	// Temp holds the uploaded files.
	Temp *tmpdir.Dir
	// CallerOf answers who made an authenticated request.
	CallerOf func(*http.Request) Caller
	// TakePlaces reserves a job and a case file for a customer, or answers
	// the server's limit error; GiveCaseFile frees the case file place of a
	// job that created none.
	TakePlaces   func(customerID int64) error
	GiveCaseFile func(customerID int64)
	// GiveJob frees the job place of a job forgotten after its retention.
	GiveJob func(customerID int64)
	// Create makes the case file of a job and answers its id.
	Create func(*Job) (int64, error)
	// Links answers the signing links of a case file, for a request to the
	// server.
	Links func(caseFileID int64, r *http.Request) []Link
}

// DefaultMaxDocuments is the most documents a create request carries unless
// Config says otherwise: the mock's choice, as no vendor source gives the
// platform's
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const DefaultMaxDocuments = 1000

// Service holds the jobs. Its methods are safe for concurrent use.
type Service struct {
	cfg   Config
	jobs  *jobStore
	polls *rateLimiter // queue status checks per job, on the wall clock
}

// New answers a service with no jobs.
func New(cfg Config) *Service {
	return &Service{cfg: cfg, jobs: newJobStore(), polls: newRateLimiter(StatusLimit, time.Minute, time.Now)}
}

// Reset forgets every job and status check (the server removes the
// uploaded files with its temporary directory).
func (svc *Service) Reset() {
	svc.jobs.reset()
	svc.polls.reset()
}

// SetWallClock sets the wall clock that the status check's rate limit
// counts on (default time.Now), for tests.
func (svc *Service) SetWallClock(now func() time.Time) {
	svc.polls.mu.Lock()
	defer svc.polls.mu.Unlock()
	svc.polls.now = now
}

// maxDocuments answers the bound on a create request's documents.
func (svc *Service) maxDocuments() int {
	if svc.cfg.MaxDocuments < 1 {
		return DefaultMaxDocuments
	}
	return svc.cfg.MaxDocuments
}

// Count answers how many jobs there are.
func (svc *Service) Count() int { return svc.jobs.count() }

// HandleCreate is POST {Send}/api/v1/casefiles/20251022/create: it streams the
// multipart upload to disk, validates it (nothing kept when it fails), queues a
// job that runs after the job delay, and answers 200 (as the vendor's
// collection asserts;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1)
// with the job's uuid and payloadHash, both at the top level and in jobs[0]. A
// duplicate payload is accepted the same way; its job ends aborted_duplicated
// (queue.go). A refused input is answered as the platform does (refusal).
func (svc *Service) HandleCreate(w http.ResponseWriter, r *http.Request) error {
	return refusal(svc.create(w, r, svc.readUpload))
}

// HandleCreateJSON is POST
// {Send}/api/v1/casefiles/json/20251022/create-production-base64, the
// route of the vendor's connector: the body is {"caseFile":{...}} whose
// documents carry their PDF in "pdf", base64-encoded (jsonbody.go). Rules,
// limits, duplicate detection (payloadHash over the body as received) and
// answer are those of HandleCreate. It serves the sandbox connector's
// route …/json/20251022/create-sandbox-base64 too, whose schemas are the
// same.
func (svc *Service) HandleCreateJSON(w http.ResponseWriter, r *http.Request) error {
	return refusal(svc.create(w, r, svc.readJSONUpload))
}

// create reads a create request with read, validates it, reserves the
// customer's places and queues its job.
func (svc *Service) create(w http.ResponseWriter, r *http.Request, read func(*http.Request) (*upload, error)) error {
	u := svc.cfg.CallerOf(r)
	limit := svc.cfg.MaxUploadBytes
	if r.ContentLength > limit {
		return wire.TooLarge(limit)
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	up, err := read(r)
	if err != nil {
		return err
	}
	def, p := validate(up, svc.cfg.Clock.Now())
	if limit := svc.maxDocuments(); def != nil && len(def.Documents) > limit {
		up.remove() // the multipart route's data part (the JSON route stops at the bound)
		return errTooManyDocuments("caseFile.documents", limit)
	}
	if err := p.err(); err != nil {
		up.remove()
		return err
	}
	if err := svc.cfg.TakePlaces(u.CustomerID); err != nil {
		up.remove()
		return err
	}
	j := svc.queue(u.UserID, u.CustomerID, def, up)
	created := j.CreatedAt.UTC()
	wire.WriteJSON(w, http.StatusOK, map[string]any{
		"uuid": j.UUID, "payloadHash": j.PayloadHash, "status": "handled", "message": "Job created",
		"jobs": []map[string]any{{"uuid": j.UUID, "payloadHash": j.PayloadHash, "createdAt": created}},
	})
	return nil
}

// refusal turns the refusal of a create request's input (a malformed body, a
// wrong media type, a broken rule) into the platform's answer: 400
// {"error":"Bad Request","message","statusCode":400}, with the mock's details
// beside them
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// Other errors (401, 413, the limits' 409, 429 and 507) pass unchanged.
func refusal(err error) error {
	var we *wire.Error
	if !errors.As(err, &we) {
		return err
	}
	switch we.Status {
	case http.StatusBadRequest, http.StatusUnsupportedMediaType, http.StatusUnprocessableEntity:
		return &wire.Error{Status: http.StatusBadRequest, Code: wire.PlatformBadRequest, Message: we.Message, Details: we.Details}
	}
	return err
}
