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

// Fix a signer whose request bounced: correct the address, send the
// request again, and fetch the signing link to hand out by other means.
// The bundled mock plays the platform here, in process.
func ExampleClient_UpdateSigningRequest() {
	ctx := context.Background()
	srv := mockserver.New(mockserver.WithManualClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)))
	defer srv.Close()
	cfg := srv.Config() // on the platform: signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...}
	cfg.HTTPClient = &http.Client{Transport: srv.Transport()}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		log.Fatal(err)
	}

	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Lease",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@exmaple.com"}}, // mistyped
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}, casefiles.BytesUpload("lease.pdf", mockserver.SamplePDF("Lease")))
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
	// On the platform the bounce comes as sign.signer.undeliverable; the
	// mock is told to play it.
	if err := srv.SignerAction(d.ID, d.Signers[0].ID, mockserver.ActionUndeliverable); err != nil {
		log.Fatal(err)
	}
	if d, err = client.CaseFiles.Get(ctx, res.CaseFileID); err != nil {
		log.Fatal(err)
	}
	ada := d.Signers[0]
	fmt.Println(ada.Email, ada.Status)

	err = client.CaseFiles.UpdateSigningRequest(ctx, ada.SigningRequestID, &casefiles.SigningRequestUpdate{
		Email: signkit.Ptr("ada@example.com"),
	})
	if err != nil {
		log.Fatal(err) // signkit.ErrConflict once Ada has signed or rejected
	}
	if err := client.CaseFiles.ResendSigningRequest(ctx, ada.SigningRequestID); err != nil {
		log.Fatal(err) // signkit.ErrOutcomeUnknown: look at the signer before sending again
	}
	if d, err = client.CaseFiles.Get(ctx, res.CaseFileID); err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Signers[0].Email, d.Signers[0].Status)

	link, err := client.CaseFiles.SigningRequestLink(ctx, ada.SigningRequestID)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range srv.EmailsTo("ada@example.com") {
		fmt.Println(m.Subject, m.SigningLink == link)
	}
	// Output:
	// ada@exmaple.com undeliverable
	// ada@example.com pending
	// Please sign "Lease" true
}
