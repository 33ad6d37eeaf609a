package casefiles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/signkit/signkit-go/internal/apierror"

	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/transport"
)

// createPath is the create endpoint under {Send}; 20251022 is the API's
// date-like version segment.
const createPath = "/api/v1/casefiles/20251022/create"

// Client calls the simple case file creation service (Create, Status, Wait)
// and the signing service (Get, List, All, Delete, DownloadDocument,
// DocumentContent, and the signing requests: UpdateSigningRequest,
// ResendSigningRequest, SigningRequestLink). Get it
// as the CaseFiles field of a signkit.Client; it is safe for concurrent use.
//
// signkit.NewClient is the only way to make one: a Client is defined over the
// SDK's internal connection
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#one-way-in).
type Client transport.Service

// t answers the transport the client's requests go through.
func (c *Client) t() *transport.Client { return (*transport.Service)(c).Transport() }

// send answers {Send}, e.g. https://app.penneo.com/send.
func (c *Client) send() string { return (*transport.Service)(c).URLs().Send }

// sign answers {Sign}, e.g. https://app.penneo.com.
func (c *Client) sign() string { return (*transport.Service)(c).URLs().Sign }

// createAnswer holds both places the service puts the job's identity: the top
// level and jobs[0]
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// Create).
type createAnswer struct {
	Job
	Jobs []Job `json:"jobs"`
	// Status is "handled", or "error" when the platform refused the
	// request with a 2xx status (the connector's JobResponse).
	Status string `json:"status"`
}

// Create validates cf with uploads and creates the case file in one
// multipart request: a "data" text field holding {"caseFile":{...}}, then
// one "files" part per document, in the order of cf.Documents whatever the
// order of uploads (the upload's Name as file name, Content-Type
// application/pdf). Any 2xx answer is success (the platform answers 200);
// the job's uuid and payloadHash are read from the top level of the answer
// or from its jobs[0]. It returns the asynchronous job; Wait (or Status)
// gives the case file id and the signing links once the job has run.
//
// The platform refuses a duplicate: the same case file with the same files
// sent again by the same user (within 24 hours on the mock) is accepted
// here, but its job ends aborted_duplicated and Wait returns an error
// matching ErrDuplicate. Change something (the title, a reference) to send
// a case file again on purpose.
//
// That refusal makes the create safe to re-send, and the SDK does so after a
// 429, 502, 503, 504 or a lost connection
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md): the first
// copy may have been accepted before the answer was lost, and then the second
// one ends aborted_duplicated. The Job records it (Job.Resent) and Wait follows
// the first job, so the caller gets the one case file it asked for. When every
// attempt failed, the error matches signkit.ErrOutcomeUnknown (502, 503, 504, a
// lost connection) or signkit.ErrRateLimited (429): list the case files before
// sending again.
//
// A refusal of the platform is a *signkit.Error: a 400 for a case file
// it does not take (errors.Is(err, signkit.ErrValidation)), or a 2xx
// whose body says "status":"error", whose Message is the platform's and
// whose Code is "error" (no sentinel matches it; nothing was queued).
//
// An invalid case file is refused with a *ValidationError and nothing is
// sent. The body is streamed: each upload is opened when the body reaches
// it and closed after, with an exact Content-Length, and the body is
// rebuilt for every attempt (a renewal after 401, a re-send), so memory use
// does not depend on the size of the files. A 500 is not re-sent.
func (c *Client) Create(ctx context.Context, cf *CaseFile, uploads ...Upload) (*Job, error) {
	if err := cf.Validate(uploads...); err != nil {
		return nil, err
	}
	form, err := newForm(cf, uploads)
	if err != nil {
		return nil, fmt.Errorf("casefiles: create: %w", err)
	}
	req := &transport.Request{
		Method:      http.MethodPost,
		URL:         c.send() + createPath,
		Auth:        transport.XAuthToken,
		Body:        form.Open,
		ContentType: form.ContentType(),
		Resend:      retry.DuplicateSafe,
	}
	sentAt := time.Now()
	out, err := c.create(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("casefiles: create: %w", err)
	}
	job := out.Job
	if (job.UUID == "" || job.PayloadHash == "") && len(out.Jobs) > 0 {
		job = out.Jobs[0]
	}
	if job.UUID == "" || job.PayloadHash == "" {
		return nil, errors.New("casefiles: create: the answer has no job uuid and payloadHash")
	}
	job.Resent, job.Title, job.SentAt = req.Resent, cf.Title, sentAt
	return &job, nil
}

// create sends the create request and decodes its answer; a 2xx whose
// body says "status":"error" is returned as the platform's *signkit.Error.
func (c *Client) create(ctx context.Context, req *transport.Request) (*createAnswer, error) {
	resp, body, err := c.t().SendAndRead(ctx, req)
	if err != nil {
		return nil, err
	}
	var out createAnswer
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, fmt.Errorf("decoding the answer: %w", err)
	}
	if strings.EqualFold(out.Status, "error") {
		return nil, apierror.FromRefusal(resp, body)
	}
	return &out, nil
}
