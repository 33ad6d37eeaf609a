package casefiles_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/jarcoal/httpmock"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
)

// Find out why a case file did not complete: a rejecting signer's reason,
// or the reasons the platform gives for a failed case file.
func ExampleClient_Errors() {
	ctx := context.Background()
	client := reasonsExampleClient()

	rejected, err := client.CaseFiles.Get(ctx, 44)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range rejected.Signers {
		if s.Status == casefiles.SignerRejected {
			fmt.Printf("%s rejected: %q\n", s.Name, s.RejectReason)
		}
	}

	reasons, err := client.CaseFiles.Errors(ctx, 45)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range reasons {
		fmt.Println("failed:", r)
	}
	// Output:
	// Bob Boss rejected: "The salary is wrong."
	// failed: The signed PDF of document "Contract" could not be made: its original is not a readable PDF.
}

// reasonsExampleClient is a client of a fake platform with a rejected case
// file (44) and a failed one (45).
func reasonsExampleClient() *signkit.Client {
	const base = "https://platform.example"
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, base+"/auth/oauth/token",
		httpmock.NewStringResponder(200, `{"access_token":"t","token_type":"Bearer","expires_in":600}`))
	mt.RegisterResponder(http.MethodGet, base+"/api/v1/casefiles/44", httpmock.NewStringResponder(200,
		`{"id":44,"title":"Employment contract","status":2,"signers":[
			{"id":1,"name":"Ada Employee","signingRequest":{"id":11,"status":4}},
			{"id":2,"name":"Bob Boss","signingRequest":{"id":12,"status":2,"rejectReason":"The salary is wrong."}}]}`))
	mt.RegisterResponder(http.MethodGet, base+"/api/v1/casefiles/45/errors", httpmock.NewStringResponder(200,
		`["The signed PDF of document \"Contract\" could not be made: its original is not a readable PDF."]`))
	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(base),
		Credentials: auth.Credentials{ClientID: "id", ClientSecret: "secret", APIKey: "key", APISecret: "api-secret"},
		HTTPClient:  &http.Client{Transport: mt},
	})
	if err != nil {
		log.Fatal(err)
	}
	return client
}
