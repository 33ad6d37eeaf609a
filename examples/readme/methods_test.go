package readme_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// sendWithMitID is the README's signing-methods snippet: a case file whose
// buyer must sign with MitID and whose seller signs with BankID (Sweden) or
// a drawn signature and gets HTML email; it prints what the platform reads
// back.
func sendWithMitID(ctx context.Context, client *signkit.Client, contract casefiles.Upload) error {
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title: "Share purchase",
		Signers: []casefiles.Signer{
			{Name: "Mads Buyer", Email: "mads@example.dk",
				SecureSigningMethods: []casefiles.SecureSigningMethod{casefiles.SecureMitID}},
			{Name: "Sara Seller", Email: "sara@example.se",
				SecureSigningMethods:   []casefiles.SecureSigningMethod{casefiles.SecureBankIDSweden},
				EnableInsecureSigning:  true,
				InsecureSigningMethods: []casefiles.InsecureSigningMethod{casefiles.InsecureDraw},
				EmailFormat:            casefiles.EmailFormatHTML},
		},
		Documents: []casefiles.Document{{Name: "spa.pdf", Title: "Share purchase agreement"}},
	}, contract)
	if err != nil {
		return err
	}
	res, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		return err
	}
	cf, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		return err
	}
	for _, s := range cf.Signers {
		fmt.Println(s.Name, s.SecureSigningMethods, s.InsecureSigningMethods, s.EmailFormat)
	}
	return nil
}

// TestSendWithMitID runs the README's signing-methods snippet on the mock.
func TestSendWithMitID(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t, mockserver.WithJobDelay(0))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	if err := sendWithMitID(t.Context(), client, casefiles.BytesUpload("spa.pdf", mockserver.SamplePDF("Agreement"))); err != nil {
		t.Fatal(err)
	}
}

// Example_signingMethods prints the signing methods the mock reads back.
func Example_signingMethods() {
	srv := mockserver.New(mockserver.WithJobDelay(0))
	defer srv.Close()
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Transport: srv.Transport()}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := sendWithMitID(context.Background(), client, casefiles.BytesUpload("spa.pdf", mockserver.SamplePDF("Agreement"))); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Mads Buyer [mitid.dk] [] text
	// Sara Seller [bankid_se] [draw] html
}
