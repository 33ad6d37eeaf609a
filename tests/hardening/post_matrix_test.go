package hardening

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// What one POST of the matrix returns: the object's id, or an error.
type postResult struct {
	id     string
	resent bool // casefiles: Job.Resent
	err    error
}

// postOp is one creating POST of the SDK, what it creates, and how the SDK
// resolves a doubt about its outcome
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md).
type postOp struct {
	name   string
	method string
	path   string
	// resolves: the SDK re-sends the POST and finds the object a first
	// copy made; otherwise the caller gets ErrOutcomeUnknown or
	// ErrRateLimited.
	resolves bool
	count    func(mockserver.Stats) int
	do       func(ctx context.Context, c *signkit.Client) postResult
}

var postOps = []postOp{
	{"forms.Create", http.MethodPost, "/collect/api/v1/forms", false,
		func(s mockserver.Stats) int { return s.Forms },
		func(ctx context.Context, c *signkit.Client) postResult {
			f, err := c.Forms.Create(ctx, onboardingForm("post matrix"))
			if err != nil {
				return postResult{err: err}
			}
			return postResult{id: f.ExternalID}
		}},
	{"casefiles.Create+Wait", http.MethodPost, "/send/api/v1/casefiles/20251022/create", true,
		func(s mockserver.Stats) int { return s.CaseFiles },
		func(ctx context.Context, c *signkit.Client) postResult {
			cf, up := contract()
			job, err := c.CaseFiles.Create(ctx, cf, up)
			if err != nil {
				return postResult{err: err}
			}
			res, err := c.CaseFiles.Wait(ctx, job)
			if err != nil {
				return postResult{resent: job.Resent, err: err}
			}
			return postResult{id: fmt.Sprint(res.CaseFileID), resent: job.Resent}
		}},
	{"subscriptions.Create", http.MethodPost, "/webhook/api/v1/subscriptions", true,
		func(s mockserver.Stats) int { return s.Subscriptions },
		func(ctx context.Context, c *signkit.Client) postResult {
			s, err := c.Subscriptions.Create(ctx, &subscriptions.Request{
				Endpoint: receiver().URL + "/post-matrix", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
			if err != nil {
				return postResult{err: err}
			}
			if s.Secret == "" {
				return postResult{err: errors.New("the subscription has no secret")}
			}
			return postResult{id: s.ID}
		}},
}

// postFault is one column of the matrix.
type postFault struct {
	name string
	set  func(f *mockserver.Fault)
	// want is the error a POST that is not re-sent gets.
	want func(err error) bool
}

var postFaults = []postFault{
	{"503", func(f *mockserver.Fault) { f.Status = http.StatusServiceUnavailable },
		func(err error) bool {
			var e *signkit.Error
			return errors.Is(err, signkit.ErrOutcomeUnknown) && errors.As(err, &e) && e.StatusCode == 503 &&
				strings.Contains(err.Error(), "list or get")
		}},
	{"429", func(f *mockserver.Fault) { f.Status, f.RetryAfter = http.StatusTooManyRequests, 1 },
		func(err error) bool {
			var e *signkit.Error
			return errors.Is(err, signkit.ErrRateLimited) && !errors.Is(err, signkit.ErrOutcomeUnknown) &&
				errors.As(err, &e) && e.RetryAfter == time.Second
		}},
	{"dropped connection", func(f *mockserver.Fault) { f.Drop = true },
		func(err error) bool {
			var e *signkit.Error
			return errors.Is(err, signkit.ErrOutcomeUnknown) && !errors.As(err, &e)
		}},
}

// TestPostMatrix is the acceptance table of
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md for the POSTs
// that create: under each fault, before and after the operation takes effect,
// at most one object exists (exactly one "after"), and the caller gets that
// object, or ErrOutcomeUnknown / ErrRateLimited where the SDK cannot find it;
// never a silent duplicate, never an error while the one object exists and the
// SDK could have found it.
func TestPostMatrix(t *testing.T) {
	t.Parallel()
	for _, op := range postOps {
		for _, fault := range postFaults {
			for _, phase := range []mockserver.FaultPhase{mockserver.FaultBefore, mockserver.FaultAfter} {
				t.Run(fmt.Sprintf("%s/%s/%s", op.name, fault.name, phase), func(t *testing.T) {
					t.Parallel()
					runPostCell(t, op, fault, phase)
				})
			}
		}
	}
}

func runPostCell(t *testing.T, op postOp, fault postFault, phase mockserver.FaultPhase) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv, stop := startMock(mockserver.WithJobDelay(10 * time.Millisecond))
	defer stop()
	cnt := newCounter()
	cnt.next = &http.Transport{DisableKeepAlives: true} // no transparent re-sends by net/http
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: cnt, Timeout: 30 * time.Second}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	before := op.count(srv.Stats())
	f := mockserver.Fault{Method: op.method, Path: op.path, Phase: phase, Times: 1}
	fault.set(&f)
	if err := srv.InjectFault(f); err != nil {
		t.Fatal(err)
	}
	got := op.do(ctx, client)
	srv.ClearFaults()
	created := op.count(srv.Stats()) - before
	sent := cnt.count(op.method, op.path)

	switch {
	case phase == mockserver.FaultAfter && created != 1:
		t.Errorf("%d objects created, want exactly 1", created)
	case created > 1:
		t.Errorf("%d objects created, want at most 1", created)
	}
	if !op.resolves {
		if sent != 1 {
			t.Errorf("sent %d times, want 1: this POST is never re-sent after it was written", sent)
		}
		if !fault.want(got.err) {
			t.Errorf("error %v (%T), want the %s kind of docs/retries.md", got.err, got.err, fault.name)
		}
		return
	}
	if got.err != nil {
		t.Fatalf("error %v (%d created): the SDK could have found the object", got.err, created)
	}
	if sent != 2 {
		t.Errorf("sent %d times, want 2 (one re-send)", sent)
	}
	if created != 1 {
		t.Fatalf("%d objects created, want the one the caller got", created)
	}
	if op.name == "casefiles.Create+Wait" && !got.resent {
		t.Errorf("Job.Resent = false after a re-send")
	}
	setup, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	switch op.name {
	case "casefiles.Create+Wait":
		list, err := setup.CaseFiles.List(ctx, nil)
		if err != nil || len(list) != 1 || fmt.Sprint(list[0].ID) != got.id {
			t.Errorf("the caller got case file %s, the mock holds %+v (%v)", got.id, list, err)
		}
	case "subscriptions.Create":
		list, err := setup.Subscriptions.List(ctx)
		if err != nil || len(list) != 1 || list[0].ID != got.id {
			t.Errorf("the caller got subscription %s, the mock holds %v (%v)", got.id, list, err)
		}
	}
}

// TestResentByHandIsADuplicate: a caller who sends the same case file
// twice gets, from the second job, ErrDuplicate naming the first job;
// the SDK follows the first job only after its own re-send.
func TestResentByHandIsADuplicate(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, stop := startMock(mockserver.WithJobDelay(10 * time.Millisecond))
	defer stop()
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	cf, up := contract()
	first, err := client.CaseFiles.Create(ctx, cf, up)
	if err != nil {
		t.Fatal(err)
	}
	second, err := client.CaseFiles.Create(ctx, cf, up)
	if err != nil {
		t.Fatal(err)
	}
	if first.Resent || second.Resent {
		t.Fatalf("jobs sent once say Resent: %v %v", first.Resent, second.Resent)
	}
	_, err = client.CaseFiles.Wait(ctx, second)
	var dup *casefiles.DuplicateError
	if !errors.Is(err, casefiles.ErrDuplicate) || !errors.As(err, &dup) || dup.FirstUUID != first.UUID {
		t.Fatalf("Wait on the hand-made duplicate: %v, want ErrDuplicate naming %s", err, first.UUID)
	}
	if n := srv.Stats().CaseFiles; n != 1 {
		t.Errorf("%d case files, want 1", n)
	}
}
