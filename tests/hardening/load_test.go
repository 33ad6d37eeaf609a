package hardening

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

const (
	loadClients  = 64
	loadDuration = 5 * time.Second
	// heapSlack is how far above its start the heap may stay after Reset.
	heapSlack = 8 << 20
)

// status5xx counts answers of 500 and above that reach any client.
type status5xx struct {
	next http.RoundTripper
	n    *atomic.Int64
	all  *atomic.Int64
}

func (s status5xx) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := s.next.RoundTrip(r)
	s.all.Add(1)
	if err == nil && resp.StatusCode >= 500 {
		s.n.Add(1)
	}
	return resp, err
}

// created is what one load worker made, to be found again afterwards.
type created struct {
	forms         map[string]forms.Status // externalID → expected status
	submissions   map[string]int          // externalID → submissions
	prefills      map[string]string       // request URL → externalID
	caseFiles     []int64                 // from submissions
	jobs          []*casefiles.Job
	subscriptions map[string]string // id → endpoint, the active ones
}

// TestLoad runs 64 SDK clients, each its own customer, for about 5 s
// against one mock server, every call of the SDK in the mix; then checks
// that no answer was 5xx, that everything created can be read back, and that
// the heap returns near its start after Reset.
//
// It is not parallel, so that it runs alone in this package's process (Go
// runs the parallel tests after the others) and the heap it measures is its
// own.
func TestLoad(t *testing.T) {
	srv := mockserver.Start(t, mockserver.WithManualClock(time.Now()), mockserver.WithJournalSize(200_000))
	heapStart := heapNow()

	var fivexx, total atomic.Int64
	var transports []*http.Transport
	clients := make([]*signkit.Client, loadClients)
	for i := range clients {
		u, err := srv.AddUser(mockserver.UserSpec{Name: fmt.Sprintf("load %d", i), Email: fmt.Sprintf("load%d@example.com", i), Admin: true, NewCustomer: true})
		if err != nil {
			t.Fatal(err)
		}
		cfg := srv.Config()
		cfg.Credentials = u.Credentials()
		tr := &http.Transport{MaxIdleConnsPerHost: 4}
		transports = append(transports, tr)
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second, Transport: status5xx{tr, &fivexx, &total}}
		if clients[i], err = signkit.NewClient(cfg); err != nil {
			t.Fatal(err)
		}
	}
	page := &http.Client{Transport: status5xx{&http.Transport{MaxIdleConnsPerHost: 64}, &fivexx, &total}}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stop := time.Now().Add(loadDuration)
	results := make([]created, loadClients)
	errs := make([]error, loadClients)
	rounds := make([]int, loadClients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &loadWorker{id: i, c: clients[i], page: page, made: created{
				forms: map[string]forms.Status{}, submissions: map[string]int{}, prefills: map[string]string{}, subscriptions: map[string]string{}}}
			for time.Now().Before(stop) && errs[i] == nil {
				errs[i] = w.round(ctx)
				rounds[i]++
			}
			results[i] = w.made
		}()
	}
	wg.Wait()
	elapsed := time.Since(stop.Add(-loadDuration))
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}
	n := 0
	for _, r := range rounds {
		n += r
	}
	srv.Advance(2 * time.Second) // queued jobs run, deliveries finish
	entries := journal(t, srv)
	bad := 0
	for _, e := range entries {
		if e.Status >= 500 {
			bad++
			if bad < 5 {
				t.Errorf("journal: %s %s answered %d", e.Method, e.Path, e.Status)
			}
		}
	}
	if int64(len(entries)) < total.Load() {
		t.Errorf("the journal holds %d entries for %d requests: make it larger", len(entries), total.Load())
	}
	if fivexx.Load() != 0 || bad != 0 {
		t.Errorf("%d answers 5xx seen by clients, %d in the journal", fivexx.Load(), bad)
	}
	t.Logf("%d clients, %d rounds, %d requests in %v (%.0f req/s)", loadClients, n, total.Load(), elapsed.Round(time.Millisecond),
		float64(total.Load())/elapsed.Seconds())

	// Everything created is there.
	for i, made := range results {
		if err := verifyCreated(ctx, clients[i], page, made); err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}

	heapLoaded := heapNow()
	srv.Reset()
	for _, tr := range transports {
		tr.CloseIdleConnections()
	}
	page.Transport.(status5xx).next.(*http.Transport).CloseIdleConnections()
	clients, results = nil, nil
	heapEnd := heapNow()
	t.Logf("heap: %.1f MiB at start, %.1f MiB after the load, %.1f MiB after Reset (%+.1f MiB)",
		mib(heapStart), mib(heapLoaded), mib(heapEnd), mib(heapEnd)-mib(heapStart))
	if heapEnd > heapStart+heapSlack {
		t.Errorf("heap after Reset %.1f MiB, more than %.0f MiB above its start %.1f MiB", mib(heapEnd), mib(heapSlack), mib(heapStart))
	}
}

func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

type loadWorker struct {
	id   int
	n    int
	c    *signkit.Client
	page *http.Client
	made created
}

// round makes one pass through every call of the SDK.
func (w *loadWorker) round(ctx context.Context) error {
	w.n++
	c := w.c
	f, err := c.Forms.Create(ctx, onboardingForm(fmt.Sprintf("load %d/%d", w.id, w.n)))
	if err != nil {
		return fmt.Errorf("create form: %w", err)
	}
	id := f.ExternalID
	w.made.forms[id] = forms.StatusDraft
	if _, err := c.Forms.Get(ctx, id); err != nil {
		return fmt.Errorf("get form: %w", err)
	}
	v2 := onboardingForm("v2")
	v2.Sections[0].Fields = append(v2.Sections[0].Fields, forms.Field{Name: "phone", Label: "Phone", Type: forms.TypePhone})
	if _, err := c.Forms.Update(ctx, id, v2); err != nil {
		return fmt.Errorf("update form: %w", err)
	}
	live, err := c.Forms.Publish(ctx, id)
	if err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	w.made.forms[id] = forms.StatusActive
	link, err := c.Forms.CreateRequest(ctx, id, &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{"email": {Value: "p@example.com"}}})
	if err != nil {
		return fmt.Errorf("prefill: %w", err)
	}
	w.made.prefills[link.RequestURL] = id
	sub, cf, err := submit(ctx, w.page, live.PublicURL, "Ada", fmt.Sprintf("ada%d@example.com", w.id))
	if err != nil {
		return err
	}
	w.made.submissions[id]++
	w.made.caseFiles = append(w.made.caseFiles, cf)
	if subs, err := c.Forms.ListSubmissions(ctx, id, nil); err != nil || len(subs) != 1 {
		return fmt.Errorf("list submissions: %d %v", len(subs), err)
	}
	if _, err := c.Forms.Answers(ctx, id, sub); err != nil {
		return fmt.Errorf("answers: %w", err)
	}
	files, err := c.Forms.Files(ctx, cf)
	if err != nil || len(files) != 1 {
		return fmt.Errorf("files: %d %v", len(files), err)
	}
	var buf bytes.Buffer
	if _, err := c.Forms.DownloadFile(ctx, files[0], &buf); err != nil || !bytes.Equal(buf.Bytes(), samplePDF()) {
		return fmt.Errorf("download file: %v", err)
	}
	d, err := c.CaseFiles.Get(ctx, cf)
	if err != nil || len(d.Documents) == 0 {
		return fmt.Errorf("get case file: %v", err)
	}
	buf.Reset()
	if _, err := c.CaseFiles.DownloadDocument(ctx, d.Documents[0].ID, &buf); err != nil {
		return fmt.Errorf("download document: %w", err)
	}
	if _, err := c.CaseFiles.DocumentContent(ctx, d.Documents[0].ID); err != nil {
		return fmt.Errorf("document content: %w", err)
	}
	cfDef, up := contract()
	job, err := c.CaseFiles.Create(ctx, cfDef, up)
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	w.made.jobs = append(w.made.jobs, job)
	if _, err := c.CaseFiles.Status(ctx, job); err != nil {
		return fmt.Errorf("status: %w", err)
	}
	if err := w.webhooks(ctx); err != nil {
		return err
	}
	if w.n%2 == 0 {
		if _, err := c.Forms.Archive(ctx, id); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		w.made.forms[id] = forms.StatusArchived
	}
	return nil
}

// webhooks creates, reads, updates and tests a subscription; it deletes one
// when four are active (the limit is five per customer).
func (w *loadWorker) webhooks(ctx context.Context) error {
	c := w.c
	ep := fmt.Sprintf("%s/w%d/r%d", receiver().URL, w.id, w.n)
	s, err := c.Subscriptions.Create(ctx, &subscriptions.Request{Endpoint: ep, EventTypes: []webhooks.EventType{webhooks.SubscriptionTest}})
	if err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	w.made.subscriptions[s.ID] = ep
	if _, err := c.Subscriptions.Get(ctx, s.ID); err != nil {
		return fmt.Errorf("get subscription: %w", err)
	}
	ep2 := ep + "/v2"
	if _, err := c.Subscriptions.Update(ctx, s.ID, &subscriptions.Request{Endpoint: ep2,
		EventTypes: []webhooks.EventType{webhooks.SubscriptionTest, webhooks.CaseFileCompleted}}); err != nil {
		return fmt.Errorf("update subscription: %w", err)
	}
	w.made.subscriptions[s.ID] = ep2
	if err := c.Subscriptions.SendTestEvent(ctx); err != nil {
		return fmt.Errorf("test event: %w", err)
	}
	list, err := c.Subscriptions.List(ctx)
	if err != nil || len(list) != len(w.made.subscriptions) {
		return fmt.Errorf("list subscriptions: %d, want %d: %v", len(list), len(w.made.subscriptions), err)
	}
	if len(w.made.subscriptions) >= 4 {
		if err := c.Subscriptions.Delete(ctx, s.ID); err != nil {
			return fmt.Errorf("delete subscription: %w", err)
		}
		delete(w.made.subscriptions, s.ID)
	}
	return nil
}

// verifyCreated reads back everything a worker made.
func verifyCreated(ctx context.Context, c *signkit.Client, page *http.Client, made created) error {
	for id, status := range made.forms {
		f, err := c.Forms.Get(ctx, id)
		if err != nil || f.Status != status {
			return fmt.Errorf("form %s: %v, want %s: %v", id, f, status, err)
		}
		subs, err := c.Forms.ListSubmissions(ctx, id, nil)
		if err != nil || len(subs) != made.submissions[id] {
			return fmt.Errorf("form %s: %d submissions, want %d: %v", id, len(subs), made.submissions[id], err)
		}
	}
	for u, id := range made.prefills {
		resp, err := page.Get(u)
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
		want := http.StatusOK // the prefilled page of an archived form is gone
		if made.forms[id] == forms.StatusArchived {
			want = http.StatusNotFound
		}
		if resp.StatusCode != want {
			return fmt.Errorf("prefilled page %s of a %s form: %d, want %d", u, made.forms[id], resp.StatusCode, want)
		}
	}
	for _, id := range made.caseFiles {
		if _, err := c.CaseFiles.Get(ctx, id); err != nil {
			return fmt.Errorf("case file %d: %w", id, err)
		}
	}
	for _, j := range made.jobs {
		st, err := c.CaseFiles.Status(ctx, j)
		if err != nil || st.Result == nil {
			return fmt.Errorf("job %s: %+v %v", j.UUID, st, err)
		}
		if _, err := c.CaseFiles.Get(ctx, st.Result.CaseFileID); err != nil {
			return fmt.Errorf("case file %d of job %s: %w", st.Result.CaseFileID, j.UUID, err)
		}
	}
	for id, ep := range made.subscriptions {
		s, err := c.Subscriptions.Get(ctx, id)
		if err != nil || s.Endpoint != ep || !s.IsActive {
			return fmt.Errorf("subscription %s: %+v %v", id, s, err)
		}
	}
	return nil
}
