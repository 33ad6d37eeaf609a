package hardening

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// The faults of the matrix, in column order.
type faultKind int

const (
	f500Before faultKind = iota // 500, the operation did not run
	f500After                   // 500, the operation ran (its answer is lost)
	f503                        // 503 with Retry-After: 1, before the operation
	f429                        // 429, before the operation
	fDrop                       // the connection is closed without an answer, before the operation
	fSlow                       // the operation ran, its answer takes longer than the client's timeout
	fExpired                    // the token expired: mock time moved 10 min 1 s
	nFaults
)

var faultNames = [nFaults]string{"500 before", "500 after", "503 Retry-After 1s", "429", "dropped connection", "slower than timeout", "expired token"}

// clientTimeout is the HTTP client's timeout in the slow cells; slowDelay is
// how long the mock holds its answer there.
const (
	clientTimeout = time.Second
	slowDelay     = 2500 * time.Millisecond
)

// What a call returns.
type errKind int

const (
	ok             errKind = iota // nil
	api500                        // *signkit.Error with StatusCode 500
	connErr                       // a *url.Error that is no timeout: the connection broke
	timeout                       // a net.Error whose Timeout() is true
	notFound                      // errors.Is(err, signkit.ErrNotFound)
	unknown503                    // *signkit.Error 503 matching signkit.ErrOutcomeUnknown
	limited                       // *signkit.Error 429 matching signkit.ErrRateLimited, not ErrOutcomeUnknown
	connUnknown                   // connErr that also matches signkit.ErrOutcomeUnknown
	timeoutUnknown                // timeout that also matches signkit.ErrOutcomeUnknown
)

func (k errKind) String() string {
	return [...]string{"nil", "*signkit.Error 500", "*url.Error (conn)", "timeout (net.Error)", "ErrNotFound",
		"ErrOutcomeUnknown (503)", "ErrRateLimited (429)", "ErrOutcomeUnknown (conn)", "ErrOutcomeUnknown (timeout)"}[k]
}

func (k errKind) matches(err error) bool {
	var apiErr *signkit.Error
	var urlErr *url.Error
	var netErr net.Error
	switch k {
	case ok:
		return err == nil
	case api500:
		return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusInternalServerError
	case connErr:
		return errors.As(err, &urlErr) && !urlErr.Timeout() && !errors.As(err, &apiErr)
	case timeout:
		return errors.As(err, &netErr) && netErr.Timeout() && !errors.As(err, &apiErr)
	case notFound:
		return errors.Is(err, signkit.ErrNotFound)
	case unknown503:
		return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusServiceUnavailable &&
			errors.Is(err, signkit.ErrOutcomeUnknown) && strings.Contains(err.Error(), "list or get")
	case limited:
		return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests &&
			errors.Is(err, signkit.ErrRateLimited) && !errors.Is(err, signkit.ErrOutcomeUnknown)
	case connUnknown:
		return connErr.matches(err) && errors.Is(err, signkit.ErrOutcomeUnknown)
	case timeoutUnknown:
		return timeout.matches(err) && errors.Is(err, signkit.ErrOutcomeUnknown)
	}
	return false
}

// cell is the expectation for one call under one fault: attempts of the
// call's request seen by the server, token requests during the call, the
// error, and whether the call's effect (row.effect) shows in the state.
type cell struct {
	attempts, tokens int
	err              errKind
	effect           bool
}

func c(attempts, tokens int, err errKind, effect bool) cell {
	return cell{attempts, tokens, err, effect}
}

type row struct {
	name   string
	method string
	path   func(fx *fixture) string
	call   func(ctx context.Context, c *signkit.Client, fx *fixture) error
	effect func(s *state) // what a call that took effect changes; nil: nothing
	cells  [nFaults]cell  // in faultKind order
}

// Columns: 500 before | 500 after | 503 Retry-After | 429 | dropped | slow | expired token.
// A slow answer comes after the operation took effect; the 503, 429 and dropped faults come
// before it, but the SDK cannot tell. The SDK's rules
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md): GET, PUT, DELETE, the
// queue status check, the Send create (the platform refuses a duplicate payload) and the
// subscription create (a second copy meets 409, resolved by a list) are re-sent on
// connection errors, 429, 502, 503, 504; any other POST only when the connection failed
// before the request was written, so it fails with ErrOutcomeUnknown (503, a lost
// connection, a timeout) or ErrRateLimited (429) and takes effect at most once; nothing is
// re-sent on 500; a 401 renews the token once and replays. A re-sent DELETE finds the
// subscription gone, which the SDK takes as the delete done.
var matrix = []row{
	{"forms.Create", "POST", fixed("/collect/api/v1/forms"),
		func(ctx context.Context, c *signkit.Client, _ *fixture) error {
			_, err := c.Forms.Create(ctx, onboardingForm("C"))
			return err
		}, func(s *state) { s.Forms++ },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(1, 0, unknown503, false), c(1, 0, limited, false), c(1, 0, connUnknown, false), c(1, 0, timeoutUnknown, true), c(2, 1, ok, true)}},
	{"forms.Get", "GET", func(fx *fixture) string { return "/collect/api/v1/forms/" + fx.formA },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			f, err := c.Forms.Get(ctx, fx.formA)
			return check(err, f != nil && f.ExternalID == fx.formA, "form %+v", f)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"forms.Update", "PUT", func(fx *fixture) string { return "/collect/api/v1/forms/" + fx.formB },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			f := onboardingForm("B2")
			f.Sections[0].Fields = append(f.Sections[0].Fields, forms.Field{Name: "phone", Label: "Phone", Type: forms.TypePhone})
			_, err := c.Forms.Update(ctx, fx.formB, f)
			return err
		}, func(s *state) { s.FormBFields = 4 },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 1, ok, true)}},
	{"forms.Publish", "POST", func(fx *fixture) string { return "/collect/api/v1/forms/" + fx.formB + "/publish" },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			f, err := c.Forms.Publish(ctx, fx.formB)
			return check(err, f != nil && f.Status == forms.StatusActive, "form %+v", f)
		}, func(s *state) { s.FormB = forms.StatusActive },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(1, 0, unknown503, false), c(1, 0, limited, false), c(1, 0, connUnknown, false), c(1, 0, timeoutUnknown, true), c(2, 1, ok, true)}},
	{"forms.Archive", "POST", func(fx *fixture) string { return "/collect/api/v1/forms/" + fx.formA + "/archive" },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			f, err := c.Forms.Archive(ctx, fx.formA)
			return check(err, f != nil && f.Status == forms.StatusArchived, "form %+v", f)
		}, func(s *state) { s.FormA = forms.StatusArchived },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(1, 0, unknown503, false), c(1, 0, limited, false), c(1, 0, connUnknown, false), c(1, 0, timeoutUnknown, true), c(2, 1, ok, true)}},
	{"forms.CreateRequest", "POST", func(fx *fixture) string { return "/collect/api/v1/forms/" + fx.formA + "/requests" },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			l, err := c.Forms.CreateRequest(ctx, fx.formA, &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{
				"email": {Value: "bob@example.com"}, "name": {Value: "Bob", Editable: true}}})
			return check(err, l != nil && l.RequestURL != "", "link %+v", l)
		}, func(s *state) { s.Requests++ },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(1, 0, unknown503, false), c(1, 0, limited, false), c(1, 0, connUnknown, false), c(1, 0, timeoutUnknown, true), c(2, 1, ok, true)}},
	{"forms.ListSubmissions", "GET", func(fx *fixture) string { return "/collect/api/v1/forms/" + fx.formA + "/submissions" },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			subs, err := c.Forms.ListSubmissions(ctx, fx.formA, nil)
			return check(err, len(subs) == 1 && subs[0].SubmissionID == fx.subID, "submissions %+v", subs)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"forms.Answers", "GET", func(fx *fixture) string {
		return fmt.Sprintf("/collect/api/v1/forms/%s/submissions/%d/answers", fx.formA, fx.subID)
	}, func(ctx context.Context, c *signkit.Client, fx *fixture) error {
		a, err := c.Forms.Answers(ctx, fx.formA, fx.subID)
		if err != nil {
			return err
		}
		got, found := a.Get("name")
		return check(nil, found && got.String() == "Ada", "answers %+v", a)
	}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"forms.Files", "GET", func(fx *fixture) string { return fmt.Sprintf("/collect/api/v1/casefiles/%d/files", fx.subCase) },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			files, err := c.Forms.Files(ctx, fx.subCase)
			return check(err, len(files) == 1 && files[0].Size == int64(len(samplePDF())), "files %+v", files)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"forms.DownloadFile", "GET", func(fx *fixture) string { return urlPath(fx.file.URL) },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			var buf bytes.Buffer
			n, err := c.Forms.DownloadFile(ctx, fx.file, &buf)
			return check(err, n == fx.file.Size && bytes.Equal(buf.Bytes(), samplePDF()), "downloaded %d bytes", n)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"casefiles.Create", "POST", fixed("/send/api/v1/casefiles/20251022/create"),
		func(ctx context.Context, c *signkit.Client, _ *fixture) error {
			cf, up := contract()
			j, err := c.CaseFiles.Create(ctx, cf, up)
			return check(err, j != nil && j.UUID != "", "job %+v", j)
		}, func(s *state) { s.CaseFiles++ },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 1, ok, true)}},
	{"casefiles.Status", "POST", fixed("/send/api/v1/queue/public/status"),
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			st, err := c.CaseFiles.Status(ctx, fx.job)
			return check(err, st != nil && st.Result != nil && st.Result.CaseFileID == fx.sendCase, "status %+v", st)
		}, nil,
		// The queue status check carries no token: an expired one changes nothing;
		// it is read-only, so it is re-sent like a GET.
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(1, 0, ok, false)}},
	{"casefiles.Get", "GET", func(fx *fixture) string { return fmt.Sprintf("/api/v1/casefiles/%d", fx.sendCase) },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			d, err := c.CaseFiles.Get(ctx, fx.sendCase)
			return check(err, d != nil && d.ID == fx.sendCase, "details %+v", d)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"casefiles.DownloadDocument", "GET", func(fx *fixture) string { return fmt.Sprintf("/api/v3/documents/%d/content", fx.documentID) },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			var buf bytes.Buffer
			n, err := c.CaseFiles.DownloadDocument(ctx, fx.documentID, &buf)
			return check(err, n > 0 && bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")), "downloaded %d bytes", n)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"casefiles.DocumentContent", "GET", func(fx *fixture) string { return fmt.Sprintf("/api/v3/documents/%d/content", fx.documentID) },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			d, err := c.CaseFiles.DocumentContent(ctx, fx.documentID)
			return check(err, d != nil && bytes.HasPrefix(d.Content, []byte("%PDF-")), "content %v", d != nil)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"subscriptions.Create", "POST", fixed("/webhook/api/v1/subscriptions"),
		func(ctx context.Context, c *signkit.Client, _ *fixture) error {
			s, err := c.Subscriptions.Create(ctx, &subscriptions.Request{
				Endpoint: receiver().URL + "/b", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
			return check(err, s != nil && s.ID != "" && s.Secret != "", "subscription %v", s != nil)
		}, func(s *state) { s.Subscriptions++ },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 1, ok, true)}},
	{"subscriptions.List", "GET", fixed("/webhook/api/v1/subscriptions"),
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			l, err := c.Subscriptions.List(ctx)
			return check(err, len(l) == 1 && l[0].ID == fx.subscription, "subscriptions %d", len(l))
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"subscriptions.Get", "GET", func(fx *fixture) string { return "/webhook/api/v1/subscriptions/" + fx.subscription },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			s, err := c.Subscriptions.Get(ctx, fx.subscription)
			return check(err, s != nil && s.ID == fx.subscription, "subscription %v", s != nil)
		}, nil,
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 0, ok, false), c(2, 1, ok, false)}},
	{"subscriptions.Update", "PUT", func(fx *fixture) string { return "/webhook/api/v1/subscriptions/" + fx.subscription },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			// Every field set, so the call is the PUT alone: with one unset,
			// a GET fills it first (tested in package webhooks).
			s, err := c.Subscriptions.Update(ctx, fx.subscription, &subscriptions.Request{
				Endpoint: receiver().URL + "/c", EventTypes: []webhooks.EventType{webhooks.SubscriptionTest},
				IsActive: signkit.Ptr(true)})
			return check(err, s != nil && strings.HasSuffix(s.Endpoint, "/c"), "subscription %v", s != nil)
		}, func(s *state) { s.Endpoint = receiver().URL + "/c" },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 1, ok, true)}},
	{"subscriptions.Delete", "DELETE", func(fx *fixture) string { return "/webhook/api/v1/subscriptions/" + fx.subscription },
		func(ctx context.Context, c *signkit.Client, fx *fixture) error {
			return c.Subscriptions.Delete(ctx, fx.subscription)
		}, func(s *state) { s.Subscriptions--; s.Endpoint = "" },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 0, ok, true), c(2, 1, ok, true)}},
	{"subscriptions.SendTestEvent", "POST", fixed("/webhook/api/v1/subscriptions/test"),
		func(ctx context.Context, c *signkit.Client, _ *fixture) error {
			return c.Subscriptions.SendTestEvent(ctx)
		}, func(s *state) { s.TestEvents++ },
		[nFaults]cell{c(1, 0, api500, false), c(1, 0, api500, true), c(1, 0, unknown503, false), c(1, 0, limited, false), c(1, 0, connUnknown, false), c(1, 0, timeoutUnknown, true), c(2, 1, ok, true)}},
}

func fixed(p string) func(*fixture) string { return func(*fixture) string { return p } }

func urlPath(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Path
}

// check turns a successful call whose answer is wrong into an error.
func check(err error, good bool, format string, args ...any) error {
	if err != nil || good {
		return err
	}
	return fmt.Errorf("wrong answer: "+format, args...)
}

// outcome is what one cell observed.
type outcome struct {
	setup            error
	attempts, tokens int
	journal          int // attempts in the mock's journal
	err              error
	before, after    state
	elapsed          time.Duration
}

func TestFaultMatrix(t *testing.T) {
	t.Parallel()
	if len(matrix) != 21 {
		t.Fatalf("the matrix has %d rows, want the 21 SDK calls", len(matrix))
	}
	results := make([][nFaults]outcome, len(matrix))
	sem := make(chan struct{}, 40)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range matrix {
		for f := range nFaults {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				results[i][f] = runCell(&matrix[i], f)
			}()
		}
	}
	wg.Wait()
	t.Logf("%d cells in %v", len(matrix)*int(nFaults), time.Since(start).Round(time.Millisecond))
	for i, r := range matrix {
		for f := range nFaults {
			t.Run(r.name+"/"+faultNames[f], func(t *testing.T) {
				checkCell(t, r, r.cells[f], results[i][f])
			})
		}
	}
	if testing.Verbose() {
		t.Log("\n" + matrixMarkdown())
	}
}

func checkCell(t *testing.T, r row, want cell, got outcome) {
	t.Helper()
	if got.setup != nil {
		t.Fatalf("setup: %v", got.setup)
	}
	if got.attempts != want.attempts {
		t.Errorf("attempts sent %d, want %d", got.attempts, want.attempts)
	}
	if got.journal != want.attempts {
		t.Errorf("attempts in the mock's journal %d, want %d", got.journal, want.attempts)
	}
	if got.tokens != want.tokens {
		t.Errorf("token requests during the call %d, want %d", got.tokens, want.tokens)
	}
	if !want.err.matches(got.err) {
		t.Errorf("error %v (%T), want %v", got.err, got.err, want.err)
	}
	expected := got.before
	if want.effect {
		if r.effect == nil {
			t.Fatalf("the table says effect but the row has none")
		}
		r.effect(&expected)
	}
	if got.after != expected {
		t.Errorf("state afterwards\n got  %v\n want %v", got.after, expected)
	}
}

// runCell runs one call against its own mock server under one fault.
// It runs on its own goroutine, so it reports problems in out.setup
// instead of failing t.
func runCell(r *row, f faultKind) (out outcome) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, stop := startMock(mockserver.WithManualClock(time.Now()))
	defer stop()
	setup, err := signkit.NewClient(srv.Config())
	if err != nil {
		return outcome{setup: err}
	}
	fx, err := buildFixture(ctx, srv, setup)
	if err != nil {
		return outcome{setup: err}
	}
	cnt := newCounter()
	cnt.next = &http.Transport{DisableKeepAlives: true} // no transparent re-sends by net/http on a reused connection
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: cnt, Timeout: 30 * time.Second}
	if f == fSlow {
		cfg.HTTPClient.Timeout = clientTimeout
	}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		return outcome{setup: err}
	}
	if _, err := client.Subscriptions.List(ctx); err != nil { // the call's client holds a token now
		return outcome{setup: fmt.Errorf("warm-up: %w", err)}
	}
	if out.before, err = observe(ctx, srv, setup, fx); err != nil {
		return outcome{setup: fmt.Errorf("state before: %w", err)}
	}
	path := r.path(fx)
	fault := mockserver.Fault{Method: r.method, Path: path, Times: 1}
	switch f {
	case f500Before:
		fault.Status = http.StatusInternalServerError
	case f500After:
		fault.Status, fault.Phase = http.StatusInternalServerError, mockserver.FaultAfter
	case f503:
		fault.Status, fault.RetryAfter = http.StatusServiceUnavailable, 1
	case f429:
		fault.Status = http.StatusTooManyRequests
	case fDrop:
		fault.Drop = true
	case fSlow:
		// After: the server did the work and the answer comes too late, the
		// case where a re-sent request could duplicate it. (A delay before
		// the operation spares it once the client left: see
		// TestDelayedFaultSparesALeftRequest.)
		fault.DelayMs, fault.Phase = int(slowDelay/time.Millisecond), mockserver.FaultAfter
	case fExpired:
		srv.Advance(10*time.Minute + time.Second)
	}
	if f != fExpired {
		if err := srv.InjectFault(fault); err != nil {
			return outcome{setup: err}
		}
	}
	base := len(journalOf(srv, r.method, path))
	cnt.reset()
	t0 := time.Now()
	out.err = r.call(ctx, client, fx)
	out.elapsed = time.Since(t0)
	out.attempts, out.tokens = cnt.count(r.method, path), cnt.count(http.MethodPost, tokenPath)
	// The journal records a request after it was served: wait for stragglers.
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out.journal = len(journalOf(srv, r.method, path)) - base
		if out.journal >= out.attempts || time.Now().After(deadline) {
			break
		}
	}
	srv.ClearFaults()
	srv.Advance(2 * time.Second) // queued jobs run, deliveries finish
	if out.after, err = observe(ctx, srv, setup, fx); err != nil {
		out.setup = fmt.Errorf("state after: %w", err)
	}
	return out
}

// journalOf answers the journal entries of one method and path.
func journalOf(srv *mockserver.Server, method, path string) []journalEntry {
	resp, err := http.Get(srv.URL() + "/mock/requests")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var out struct {
		Items []journalEntry `json:"items"`
	}
	b, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(b, &out)
	var hits []journalEntry
	for _, e := range out.Items {
		if e.Method == method && e.Path == path {
			hits = append(hits, e)
		}
	}
	return hits
}

// matrixMarkdown renders the table for
// https://github.com/signkit/signkit-go/blob/main/BENCHMARKS.md and reports.
func matrixMarkdown() string {
	var b strings.Builder
	b.WriteString("| call | effect |")
	for _, n := range faultNames {
		b.WriteString(" " + n + " |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", int(nFaults)+1))
	for _, r := range matrix {
		fmt.Fprintf(&b, "\n| %s %s | %s |", r.name, r.method, effectOf(r))
		for _, c := range r.cells {
			eff := "no change"
			if c.effect {
				eff = "effect once"
			}
			tok := ""
			if c.tokens > 0 {
				tok = fmt.Sprintf(", %d renewal", c.tokens)
			}
			fmt.Fprintf(&b, " %d× %s%s, %s |", c.attempts, short(c.err), tok, eff)
		}
	}
	return b.String()
}

// effectOf describes a row's effect as the difference it makes to the state.
func effectOf(r row) string {
	if r.effect == nil {
		return "none"
	}
	var before, after state
	r.effect(&after)
	var diffs []string
	for _, d := range []struct {
		name string
		a, b any
	}{{"forms", before.Forms, after.Forms}, {"prefill requests", before.Requests, after.Requests},
		{"case files", before.CaseFiles, after.CaseFiles}, {"subscriptions", before.Subscriptions, after.Subscriptions},
		{"test events delivered", before.TestEvents, after.TestEvents}, {"form A", before.FormA, after.FormA},
		{"form B", before.FormB, after.FormB}, {"form B fields", before.FormBFields, after.FormBFields}} {
		if d.a != d.b {
			v := fmt.Sprint(d.b)
			if n, ok := d.b.(int); ok && n != 0 && d.name != "form B fields" {
				v = fmt.Sprintf("%+d", n)
			}
			diffs = append(diffs, d.name+" "+v)
		}
	}
	if before.Endpoint != after.Endpoint {
		diffs = append(diffs, "endpoint changed")
	}
	return strings.Join(diffs, ", ")
}

func short(k errKind) string {
	return [...]string{"nil", "500", "conn err", "timeout", "404", "503 outcome unknown", "429 rate limited",
		"conn err, outcome unknown", "timeout, outcome unknown"}[k]
}
