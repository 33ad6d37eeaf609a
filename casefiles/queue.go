package casefiles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/internal/apierror"
	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/transport"
)

// statusPath is the queue status check under {Send}.
const statusPath = "/api/v1/queue/public/status"

// Polling of Wait: the first check at once, then waits growing from
// pollFirst by pollFactor up to pollMax, each jittered by ±pollJitter. The
// shortest possible waits (0.8 s, 1.2 s, 1.8 s, 2.7 s, 4.05 s, 6.1 s, then
// 8 s) allow at most 12 checks in any minute, under the service's 20.
const (
	pollFirst  = time.Second
	pollFactor = 1.5
	pollMax    = 10 * time.Second
	pollJitter = 0.2
	// maxPollFailures is how many status checks in a row may fail with a
	// transient error (5xx, 429, a network error); one more ends Wait.
	maxPollFailures = 3
)

// statusAnswer is the queue status check's answer
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// Queue status).
type statusAnswer struct {
	UUID        string          `json:"uuid"`
	Type        string          `json:"type"`
	Payload     json.RawMessage `json:"payload"`
	PayloadHash string          `json:"payloadHash"`
	JobStatus   JobState        `json:"jobStatus"`
	Retries     flexInt         `json:"retries"`
	MaxRetries  flexInt         `json:"maxRetries"`
	Result      *struct {
		Data struct {
			CaseFile struct {
				ID int64 `json:"id"`
			} `json:"caseFile"`
			SigningLinks []struct {
				Name        string `json:"name"`
				Role        string `json:"role"`
				Email       string `json:"email"`
				SigningLink string `json:"signingLink"`
			} `json:"signingLinks"`
		} `json:"data"`
	} `json:"result"`
	ErrorMessage string    `json:"errorMessage"`
	CreatedAt    *unixTime `json:"createdAt"`
	UpdatedAt    *unixTime `json:"updatedAt"`
}

// status converts the answer.
func (a *statusAnswer) status() *JobStatus {
	st := &JobStatus{
		State: a.JobStatus, ErrorMessage: a.ErrorMessage,
		UUID: a.UUID, Type: a.Type, PayloadHash: a.PayloadHash, Retries: int(a.Retries), MaxRetries: int(a.MaxRetries),
		CreatedAt: a.CreatedAt.time(), UpdatedAt: a.UpdatedAt.time(),
	}
	if len(a.Payload) > 0 && string(a.Payload) != "null" {
		st.Payload = a.Payload
	}
	if r := a.Result; r != nil && (r.Data.CaseFile.ID != 0 || len(r.Data.SigningLinks) > 0) {
		res := &Result{CaseFileID: r.Data.CaseFile.ID}
		for _, l := range r.Data.SigningLinks {
			res.SigningLinks = append(res.SigningLinks, SigningLink{Name: l.Name, Role: l.Role, Email: l.Email, URL: l.SigningLink})
		}
		st.Result = res
	}
	return st
}

// Status asks the queue status check (which needs no token) for the state
// of job. Result is set once the job has completed; ErrorMessage once it
// has failed or was aborted as a duplicate. A job the platform does not
// know, because it never existed or because it has expired or been
// deleted (see Job), is an error for which errors.Is(err,
// signkit.ErrNotFound) holds and whose message says so.
func (c *Client) Status(ctx context.Context, job *Job) (*JobStatus, error) {
	if job == nil || job.UUID == "" || job.PayloadHash == "" {
		return nil, invalid("request", Problem{Field: "job", Message: "needs a UUID and a PayloadHash"})
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("casefiles: status of job %s: %w", job.UUID, err)
	}
	req := &transport.Request{
		Method: http.MethodPost,
		URL:    c.send() + statusPath,
		Auth:   transport.NoAuth,
		JSON:   job.key(),
		Resend: retry.Always, // read-only: https://github.com/signkit/signkit-go/blob/main/docs/retries.md
	}
	var out statusAnswer
	if err := c.t().Do(ctx, req, &out); err != nil {
		if errors.Is(err, apierror.ErrNotFound) {
			return nil, fmt.Errorf("casefiles: status of job %s: the platform does not know the job; "+
				"it may have expired or been deleted (docs/platform.md, Queue status): %w", job.UUID, err)
		}
		return nil, fmt.Errorf("casefiles: status of job %s: %w", job.UUID, err)
	}
	return out.status(), nil
}

// Wait polls the status of job until it has completed, and returns its
// Result; or until it has failed, and returns a *JobFailedError with the
// job's message; or until the platform aborted it as a duplicate of a job
// it had accepted before, and returns a *DuplicateError (errors.Is(err,
// ErrDuplicate) holds) with the first job's uuid when the platform names it.
//
// When the job was aborted as a duplicate because the SDK itself re-sent
// the create (Job.Resent: the first copy was accepted though its answer
// was lost), Wait follows the first job instead and returns its result as
// this job's: the first job is the one the platform's message names (same
// PayloadHash), or else the one case file among the user's (List) with the
// job's title created since the create was sent. When neither finds
// exactly one, the *DuplicateError is returned.
//
// It checks at once, then after waits that grow from 1 s by
// half each time up to 10 s (jittered), which keeps it under the service's
// 20 requests a minute per job. A transient failure of a check (a 5xx, 429
// or network error) is tolerated up to 3 times in a row; any other error
// ends Wait, as does ctx (Wait then returns an error wrapping ctx.Err()).
// A job the platform no longer knows (expired or deleted; see Job) ends
// Wait with an error matching signkit.ErrNotFound: store the Result as
// soon as Wait returns it, since the job will not answer for ever.
func (c *Client) Wait(ctx context.Context, job *Job) (*Result, error) {
	res, err := c.wait(ctx, job)
	var dup *DuplicateError
	if err != nil && job != nil && job.Resent && errors.As(err, &dup) {
		return c.followFirst(ctx, job, dup)
	}
	return res, err
}

// wait is Wait without following the first job of a duplicate.
func (c *Client) wait(ctx context.Context, job *Job) (*Result, error) {
	delay, failures := pollFirst, 0
	for {
		st, err := c.Status(ctx, job)
		switch {
		case err != nil && ctx.Err() == nil && transient(err) && failures < maxPollFailures:
			failures++
		case err != nil:
			return nil, err
		case st.State == JobCompleted && st.Result == nil:
			return nil, fmt.Errorf("casefiles: job %s completed without a result", job.UUID)
		case st.State == JobCompleted:
			return st.Result, nil
		case st.State == JobFailed:
			return nil, &JobFailedError{Job: *job, Message: st.ErrorMessage}
		case st.State == JobAbortedDuplicated:
			return nil, newDuplicateError(*job, st.ErrorMessage)
		default:
			failures = 0
		}
		if err := sleep(ctx, jitter(delay)); err != nil {
			return nil, fmt.Errorf("casefiles: waiting for job %s: %w", job.UUID, err)
		}
		delay = min(time.Duration(float64(delay)*pollFactor), pollMax)
	}
}

// transient reports whether a failed status check may succeed later.
func transient(err error) bool {
	var apiErr *apierror.Error
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500 || apiErr.StatusCode == http.StatusTooManyRequests
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF)
}

// jitter returns d moved at random by up to ±pollJitter of itself.
func jitter(d time.Duration) time.Duration {
	spread := time.Duration(float64(d) * pollJitter)
	return d - spread + rand.N(2*spread+1)
}

// sleep waits for d or until ctx ends, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
