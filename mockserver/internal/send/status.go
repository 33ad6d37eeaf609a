package send

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// queueStatusJSON is the answer of the queue status check, with every field the
// vendor's QueueJob schema requires
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Queue status"). payload is the data part of the create request as sent.
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
	SigningLinks []Link `json:"signingLinks"`
}

// Link is a signer's signing link, as the queue status answers it.
type Link struct {
	Name        string `json:"name"`
	Role        string `json:"role"`
	Email       string `json:"email"`
	SigningLink string `json:"signingLink"`
}

// StatusLimit is how many status checks one (uuid, payloadHash) pair may make
// per minute of wall-clock time
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Queue status").
const StatusLimit = 20

// HandleStatus is POST {Send}/api/v1/queue/public/status (no token):
// {"uuid","payloadHash"} → the job's state, with the case file id and one
// signing link per signer once completed; an unknown pair, or a job past
// its retention (retention.go) → 404 {"message":"Job not found","statusCode":404}. Each pair may ask
// StatusLimit times per minute of wall-clock time (not mock time, so
// a test that moves the mock clock is never locked out); then 429 with
// Retry-After in seconds.
func (svc *Service) HandleStatus(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		UUID        string `json:"uuid"`
		PayloadHash string `json:"payloadHash"`
	}
	if err := wire.DecodeJSON(w, r, svc.cfg.MaxBodyBytes, &body); err != nil {
		return err
	}
	if ok, wait := svc.polls.allow(body.UUID + "\x00" + strings.ToLower(body.PayloadHash)); !ok {
		secs := int64((wait + time.Second - 1) / time.Second)
		w.Header().Set("Retry-After", strconv.FormatInt(max(secs, 1), 10))
		return &wire.Error{Status: http.StatusTooManyRequests, Code: "too_many_requests",
			Message: fmt.Sprintf("at most %d status checks per minute for one job: retry in %d s", StatusLimit, max(secs, 1))}
	}
	j, ok := svc.jobs.lookup(body.UUID, body.PayloadHash, svc.cfg.JobRetention, svc.cfg.Clock.Now())
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
		res.Data.SigningLinks = svc.cfg.Links(j.CaseFileID, r)
		out.Result = res
	}
	wire.WriteJSON(w, http.StatusOK, out)
	return nil
}
