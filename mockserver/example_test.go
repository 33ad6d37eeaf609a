package mockserver_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// exampleServer is a mock on a manual clock with an SDK client that
// reaches it in process.
func exampleServer() (*mockserver.Server, *signkit.Client) {
	srv := mockserver.New(mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)))
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: srv.Transport()}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		log.Fatal(err)
	}
	return srv, client
}

// sendLease creates a case file with one signer and waits for it: with a
// manual clock the job runs at once.
func sendLease(client *signkit.Client) *casefiles.Result {
	ctx := context.Background()
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Lease",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}, casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease", "Elm Street 12")))
	if err != nil {
		log.Fatal(err)
	}
	res, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		log.Fatal(err)
	}
	return res
}

// Read the signing request a signer got, and sign as them.
func ExampleServer_EmailsTo() {
	srv, client := exampleServer()
	defer srv.Close()
	res := sendLease(client)

	for _, m := range srv.EmailsTo("ada@example.com") {
		fmt.Println(m.Subject, m.SigningLink == res.SigningLinks[0].URL)
	}
	// Output: Please sign "Lease" true
}

// Signer actions fail with the SDK's sentinels.
func ExampleServer_SignerAction() {
	srv, client := exampleServer()
	defer srv.Close()
	res := sendLease(client)
	d, err := client.CaseFiles.Get(context.Background(), res.CaseFileID)
	if err != nil {
		log.Fatal(err)
	}
	ada := d.Signers[0].ID

	fmt.Println(srv.SignerAction(res.CaseFileID, ada, mockserver.ActionSign))
	err = srv.SignerAction(res.CaseFileID, ada, mockserver.ActionSign)
	fmt.Println(errors.Is(err, signkit.ErrConflict))
	err = srv.SignerAction(res.CaseFileID, 999, mockserver.ActionSign)
	fmt.Println(errors.Is(err, signkit.ErrNotFound))
	// Output:
	// <nil>
	// true
	// true
}

// The event log, from the start and after a given event.
func ExampleServer_Events() {
	srv, client := exampleServer()
	defer srv.Close()
	sendLease(client)

	events := srv.Events(0)
	for _, ev := range events {
		fmt.Println(ev.Seq, ev.Type)
	}
	fmt.Println(len(srv.Events(events[0].Seq)), "after the first")
	// Output:
	// 1 sign.signer.requestActivated
	// 2 sign.signer.requestSent
	// 1 after the first
}

// The request journal: every request the mock served.
func ExampleServer_Requests() {
	srv, client := exampleServer()
	defer srv.Close()
	sendLease(client)

	seen := map[string]bool{}
	for _, r := range srv.Requests() {
		line := fmt.Sprint(r.Method, " ", r.Path, " ", r.Status)
		if strings.HasPrefix(r.Path, "/send/") && !seen[line] { // Wait may poll more than once
			seen[line] = true
			fmt.Println(line)
		}
	}
	// Output:
	// POST /send/api/v1/casefiles/20251022/create 200
	// POST /send/api/v1/queue/public/status 200
}

// Submit a form's public page as a person would, file included.
func ExampleServer_SubmitForm() {
	srv, client := exampleServer()
	defer srv.Close()
	ctx := context.Background()
	form, err := client.Forms.CreateAndPublish(ctx, &forms.Form{Name: "Onboarding", Sections: []forms.Section{{Title: "You",
		Fields: []forms.Field{
			{Name: "name", Label: "Name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
			{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
			{Name: "id", Label: "ID card", Type: forms.TypeFile},
		}}}})
	if err != nil {
		log.Fatal(err)
	}

	done, err := srv.SubmitForm(ctx, form.ExternalID, &mockserver.FormSubmission{
		Values: url.Values{"name": {"Ada"}, "email": {"ada@example.com"}},
		Files:  []mockserver.FormFile{{Field: "id", Filename: "id.pdf", Content: mockserver.SamplePDF("ID card")}},
	})
	fmt.Println(done.SubmissionID > 0, done.CaseFileID > 0, err)

	_, err = srv.SubmitForm(ctx, form.ExternalID, &mockserver.FormSubmission{Values: url.Values{"name": {"Bo"}}})
	var refused *signkit.Error
	if errors.As(err, &refused) {
		fmt.Println(errors.Is(err, signkit.ErrValidation), refused.Details[0].Field)
	}
	// Output:
	// true true <nil>
	// true email
}

// A receiver that verifies deliveries on the mock's clock, and a
// redelivery of the same event.
func ExampleServer_Verifier() {
	srv, client := exampleServer()
	defer srv.Close()
	ctx := context.Background()

	var verifier *webhooks.Verifier
	received := make(chan string, 2)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verifier.Handler(func(_ context.Context, ev *webhooks.Event) error {
			received <- string(ev.Type)
			return nil
		}).ServeHTTP(w, r)
	}))
	defer receiver.Close()
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: receiver.URL, EventTypes: []webhooks.EventType{webhooks.SubscriptionTest}})
	if err != nil {
		log.Fatal(err)
	}
	// Deliveries are signed with mock time: a wall-clock verifier would
	// refuse them once the clock has moved.
	if verifier, err = srv.Verifier(sub.Secret); err != nil {
		log.Fatal(err)
	}
	srv.Advance(24 * time.Hour)
	if err := client.Subscriptions.SendTestEvent(ctx); err != nil {
		log.Fatal(err)
	}
	srv.Advance(0) // the first attempt runs in the background
	fmt.Println(<-received)

	// ReplayDelivery sends the same event again: the verifier's replay
	// check answers it 200 without calling the handler.
	first := srv.Deliveries()[0]
	if err := srv.ReplayDelivery(sub.ID, first.EventID); err != nil {
		log.Fatal(err)
	}
	srv.Advance(0)
	last := srv.Deliveries()[1]
	fmt.Println(last.EventID == first.EventID, last.Replay, last.Status, len(received))
	// Output:
	// webhook.subscription.test
	// true true 200 0
}

// A PDF to upload in tests.
func ExampleSamplePDF() {
	pdf := mockserver.SamplePDF("Contract", "between Ada and Bo")
	fmt.Println(string(pdf[:8]))
	// Output: %PDF-1.4
}
