package readme_test

import (
	"context"
	"net/http"
	"os"
	"testing"
	"testing/synctest"

	"github.com/redis/go-redis/v9"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// TestOnboarding is the README's test against the mock server on loopback.
func TestOnboarding(t *testing.T) {
	srv := mockserver.Start(t) // a fresh platform on a loopback port, closed when the test ends
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	form, err := client.Forms.Create(t.Context(), &forms.Form{Name: "Onboarding", Sections: []forms.Section{{
		Fields: []forms.Field{{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email"}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	if form.Status != forms.StatusDraft {
		t.Errorf("status %s, want DRAFT", form.Status)
	}
}

// TestCaseFileWait is the README's synctest test: Wait polls for seconds of
// fake time, which pass at once.
func TestCaseFileWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := mockserver.New() // its clock is the bubble's fake clock
		defer srv.Close()
		cfg := srv.Config()
		cfg.HTTPClient = &http.Client{Transport: srv.Transport()} // in process: no sockets in the bubble
		client, err := signkit.NewClient(cfg)
		if err != nil {
			t.Fatal(err)
		}
		job, err := client.CaseFiles.Create(t.Context(), &casefiles.CaseFile{
			Title:     "Contract",
			Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
			Documents: []casefiles.Document{{Name: "contract.pdf", Title: "Contract"}},
		}, casefiles.BytesUpload("contract.pdf", mockserver.SamplePDF("Contract")))
		if err != nil {
			t.Fatal(err)
		}
		res, err := client.CaseFiles.Wait(t.Context(), job) // the job runs after 1 s of fake time
		if err != nil {
			t.Fatal(err)
		}
		if len(res.SigningLinks) != 1 {
			t.Errorf("signing links: %v", res.SigningLinks)
		}
	})
}

// receiveWebhooks is the README's webhook receiver (compiled, not run: it
// needs Redis and a subscription).
func receiveWebhooks(ctx context.Context, srv *http.Server, fetchSignedPDFs func(context.Context, int64) error) error {
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer rdb.Close()
	q, err := redisqueue.New(ctx, rdb) // stream, consumer group and dead-letter stream
	if err != nil {
		return err
	}
	v, err := webhooks.NewVerifier(os.Getenv("WEBHOOK_SECRET"), webhooks.WithDedup(redisdedup.New(rdb)))
	if err != nil {
		return err
	}
	h := v.AsyncHandler(q, func(ctx context.Context, ev *webhooks.Event) error {
		if ev.Type == webhooks.CaseFileCompleted {
			return fetchSignedPDFs(ctx, ev.CaseFile.ID) // an error is retried, then dead-lettered
		}
		return nil
	})
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", h) // answered 202 once the event is in the stream
	srv.Handler = mux
	go srv.ListenAndServe()
	<-ctx.Done()
	_ = srv.Shutdown(context.Background()) // first stop taking deliveries,
	_, err = h.Shutdown(context.Background())
	return err // then finish the events in hand
}
