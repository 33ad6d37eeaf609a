package forms_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strconv"

	"github.com/jarcoal/httpmock"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/forms"
)

// Create a form, publish it, and hand a personalised link with the email
// locked to one applicant.
func ExampleClient_Create() {
	ctx := context.Background()
	client := exampleClient() // signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...})

	form, err := client.Forms.Create(ctx, &forms.Form{
		Name:                  "Onboarding",
		CaseFileTitleTemplate: "{{formName}}: {{primarySigner.name}}",
		Sections: []forms.Section{{
			Title: "About you",
			Fields: []forms.Field{
				{Name: "name", Label: "Full name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
				{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
			},
		}},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", form.ExternalID, form.Status)

	form, err = client.Forms.Publish(ctx, form.ExternalID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("published", form.Status, form.PublicURL)

	link, err := client.Forms.CreateRequestFor(ctx, form, &forms.PrefillRequest{
		Answers: map[string]forms.PrefillAnswer{
			"email": {Value: "ada@example.com", Editable: false}, // locked
			"name":  {Value: "Ada", Editable: true},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("send", link.RequestURL)
	// Output:
	// created f-1 DRAFT
	// published ACTIVE https://forms.example/public/forms/f-1
	// send https://forms.example/public/forms/f-1?request=r-1
}

// Read every submission of a form with its answers.
func ExampleClient_AllSubmissions() {
	ctx := context.Background()
	client := exampleClient()

	for s, err := range client.Forms.AllSubmissions(ctx, "f-1", nil) {
		if err != nil {
			log.Fatal(err)
		}
		answers, err := client.Forms.Answers(ctx, "f-1", s.SubmissionID)
		if err != nil {
			log.Fatal(err)
		}
		email, _ := answers.Get("email")
		fmt.Printf("submission %d, case file %d: %s\n", s.SubmissionID, s.CaseFileID, email)
	}
	// Output:
	// submission 1, case file 101: applicant1@example.com
	// submission 2, case file 102: applicant2@example.com
}

// exampleClient is a client of a canned forms service, so that the examples
// run without a network.
func exampleClient() *signkit.Client {
	const base = "https://forms.example"
	mt := httpmock.NewMockTransport()
	mt.RegisterResponder(http.MethodPost, base+"/auth/oauth/token",
		httpmock.NewStringResponder(200, `{"access_token":"t","token_type":"Bearer","expires_in":600}`))
	api := base + "/collect/api/v1"
	draft := `{"externalId":"f-1","name":"Onboarding","status":"DRAFT","version":1,"sections":[]}`
	active := `{"externalId":"f-1","name":"Onboarding","status":"ACTIVE","version":1,
		"publicUrl":"` + base + `/public/forms/f-1","sections":[{"fields":[{"name":"name","type":"TEXT"},{"name":"email","type":"EMAIL"}]}]}`
	mt.RegisterResponder(http.MethodPost, api+"/forms", httpmock.NewStringResponder(201, draft))
	mt.RegisterResponder(http.MethodPost, api+"/forms/f-1/publish", httpmock.NewStringResponder(200, active))
	mt.RegisterResponder(http.MethodPost, api+"/forms/f-1/requests",
		httpmock.NewStringResponder(201, `{"requestUrl":"`+base+`/public/forms/f-1?request=r-1","requestId":"r-1"}`))
	mt.RegisterResponder(http.MethodGet, api+"/forms/f-1/submissions", httpmock.NewStringResponder(200,
		`{"items":[{"submissionId":1,"casefileId":101},{"submissionId":2,"casefileId":102}],"limit":1000,"offset":0,"total":2}`))
	for id := 1; id <= 2; id++ {
		mt.RegisterResponder(http.MethodGet, api+"/forms/f-1/submissions/"+strconv.Itoa(id)+"/answers",
			httpmock.NewStringResponder(200, fmt.Sprintf(`{"submissionId":%d,"externalId":"f-1","version":1,"sections":[{"answers":[
				{"name":"email","type":"EMAIL","value":"applicant%d@example.com"}]}]}`, id, id)))
	}
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
