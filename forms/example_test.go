package forms_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/forms"
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

// exampleClient is a client of a small in-memory forms service (an httptest
// server), so that the examples run without the platform. With submitted,
// the service already holds a published form, whose id it returns, that two
// applicants have submitted. stop closes the server.
func exampleClient(submitted bool) (client *signkit.Client, formID string, stop func()) {
	f := &fakeForms{forms: map[string]map[string]any{}}
	srv := httptest.NewServer(f.routes())
	f.base = srv.URL
	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(srv.URL),
		Credentials: auth.Credentials{ClientID: "id", ClientSecret: "secret", APIKey: "key", APISecret: "api-secret"},
	})
	if err != nil {
		log.Fatal(err)
	}
	if submitted {
		formID = "frm-onboarding"
		f.forms[formID] = map[string]any{"formId": formID, "name": "Onboarding", "status": "ACTIVE", "version": 1}
		f.submitted = []string{"applicant1@example.com", "applicant2@example.com"}
	}
	return client, formID, srv.Close
}

// fakeForms is the forms service of the examples, with the login service's
// token endpoint, under signkit.LocalEndpoints' paths, answering in the
// platform's shapes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1).
// It keeps its forms in memory; the submissions (each one email answer) are
// those of any form.
type fakeForms struct {
	base string

	mu        sync.Mutex
	forms     map[string]map[string]any // by formId, as the service answers them
	submitted []string                  // the email of each submission, 1-based ids
}

const fakeToken = "example-token"

func (f *fakeForms) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /auth/oauth/token", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"access_token": fakeToken, "token_type": "Bearer", "expires_in": 600})
	})
	const forms = "/collect/api/v1/forms"
	mux.HandleFunc("POST "+forms, f.create)
	mux.HandleFunc("POST "+forms+"/{id}/publish", f.publish)
	mux.HandleFunc("POST "+forms+"/{id}/requests", f.request)
	mux.HandleFunc("GET "+forms+"/{id}/submissions", f.submissions)
	mux.HandleFunc("GET "+forms+"/{id}/submissions/{sub}/answers", f.answers)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/auth/") && r.Header.Get("Authorization") != "Bearer "+fakeToken {
			writeJSON(w, http.StatusUnauthorized, map[string]any{"statusCode": 401, "message": "no token"})
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
}

// create stores the definition as a draft, version 1.
func (f *fakeForms) create(w http.ResponseWriter, r *http.Request) {
	var form map[string]any
	if err := json.NewDecoder(r.Body).Decode(&form); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"statusCode": 400, "message": err.Error()})
		return
	}
	id := fmt.Sprint("frm-", len(f.forms)+1)
	form["formId"], form["status"], form["version"] = id, "DRAFT", 1
	f.forms[id] = form
	writeJSON(w, http.StatusCreated, form)
}

// publish makes the form active at its public page.
func (f *fakeForms) publish(w http.ResponseWriter, r *http.Request) {
	if form := f.find(w, r); form != nil {
		form["status"], form["publicUrl"] = "ACTIVE", f.base+"/collect/forms/"+r.PathValue("id")
		writeJSON(w, http.StatusOK, form)
	}
}

// request answers a personalised link: the public page with a request id.
func (f *fakeForms) request(w http.ResponseWriter, r *http.Request) {
	if form := f.find(w, r); form != nil {
		writeJSON(w, http.StatusOK, map[string]any{"requestUrl": fmt.Sprint(form["publicUrl"], "?request=req-1"), "requestId": "req-1"})
	}
}

// submissions answers one page, honouring offset and limit.
func (f *fakeForms) submissions(w http.ResponseWriter, r *http.Request) {
	if f.find(w, r) == nil {
		return
	}
	offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit <= 0 {
		limit = 20
	}
	items := []map[string]any{}
	for i := offset; i < len(f.submitted) && i < offset+limit; i++ {
		items = append(items, map[string]any{"submissionId": i + 1, "casefileId": 100 + i, "formVersion": 1,
			"completedAt": time.Date(2026, 3, 2, 9, i, 0, 0, time.UTC).Format(time.RFC3339)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "limit": limit, "offset": offset, "total": len(f.submitted)})
}

// answers answers one submission's answers, grouped by section.
func (f *fakeForms) answers(w http.ResponseWriter, r *http.Request) {
	if f.find(w, r) == nil {
		return
	}
	n, err := strconv.Atoi(r.PathValue("sub"))
	if err != nil || n < 1 || n > len(f.submitted) {
		writeJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "error": "not_found", "message": "no submission"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"submissionId": n, "formId": r.PathValue("id"), "version": 1,
		"sections": []any{map[string]any{"slug": "you", "title": "You", "answers": []any{
			map[string]any{"name": "email", "label": "Email", "type": "EMAIL", "value": f.submitted[n-1]},
		}}}})
}

// find returns the form the path names, or answers 404 and returns nil.
func (f *fakeForms) find(w http.ResponseWriter, r *http.Request) map[string]any {
	if form, ok := f.forms[r.PathValue("id")]; ok {
		return form
	}
	writeJSON(w, http.StatusNotFound, map[string]any{"statusCode": 404, "error": "not_found", "message": "no form"})
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
