package casefiles_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// List the case files completed since a time, as the platform's polling guide
// does (status=5, sort=-completed, completedAfter;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files),
// here on a mock server whose clock stands still until advanced.
// examples/poller keeps a watermark that survives restarts.
func ExampleClient_List_completed() {
	ctx := context.Background()
	srv := mockserver.New(mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)))
	defer srv.Close()
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: srv.Transport()} // in process
	client, err := signkit.NewClient(cfg)
	if err != nil {
		log.Fatal(err)
	}
	since := srv.Now()
	for _, title := range []string{"Lease", "Loan"} {
		job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: title,
			Signers:   []casefiles.Signer{{Name: "Ann", Email: "ann@example.com"}},
			Documents: []casefiles.Document{{Name: "doc.pdf", Title: title}},
		}, casefiles.BytesUpload("doc.pdf", mockserver.SamplePDF(title)))
		if err != nil {
			log.Fatal(err)
		}
		res, err := client.CaseFiles.Wait(ctx, job)
		if err != nil {
			log.Fatal(err)
		}
		d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
		if err != nil {
			log.Fatal(err)
		}
		srv.Advance(time.Hour)
		if err := srv.SignerAction(d.ID, d.Signers[0].ID, mockserver.ActionSign); err != nil {
			log.Fatal(err)
		}
	}

	completed := casefiles.CaseFileCompleted
	done, err := client.CaseFiles.List(ctx, &casefiles.ListOptions{
		Status: &completed, Sort: "-completed", CompletedAfter: since,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range done {
		fmt.Println(d.ID, d.Title, "completed", d.Completed.UTC().Format(time.DateTime))
	}
	// Output:
	// 2 Loan completed 2026-03-02 11:00:00
	// 1 Lease completed 2026-03-02 10:00:00
}
