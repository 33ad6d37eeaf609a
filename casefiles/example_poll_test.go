package casefiles_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/signkit/signkit-go/casefiles"
)

// List the case files completed since a time, as the platform's polling guide
// does (status=5, sort=-completed, completedAfter;
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files),
// here on a small stand-in of the platform whose clock stands still until
// advanced. examples/poller keeps a watermark that survives restarts.
func ExampleClient_List_completed() {
	ctx := context.Background()
	// In real code: signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...}).
	since := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	client, platform, stop := platformClient(since) // the platform's clock reads since
	defer stop()
	for _, title := range []string{"Lease", "Loan"} {
		job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{Title: title,
			Signers:   []casefiles.Signer{{Name: "Ann", Email: "ann@example.com"}},
			Documents: []casefiles.Document{{Name: "doc.pdf", Title: title}},
		}, casefiles.BytesUpload("doc.pdf", []byte("%PDF-1.7 ...")))
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
		platform.advance(time.Hour)
		platform.sign(d.ID) // on the platform: Ann signs, an hour later
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
