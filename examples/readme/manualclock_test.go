package readme_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// TestManualClock runs README's manual-clock snippet: no job delay, the
// signing email read through the Go API, a sign an hour later, and the
// completion verified on mock time.
func TestManualClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	var handler http.Handler = http.NotFoundHandler()
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		h := handler
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(receiver.Close)

	receiverURL := receiver.URL

	srv := mockserver.Start(t, mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: receiverURL, EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
	if err != nil {
		t.Fatal(err)
	}
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Lease",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}, casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.CaseFiles.Wait(ctx, job) // runs at once on a manual clock
	if err != nil {
		t.Fatal(err)
	}
	email := srv.EmailsTo("ada@example.com")[0] // the signing request, with its link
	d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(time.Hour)
	if err := srv.SignerAction(res.CaseFileID, d.Signers[0].ID, mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	verifier, err := srv.Verifier(sub.Secret) // on mock time: takes the completion delivered an hour later
	if err != nil {
		t.Fatal(err)
	}

	if !strings.HasPrefix(email.SigningLink, srv.URL()+"/public/sign/") {
		t.Errorf("signing link %q", email.SigningLink)
	}
	// The completion's first attempt ran before the verifier was ready; a
	// redelivery reaches it.
	got := make(chan webhooks.EventType, 1)
	mu.Lock()
	handler = verifier.Handler(func(_ context.Context, ev *webhooks.Event) error {
		got <- ev.Type
		return nil
	})
	mu.Unlock()
	srv.Advance(0)
	ds := srv.Deliveries()
	if len(ds) == 0 {
		t.Fatal("no delivery")
	}
	if err := srv.ReplayDelivery(sub.ID, ds[0].EventID); err != nil {
		t.Fatal(err)
	}
	srv.Advance(0)
	select {
	case typ := <-got:
		if typ != webhooks.CaseFileCompleted {
			t.Fatalf("got %s", typ)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the verifier on mock time took no delivery: %+v", srv.Deliveries())
	}
}
