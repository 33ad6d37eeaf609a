package forms_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"mime/multipart"
	"net/http"
	"strings"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// Create a form, publish it, and hand a personalised link with the email
// locked to one applicant.
func ExampleClient_Create() {
	ctx := context.Background()
	// In real code: signkit.NewClient(signkit.Config{Endpoints: signkit.Sandbox, Credentials: ...}).
	client, _, stop := exampleClient(false)
	defer stop()

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
	fmt.Println("created:", form.Status)

	form, err = client.Forms.Publish(ctx, form.ExternalID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("published:", form.Status, strings.HasPrefix(form.PublicURL, "http"))

	link, err := client.Forms.CreateRequestFor(ctx, form, &forms.PrefillRequest{
		Answers: map[string]forms.PrefillAnswer{
			"email": {Value: "ada@example.com", Editable: false}, // locked
			"name":  {Value: "Ada", Editable: true},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("personalised link:", strings.HasPrefix(link.RequestURL, form.PublicURL))
	// Output:
	// created: DRAFT
	// published: ACTIVE true
	// personalised link: true
}

// Read every submission of a form with its answers.
func ExampleClient_AllSubmissions() {
	ctx := context.Background()
	client, formID, stop := exampleClient(true)
	defer stop()

	for s, err := range client.Forms.AllSubmissions(ctx, formID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		answers, err := client.Forms.Answers(ctx, formID, s.SubmissionID)
		if err != nil {
			log.Fatal(err)
		}
		email, _ := answers.Get("email")
		fmt.Printf("submission %d: %s\n", s.SubmissionID, email)
	}
	// Output:
	// submission 1: applicant1@example.com
	// submission 2: applicant2@example.com
}

// exampleClient is a client of an in-process mock server (package
// mockserver), so that the examples run without a network. With submitted,
// it creates and publishes a form, whose id it returns, and two applicants
// submit it. stop closes the mock server.
func exampleClient(submitted bool) (client *signkit.Client, formID string, stop func()) {
	s := mockserver.New(mockserver.WithBaseURL("http://mock.example"))
	cfg := s.Config()
	cfg.HTTPClient = &http.Client{Transport: s.Transport()}
	client, err := signkit.NewClient(cfg)
	if err != nil {
		log.Fatal(err)
	}
	if !submitted {
		return client, "", s.Close
	}
	ctx := context.Background()
	form, err := client.Forms.Create(ctx, &forms.Form{Name: "Onboarding", Sections: []forms.Section{{Fields: []forms.Field{
		{Name: "name", Type: forms.TypeText, MapTo: "primarySigner.name"},
		{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email"},
	}}}})
	if err != nil {
		log.Fatal(err)
	}
	if form, err = client.Forms.Publish(ctx, form.ExternalID); err != nil {
		log.Fatal(err)
	}
	for i := 1; i <= 2; i++ { // two applicants post the public page
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		_ = mw.WriteField("name", fmt.Sprint("Applicant ", i))
		_ = mw.WriteField("email", fmt.Sprintf("applicant%d@example.com", i))
		_ = mw.Close()
		req, _ := http.NewRequest(http.MethodPost, form.PublicURL, &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Accept", "application/json")
		resp, err := s.Transport().RoundTrip(req)
		if err != nil || resp.StatusCode != http.StatusCreated {
			log.Fatalf("submit: %v %v", resp, err)
		}
		resp.Body.Close()
	}
	return client, form.ExternalID, s.Close
}
