package vendorcheck

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
)

// Stage is one newman run over some of a collection's requests, and what a
// person does after it, before the next stage.
type Stage struct {
	Name  string   // used in file names
	Items []string // request or folder names, run in the collection's order
	// After runs once the stage is done, with the collection variables as the
	// stage left them; it may change them for the next stage.
	After func(ctx context.Context, m *Mock, vars map[string]string) error
}

// Plan is how one vendor collection runs against the mock.
type Plan struct {
	Label  string // the collection's name in reports and in https://github.com/signkit/signkit-go/blob/main/docs/vendor-exceptions.md
	File   string // path of the collection, relative to the vendor directory
	Stages func(col *Collection) []Stage
}

// Plans are the four vendor collections: Sign/Send, Collect, the older
// Collect (commit 05b58aa) and Webhooks.
func Plans() []Plan {
	return []Plan{
		{Label: "Penneo API", File: filepath.Join("postman", "penneo-api.postman_collection.json"), Stages: signSendStages},
		{Label: "Penneo Collect API", File: filepath.Join("postman", "penneo-collect-api.postman_collection.json"), Stages: collectStages},
		{Label: "Penneo Collect API (05b58aa)", File: filepath.Join("postman", "history", "05b58aa", "penneo-collect-api.postman_collection.json"), Stages: collectStages},
		{Label: "Penneo Webhooks", File: filepath.Join("postman", "penneo-webhooks.postman_collection.json"), Stages: func(c *Collection) []Stage {
			return []Stage{{Name: "all", Items: c.RequestNames()}}
		}},
	}
}

// signSendStages: token and Send create; then, once the job has run (as a
// person re-runs "3. Poll Job Status" until it completes), the rest.
func signSendStages(c *Collection) []Stage {
	names := c.RequestNames()
	return []Stage{
		{Name: "send", Items: names[:2], After: func(ctx context.Context, m *Mock, vars map[string]string) error {
			st, err := m.WaitJob(ctx, vars["jobUuid"], vars["payloadHash"])
			if err != nil {
				return err
			}
			if st != "completed" {
				return fmt.Errorf("%w: the Send job ended %s", ErrMock, st)
			}
			return nil
		}},
		{Name: "casefile", Items: names[2:]},
	}
}

// collectStages: the form and its prefilled request; then the person fills
// in and submits the prefilled form, and the signers sign the case file it
// made; then the request's answers, the example forms and the deactivation
// (of the last form created); then the person points the form variable back
// at the form that has the submission, and the data retrieval runs.
func collectStages(c *Collection) []Stage {
	formVar := "formId"
	if !c.HasVariable(formVar) {
		formVar = "externalId" // the older collection
	}
	var formID string
	middle := []string{"Form Examples", "Deactivate Form"}
	if slices.Contains(c.RequestNames(), "Get Request Answers") {
		middle = append([]string{"Get Request Answers"}, middle...)
	}
	return []Stage{
		{Name: "form", Items: []string{"1. Get Access Token", "Form Management", "Create Prefilled Form Request"},
			After: func(ctx context.Context, m *Mock, vars map[string]string) error {
				formID = vars[formVar]
				cfID, err := m.SubmitForm(ctx, vars["accessToken"], formID, vars["requestUrl"])
				if err != nil {
					return fmt.Errorf("submit the prefilled form: %w", err)
				}
				if err := m.SignCaseFile(ctx, vars["accessToken"], cfID); err != nil {
					return fmt.Errorf("sign case file %s: %w", strconv.FormatInt(cfID, 10), err)
				}
				return nil
			}},
		{Name: "examples", Items: middle, After: func(_ context.Context, _ *Mock, vars map[string]string) error {
			vars[formVar] = formID
			return nil
		}},
		{Name: "data", Items: []string{"Data Retrieval"}},
	}
}

// BaseVariables are the collection variables a person fills in before the first
// run: the mock's base URLs in the collection's layout
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md:
// LocalEndpoints), the credentials and, for the webhooks collection, the
// endpoint that receives the deliveries.
func BaseVariables(col *Collection, mockURL string, cred Credentials, webhookEndpoint string) map[string]string {
	vars := map[string]string{
		"authUrl":      mockURL + "/auth",
		"baseUrl":      mockURL,
		"clientId":     cred.ClientID,
		"clientSecret": cred.ClientSecret,
		"apiKey":       cred.APIKey,
		"apiSecret":    cred.APISecret,
	}
	if col.HasVariable("signBaseUrl") { // Collect: baseUrl is the Forms service
		vars["baseUrl"] = mockURL + "/collect/api"
		vars["signBaseUrl"] = mockURL
	}
	if col.HasVariable("webhookEndpoint") {
		vars["webhookEndpoint"] = webhookEndpoint
	}
	return vars
}

// SecretVariables are the variables whose values must never be printed.
var SecretVariables = []string{"clientSecret", "apiSecret", "accessToken", "digest", "subscriptionSecret"}
