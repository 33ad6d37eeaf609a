package mockserver_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// kitStart is where the manual clock of these tests starts.
var kitStart = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// startWithClient starts a mock on a manual clock at kitStart and an SDK
// client of its default user.
func startWithClient(t *testing.T) (*mockserver.Server, *signkit.Client) {
	t.Helper()
	srv := mockserver.Start(t, mockserver.WithManualClock(kitStart))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	return srv, client
}

// A user's test, through exported names only: on a manual clock and
// without a job delay, a case file is created and waited for, its signing
// email read, the signer signs, and the completion delivery verifies with
// the server's verifier after the clock moved an hour; then Reset takes
// everything back, the clock included.
func TestTestKitAsAUserWritesIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	start := kitStart
	srv, client := startWithClient(t)

	// A receiver verifying with the server's clock.
	var mu sync.Mutex
	var got []*webhooks.Event
	var handler http.Handler = http.NotFoundHandler() // until the subscription's secret is known
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h := handler
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(receiver.Close)
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: receiver.URL, EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := srv.Verifier(sub.Secret)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	handler = verifier.Handler(func(_ context.Context, ev *webhooks.Event) error {
		mu.Lock()
		got = append(got, ev)
		mu.Unlock()
		return nil
	})
	mu.Unlock()

	// No job delay is set: on a manual clock the job runs at once.
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Lease",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}, casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease")))
	if err != nil {
		t.Fatal(err)
	}
	waitCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	res, err := client.CaseFiles.Wait(waitCtx, job)
	if err != nil {
		t.Fatalf("Wait on a manual clock without a job delay: %v", err)
	}

	mails := srv.EmailsTo("ADA@example.com")
	if len(mails) != 1 || !strings.Contains(mails[0].Subject, "Lease") || mails[0].SigningLink != res.SigningLinks[0].URL {
		t.Fatalf("Ada's emails: %+v, link %s", mails, res.SigningLinks[0].URL)
	}
	d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		t.Fatal(err)
	}
	ada := d.Signers[0].ID

	// An hour later (a wall-clock verifier would refuse the delivery now),
	// Ada signs.
	srv.Advance(time.Hour)
	if err := srv.SignerAction(res.CaseFileID, ada, mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	if err := srv.SignerAction(res.CaseFileID, ada, mockserver.ActionSign); !errors.Is(err, signkit.ErrConflict) {
		t.Errorf("second sign: %v, want signkit.ErrConflict", err)
	}
	if err := srv.SignerAction(res.CaseFileID, ada+100, mockserver.ActionSign); !errors.Is(err, signkit.ErrNotFound) {
		t.Errorf("unknown signer: %v, want signkit.ErrNotFound", err)
	}
	srv.Advance(0) // the first attempt runs in the background: wait for it
	mu.Lock()
	n := len(got)
	var completed *webhooks.Event
	if n > 0 {
		completed = got[0]
	}
	mu.Unlock()
	if n != 1 || completed.Type != webhooks.CaseFileCompleted || completed.CaseFile.ID != res.CaseFileID {
		t.Fatalf("receiver got %d events (%+v), want the completion", n, completed)
	}
	if ds := srv.Deliveries(); len(ds) != 1 || ds[0].Outcome != "delivered" {
		t.Fatalf("deliveries: %+v", ds)
	}

	// The event log and the request journal.
	events := srv.Events(0)
	var types []string
	for _, ev := range events {
		types = append(types, ev.Type)
	}
	if want := []string{"sign.signer.requestActivated", "sign.signer.requestSent", "sign.signer.signed",
		"sign.casefile.completed", "sign.signer.finalized"}; strings.Join(types, " ") != strings.Join(want, " ") {
		t.Fatalf("event types %v, want %v", types, want)
	}
	h := http.Header{"X-Event-Id": {events[3].ID}, "X-Event-Type": {events[3].Type}}
	if ev, err := webhooks.ParseEvent(h, events[3].Body); err != nil || ev.CaseFile.ID != res.CaseFileID {
		t.Fatalf("completion body: %v, %+v", err, ev)
	}
	if later := srv.Events(events[len(events)-1].Seq); len(later) != 0 {
		t.Errorf("events after the last: %+v", later)
	}
	sawCreate := false
	for _, r := range srv.Requests() {
		sawCreate = sawCreate || r.Method == http.MethodPost && strings.HasSuffix(r.Path, "/casefiles/20251022/create") && r.Status == 200
	}
	if !sawCreate {
		t.Errorf("the journal lacks the create request: %+v", srv.Requests())
	}

	// Reset: the clock back to its start, ids from 1.
	srv.Reset()
	if !srv.Now().Equal(start) {
		t.Fatalf("Now after Reset = %v, want %v", srv.Now(), start)
	}
	if len(srv.Emails()) != 0 || len(srv.Requests()) != 0 {
		t.Errorf("Reset kept %d emails and %d requests", len(srv.Emails()), len(srv.Requests()))
	}
	client, err = signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	job, err = client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: "Again", Signers: []casefiles.Signer{{Name: "Bo"}},
		Documents: []casefiles.Document{{Name: "a.pdf", Title: "A"}}}, casefiles.BytesUpload("a.pdf", mockserver.SamplePDF("A")))
	if err != nil {
		t.Fatal(err)
	}
	again, err := client.CaseFiles.Wait(waitCtx, job)
	if err != nil {
		t.Fatal(err)
	}
	if again.CaseFileID != res.CaseFileID {
		t.Errorf("the first case file after Reset has id %d, want %d (ids from 1)", again.CaseFileID, res.CaseFileID)
	}
}

// A real clock's Reset drops the time Advance added.
func TestResetRewindsTheRealClock(t *testing.T) {
	t.Parallel()
	srv := mockserver.New()
	defer srv.Close()
	srv.Advance(48 * time.Hour)
	if d := time.Until(srv.Now()); d < 47*time.Hour {
		t.Fatalf("Advance moved the clock %v", d)
	}
	srv.Reset()
	if d := time.Until(srv.Now()); d > time.Minute || d < -time.Minute {
		t.Fatalf("after Reset the clock is %v off the wall clock", d)
	}
}

// SubmitForm posts the public page as a browser does: values and a file
// part named after its FILE field; a refused submission is ErrValidation
// with the page's field errors.
func TestSubmitForm(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, client := startWithClient(t)
	form, err := client.Forms.CreateAndPublish(ctx, &forms.Form{Name: "Onboarding", Sections: []forms.Section{{Title: "You",
		Fields: []forms.Field{
			{Name: "name", Label: "Name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
			{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
			{Name: "passport", Label: "Passport", Type: forms.TypeFile},
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	done, err := srv.SubmitForm(ctx, form.ExternalID, &mockserver.FormSubmission{
		Values: url.Values{"name": {"Ada"}, "email": {"ada@example.com"}},
		Files:  []mockserver.FormFile{{Field: "passport", Filename: "passport.pdf", ContentType: "application/pdf", Content: mockserver.SamplePDF("Passport")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if done.SubmissionID == 0 || done.CaseFileID == 0 {
		t.Fatalf("submitted: %+v", done)
	}
	files, err := client.Forms.Files(ctx, done.CaseFileID)
	if err != nil || len(files) != 1 || files[0].Filename != "passport.pdf" {
		t.Fatalf("files of the submission: %+v, %v", files, err)
	}
	if mails := srv.EmailsTo("ada@example.com"); len(mails) != 1 || mails[0].SigningLink == "" {
		t.Fatalf("signing email: %+v", mails)
	}

	_, err = srv.SubmitForm(ctx, form.ExternalID, &mockserver.FormSubmission{Values: url.Values{"name": {"Bo"}, "email": {"not an email"}}})
	var apiErr *signkit.Error
	if !errors.Is(err, signkit.ErrValidation) || !errors.As(err, &apiErr) || len(apiErr.Details) == 0 || apiErr.Details[0].Field != "email" {
		t.Fatalf("invalid email: %v (%+v), want ErrValidation on email", err, apiErr)
	}
	if _, err := srv.SubmitForm(ctx, "no-such-form", nil); !errors.Is(err, signkit.ErrNotFound) {
		t.Fatalf("unknown form: %v, want ErrNotFound", err)
	}
}

// ReplayDelivery delivers an event again with the same id; unknown events
// are ErrNotFound.
func TestReplayDelivery(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv, client := startWithClient(t)
	var mu sync.Mutex
	var ids []string
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ids = append(ids, r.Header.Get("X-Event-Id"))
		mu.Unlock()
	}))
	t.Cleanup(receiver.Close)
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: receiver.URL, EventTypes: []webhooks.EventType{webhooks.SubscriptionTest}})
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Subscriptions.SendTestEvent(ctx); err != nil {
		t.Fatal(err)
	}
	srv.Advance(0)
	ds := srv.Deliveries()
	if len(ds) != 1 {
		t.Fatalf("deliveries: %+v", ds)
	}
	if err := srv.ReplayDelivery(sub.ID, ds[0].EventID); err != nil {
		t.Fatal(err)
	}
	srv.Advance(0)
	mu.Lock()
	defer mu.Unlock()
	if len(ids) != 2 || ids[0] != ids[1] {
		t.Fatalf("ids received: %v, want the same event twice", ids)
	}
	if err := srv.ReplayDelivery(sub.ID, "no-such-event"); !errors.Is(err, signkit.ErrNotFound) {
		t.Fatalf("unknown event: %v, want ErrNotFound", err)
	}
}
