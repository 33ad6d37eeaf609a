package forms_test

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"testing"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/internal/testkit/sdktest"
)

// apiCall is one call of the forms client, as the failure paths see it.
type apiCall struct {
	name   string
	method string
	path   string // regexp of the path after the forms endpoint
	status int    // success status
	body   string // success body
	stream bool   // the answer is streamed, not decoded
	do     func(ctx context.Context, c *signkit.Client) error
}

const (
	formJSON        = `{"externalId":"f1","name":"Onboarding","status":"DRAFT","version":1,"sections":[]}`
	submissionsJSON = `{"items":[{"submissionId":1,"casefileId":9,"formVersion":1,"completedAt":"2026-01-02T03:04:05Z"}],"limit":10,"offset":0,"total":1}`
	answersJSON     = `{"submissionId":7,"externalId":"f1","version":1,"sections":[{"slug":"you","title":"You","answers":[{"name":"name","label":"Name","type":"TEXT","value":"Ada"}]}]}`
	filesJSON       = `[{"filename":"id.pdf","size":3,"contentType":"application/pdf","url":"` + formsURL + `/v1/files/abc"}]`
)

func validForm() *forms.Form {
	return &forms.Form{
		Name: "Onboarding",
		Sections: []forms.Section{{
			Title: "You",
			Fields: []forms.Field{
				{Name: "name", Type: forms.TypeText, MapTo: "primarySigner.name"},
				{Name: "email", Type: forms.TypeEmail, MapTo: "primarySigner.email"},
			},
		}},
	}
}

func drain(seq func(func(forms.Submission, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// allCalls lists every call of the forms client.
func allCalls() []apiCall {
	prefill := &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{"email": {Value: "a@example.com"}}}
	return []apiCall{
		{"Create", http.MethodPost, `/v1/forms`, 201, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Create(ctx, validForm())
			return err
		}},
		{"Get", http.MethodGet, `/v1/forms/f1`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Get(ctx, "f1")
			return err
		}},
		{"Update", http.MethodPut, `/v1/forms/f1`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Update(ctx, "f1", validForm())
			return err
		}},
		{"Publish", http.MethodPost, `/v1/forms/f1/publish`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Publish(ctx, "f1")
			return err
		}},
		{"Archive", http.MethodPost, `/v1/forms/f1/archive`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Archive(ctx, "f1")
			return err
		}},
		{"CreateRequest", http.MethodPost, `/v1/forms/f1/requests`, 200, `{"requestUrl":"https://forms.test/p/x","requestId":"r1"}`, false,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.Forms.CreateRequest(ctx, "f1", prefill)
				return err
			}},
		{"CreateAndPublish", http.MethodPost, `/v1/forms`, 201, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.CreateAndPublish(ctx, validForm())
			return err
		}},
		{"UpdateAndPublish", http.MethodPut, `/v1/forms/f1`, 200, formJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.UpdateAndPublish(ctx, "f1", validForm())
			return err
		}},
		{"CreateRequestV2", http.MethodPost, `/v2/forms/f1/requests`, 200, `{"requestUrl":"https://forms.test/p/x","requestId":"r1"}`, false,
			func(ctx context.Context, c *signkit.Client) error {
				_, err := c.Forms.CreateRequestV2(ctx, "f1", &forms.PrefillRequestV2{Answers: map[string][]map[string]forms.PrefillAnswer{
					"you": {{"email": {Value: "a@example.com"}}},
				}})
				return err
			}},
		{"RequestAnswers", http.MethodGet, `/v1/forms/f1/requests/r1/answers`, 200, answersJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.RequestAnswers(ctx, "f1", "r1")
			return err
		}},
		{"ListSubmissions", http.MethodGet, `/v1/forms/f1/submissions`, 200, submissionsJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.ListSubmissions(ctx, "f1", &forms.ListOptions{Limit: 10})
			return err
		}},
		{"AllSubmissions", http.MethodGet, `/v1/forms/f1/submissions`, 200, submissionsJSON, false, func(ctx context.Context, c *signkit.Client) error {
			return drain(c.Forms.AllSubmissions(ctx, "f1", nil))
		}},
		{"Answers", http.MethodGet, `/v1/forms/f1/submissions/7/answers`, 200, answersJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Answers(ctx, "f1", 7)
			return err
		}},
		{"Files", http.MethodGet, `/v1/casefiles/9/files`, 200, filesJSON, false, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.Files(ctx, 9)
			return err
		}},
		{"DownloadFile", http.MethodGet, `/v1/files/abc`, 200, "%PDF", true, func(ctx context.Context, c *signkit.Client) error {
			_, err := c.Forms.DownloadFile(ctx, forms.File{Filename: "id.pdf", URL: formsURL + "/v1/files/abc"}, io.Discard)
			return err
		}},
	}
}

func TestFailurePaths(t *testing.T) {
	t.Parallel()
	for _, c := range allCalls() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sdktest.RunFailurePaths(t, sdktest.Call{
				Name: c.name, Method: c.method, URL: regexp.QuoteMeta(formsURL) + c.path,
				Status: c.status, Body: c.body, Stream: c.stream, TokenCheck: sdktest.Bearer, Do: c.do,
			})
		})
	}
}
