package hardening

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// samplePDF is a real one-page PDF, built once.
var samplePDF = sync.OnceValue(func() []byte {
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFont("Helvetica", "", 14)
	p.Cell(40, 10, "Hardening contract")
	var buf bytes.Buffer
	if err := p.Output(&buf); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// receiver is a loopback webhook endpoint that acknowledges every delivery.
var receiver = sync.OnceValue(func() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusNoContent)
	}))
})

// counter is an http.RoundTripper that counts the requests that leave the
// client, by method and path.
type counter struct {
	next http.RoundTripper
	mu   sync.Mutex
	n    map[string]int
}

func newCounter() *counter { return &counter{next: http.DefaultTransport, n: map[string]int{}} }

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n[r.Method+" "+r.URL.Path]++
	c.mu.Unlock()
	return c.next.RoundTrip(r)
}

func (c *counter) count(method, path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[method+" "+path]
}

func (c *counter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.n)
}

// tokenPath is where the mock's token endpoint lives.
const tokenPath = "/auth/oauth/token"

// onboardingForm is an ACTIVE-able form with a FILE field, so that a
// submission has an attachment.
func onboardingForm(name string) *forms.Form {
	return &forms.Form{
		Name:                  name,
		Language:              "en",
		CaseFileTitleTemplate: "{{formName}}: {{primarySigner.name}}",
		Sections: []forms.Section{{Slug: "you", Title: "About you", Fields: []forms.Field{
			{Name: "name", Label: "Full name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
			{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
			{Name: "doc", Label: "Document", Type: forms.TypeFile},
		}}},
	}
}

// contracts numbers the case files that contract makes.
var contracts atomic.Int64

// contract is a one-signer, one-document case file and its upload. Each call
// gets its own title: the platform refuses the same payload twice within 24
// hours
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1,
// "Duplicates"), and these tests mean to create a new case file every time.
func contract() (*casefiles.CaseFile, casefiles.Upload) {
	return &casefiles.CaseFile{
		Title:     fmt.Sprintf("Contract %d", contracts.Add(1)),
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "contract.pdf", Title: "Contract"}},
	}, casefiles.BytesUpload("contract.pdf", samplePDF())
}

// submit posts the public page of an ACTIVE form the way a browser does,
// with a file, asking for JSON; it answers the submission and case file ids.
func submit(ctx context.Context, hc *http.Client, pageURL, name, email string) (sub, cf int64, err error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("name", name)
	_ = mw.WriteField("email", email)
	fw, _ := mw.CreateFormFile("doc", "doc.pdf")
	_, _ = fw.Write(samplePDF())
	_ = mw.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, pageURL, &body)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	var out struct {
		SubmissionID int64 `json:"submissionId"`
		CaseFileID   int64 `json:"casefileId"`
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return 0, 0, fmt.Errorf("submit: %d %s", resp.StatusCode, b)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return 0, 0, err
	}
	return out.SubmissionID, out.CaseFileID, nil
}

// fixture is what every cell of the fault matrix starts from: form A ACTIVE
// with one submission (and its attachment), form B in DRAFT, one Send case
// file with its job, and one subscription to the test event.
type fixture struct {
	formA, formB string
	pageA        string
	subID        int64 // submission of form A
	subCase      int64 // its case file
	file         forms.File
	job          *casefiles.Job
	sendCase     int64
	documentID   int64 // the document's integer id, which the content endpoint takes
	subscription string
}

func buildFixture(ctx context.Context, srv *mockserver.Server, c *signkit.Client) (*fixture, error) {
	fx := &fixture{}
	a, err := c.Forms.Create(ctx, onboardingForm("A"))
	if err != nil {
		return nil, fmt.Errorf("create A: %w", err)
	}
	if a, err = c.Forms.Publish(ctx, a.ExternalID); err != nil {
		return nil, fmt.Errorf("publish A: %w", err)
	}
	fx.formA, fx.pageA = a.ExternalID, a.PublicURL
	if fx.subID, fx.subCase, err = submit(ctx, http.DefaultClient, a.PublicURL, "Ada", "ada@example.com"); err != nil {
		return nil, err
	}
	files, err := c.Forms.Files(ctx, fx.subCase)
	if err != nil || len(files) != 1 {
		return nil, fmt.Errorf("files: %v %v", files, err)
	}
	fx.file = files[0]
	b, err := c.Forms.Create(ctx, onboardingForm("B"))
	if err != nil {
		return nil, fmt.Errorf("create B: %w", err)
	}
	fx.formB = b.ExternalID
	cf, up := contract()
	if fx.job, err = c.CaseFiles.Create(ctx, cf, up); err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	srv.Advance(2 * time.Second) // the job runs
	st, err := c.CaseFiles.Status(ctx, fx.job)
	if err != nil || st.Result == nil {
		return nil, fmt.Errorf("status: %+v %v", st, err)
	}
	fx.sendCase = st.Result.CaseFileID
	d, err := c.CaseFiles.Get(ctx, fx.sendCase)
	if err != nil || len(d.Documents) == 0 {
		return nil, fmt.Errorf("get case file: %v", err)
	}
	fx.documentID = d.Documents[0].ID
	s, err := c.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: receiver().URL + "/a", EventTypes: []webhooks.EventType{webhooks.SubscriptionTest}})
	if err != nil {
		return nil, fmt.Errorf("subscribe: %w", err)
	}
	fx.subscription = s.ID
	return fx, nil
}

// state is what the mock holds, as far as the fault matrix cares.
type state struct {
	Forms, Requests, Submissions, CaseFiles, Subscriptions, TestEvents int
	FormA, FormB                                                       forms.Status
	FormBFields                                                        int
	Endpoint                                                           string // of the fixture's subscription
}

func (s state) String() string {
	return fmt.Sprintf("forms=%d requests=%d submissions=%d casefiles=%d subs=%d testEvents=%d A=%s B=%s/%d fields endpoint=%s",
		s.Forms, s.Requests, s.Submissions, s.CaseFiles, s.Subscriptions, s.TestEvents, s.FormA, s.FormB, s.FormBFields,
		strings.TrimPrefix(s.Endpoint, receiver().URL))
}

// observe reads the mock's state through a fault-free client: the SDK where
// the service can list or get, the mock's Deliveries, and its Stats where the
// service has no listing (forms, prefill requests).
func observe(ctx context.Context, srv *mockserver.Server, c *signkit.Client, fx *fixture) (state, error) {
	var s state
	stats := srv.Stats() // the forms service has no listing of forms or prefill requests
	s.Forms, s.Requests = stats.Forms, stats.PrefillRequests
	subs, err := c.Forms.ListSubmissions(ctx, fx.formA, &forms.ListOptions{Limit: 1000})
	if err != nil {
		return s, fmt.Errorf("list submissions: %w", err)
	}
	s.Submissions = len(subs)
	for id := int64(1); ; id++ {
		if _, err := c.CaseFiles.Get(ctx, id); err != nil {
			if !isNotFound(err) {
				return s, fmt.Errorf("case file %d: %w", id, err)
			}
			break
		}
		s.CaseFiles++
	}
	list, err := c.Subscriptions.List(ctx)
	if err != nil {
		return s, fmt.Errorf("list subscriptions: %w", err)
	}
	s.Subscriptions = len(list)
	for _, sub := range list {
		if sub.ID == fx.subscription {
			s.Endpoint = sub.Endpoint
		}
	}
	for _, d := range srv.Deliveries() {
		if d.EventType == string(webhooks.SubscriptionTest) && d.Outcome == mockserver.OutcomeDelivered {
			s.TestEvents++
		}
	}
	a, err := c.Forms.Get(ctx, fx.formA)
	if err != nil {
		return s, fmt.Errorf("get A: %w", err)
	}
	b, err := c.Forms.Get(ctx, fx.formB)
	if err != nil {
		return s, fmt.Errorf("get B: %w", err)
	}
	s.FormA, s.FormB = a.Status, b.Status
	for _, sec := range b.Sections {
		s.FormBFields += len(sec.Fields)
	}
	return s, nil
}

func isNotFound(err error) bool {
	var e *signkit.Error
	return errors.As(err, &e) && e.StatusCode == http.StatusNotFound
}

// journal answers the mock's request journal.
func journal(t testing.TB, srv *mockserver.Server) []journalEntry {
	t.Helper()
	resp, err := http.Get(srv.URL() + "/mock/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Items []journalEntry `json:"items"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.Items
}

type journalEntry struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Status int    `json:"status"`
}

// loginToken answers an access token of the default user, from the mock's
// token endpoint through the SDK.
func loginToken(t testing.TB, srv *mockserver.Server) string {
	t.Helper()
	ts := auth.NewTokenSource(srv.Config().Endpoints.Auth, srv.Config().Credentials)
	tok, err := ts.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tok.AccessToken
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// startMock is mockserver.Start without a testing.TB, for goroutines that
// must not fail a test themselves: it serves a new Server on a loopback
// port and answers a function that stops both.
func startMock(opts ...mockserver.Option) (*mockserver.Server, func()) {
	ts := httptest.NewUnstartedServer(nil)
	srv := mockserver.New(append(opts, mockserver.WithBaseURL("http://"+ts.Listener.Addr().String()))...)
	ts.Config.Handler = srv.Handler()
	ts.Start()
	return srv, func() { ts.Close(); srv.Close() }
}
