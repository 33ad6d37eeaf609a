package casefiles_test

import (
	"context"
	"fmt"
	"log"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

// Fix a signer whose request bounced: correct the address, send the
// request again, and fetch the signing link to hand out by other means.
// A small stand-in of the platform answers here.
func ExampleClient_UpdateSigningRequest() {
	ctx := context.Background()
	// In real code: signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...}).
	client, platform, stop := platformClient(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	defer stop()

	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Lease",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@exmaple.com"}}, // mistyped
		Documents: []casefiles.Document{{Name: "lease.pdf", Title: "Lease"}},
	}, casefiles.BytesUpload("lease.pdf", []byte("%PDF-1.7 ...")))
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
	// On the platform the bounce comes as sign.signer.undeliverable.
	platform.bounce(d.Signers[0].ID)
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
	fmt.Println(link)
	// Output:
	// ada@exmaple.com undeliverable
	// ada@example.com pending
	// https://sign.example/sign/111
}
