package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/examples/internal/browser"
	"github.com/signkit/signkit-go/examples/internal/exampleenv"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
)

// The end user of the quickstart: the form's filler and primary signer.
const (
	signerName  = "Ada Lovelace"
	signerEmail = "ada@example.com"
	companyName = "Analytical Engines Ltd"
)

// quickstart holds what the steps pass on to each other.
type quickstart struct {
	opts   options
	env    *exampleenv.Env
	client *signkit.Client
	steps  *steps

	form       *forms.Form
	link       *forms.PrefillLink
	submission browser.Submitted
	recv       *receiver
	pdfBytes   int64
}

// onboarding is the quickstart's form: who you are (mapped to the primary
// signer), your company (only when you sign for one, with a file), and a
// review of your answers.
func onboarding() *forms.Form {
	return &forms.Form{
		Name:                  "Quickstart onboarding",
		Language:              "en",
		CaseFileTitleTemplate: "{{formName}}: {{primarySigner.name}}",
		Sections: []forms.Section{
			{Slug: "you", Title: "About you", Fields: []forms.Field{
				{Name: "name", Label: "Full name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
				{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
				{Name: "kind", Label: "You sign as", Type: forms.TypeChoice, Required: true, Options: []forms.Option{
					{Label: "A person", Value: "person"}, {Label: "A company", Value: "company"},
				}},
			}},
			{Slug: "company", Title: "Your company", Condition: forms.Equals("kind", "company"), Fields: []forms.Field{
				{Name: "company", Label: "Company name", Type: forms.TypeText, Required: true},
				{Name: "registration", Label: "Registration certificate", Type: forms.TypeFile, Required: true},
			}},
			{Slug: "review", Title: "Review", Fields: []forms.Field{
				{Name: "summary", Type: forms.TypeHTML, Content: "<p>I, {{name}} &lt;{{email}}&gt;, sign as a {{kind}}.</p>"},
			}},
		},
	}
}

func (q *quickstart) createForm(ctx context.Context) (string, error) {
	f, err := q.client.Forms.Create(ctx, onboarding())
	if err != nil {
		return "", err
	}
	q.form = f
	return fmt.Sprintf("form %s, %s version %d, %d sections", f.ExternalID, f.Status, f.Version, len(f.Sections)), nil
}

func (q *quickstart) publish(ctx context.Context) (string, error) {
	f, err := q.client.Forms.Publish(ctx, q.form.ExternalID)
	if err != nil {
		return "", err
	}
	if f.Status != forms.StatusActive || f.PublicURL == "" {
		return "", fmt.Errorf("form is %s with public URL %q after publishing", f.Status, f.PublicURL)
	}
	q.form = f
	return fmt.Sprintf("%s at %s", f.Status, f.PublicURL), nil
}

func (q *quickstart) prefill(ctx context.Context) (string, error) {
	link, err := q.client.Forms.CreateRequestFor(ctx, q.form, &forms.PrefillRequest{Answers: map[string]forms.PrefillAnswer{
		"email": {Value: signerEmail, Editable: false},
		"name":  {Value: "Ada", Editable: true},
	}})
	if err != nil {
		return "", err
	}
	q.link = link
	return fmt.Sprintf("email locked to %s, name editable: %s", signerEmail, link.RequestURL), nil
}

// submit opens the prefilled page, fills in the rest and submits it with a
// file, over HTTP, as a browser does.
func (q *quickstart) submit(ctx context.Context) (string, error) {
	var b browser.Browser
	page, err := b.Open(ctx, q.link.RequestURL)
	if err != nil {
		return "", err
	}
	if page.Locked["email"] != signerEmail {
		return "", fmt.Errorf("the page shows the email locked as %q, want %q", page.Locked["email"], signerEmail)
	}
	cert := mockserver.SamplePDF("Certificate of registration", companyName, "Registered 1843")
	s, err := b.Submit(ctx, page, map[string]string{"name": signerName, "kind": "company", "company": companyName},
		browser.File{Field: "registration", Filename: "registration.pdf", Content: cert})
	if err != nil {
		return "", err
	}
	q.submission = *s
	return fmt.Sprintf("submission %d with registration.pdf (%d bytes) -> case file %d", s.SubmissionID, len(cert), s.CaseFileID), nil
}

// readSubmissions lists the submissions and reads the answers and files of
// the last one.
func (q *quickstart) readSubmissions(ctx context.Context) (string, error) {
	subs, err := q.client.Forms.ListSubmissions(ctx, q.form.ExternalID, &forms.ListOptions{Limit: forms.MaxPageSize})
	if err != nil {
		return "", err
	}
	if len(subs) == 0 {
		if q.env.IsMock() {
			return "", errors.New("no submission listed after submitting")
		}
		return "no submissions yet (open the prefilled link to make one)", nil
	}
	last := subs[len(subs)-1]
	if q.env.IsMock() && (last.SubmissionID != q.submission.SubmissionID || last.CaseFileID != q.submission.CaseFileID) {
		return "", fmt.Errorf("listed submission %d (case file %d), want %d", last.SubmissionID, last.CaseFileID, q.submission.SubmissionID)
	}
	q.submission = browser.Submitted{SubmissionID: last.SubmissionID, CaseFileID: last.CaseFileID}
	answers, err := q.client.Forms.Answers(ctx, q.form.ExternalID, last.SubmissionID)
	if err != nil {
		return "", err
	}
	m := answers.Map()
	files, err := q.readFiles(ctx, last.CaseFileID)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d submission(s); name=%q email=%q company=%q; files: %s",
		len(subs), m["name"], m["email"], m["company"], files), nil
}

// readFiles lists the attachments of a case file and downloads each.
func (q *quickstart) readFiles(ctx context.Context, caseFileID int64) (string, error) {
	files, err := q.client.Forms.Files(ctx, caseFileID)
	if err != nil {
		return "", err
	}
	var names []string
	for _, f := range files {
		n, err := q.client.Forms.DownloadFile(ctx, f, io.Discard)
		if err != nil {
			return "", fmt.Errorf("download %s: %w", f.Filename, err)
		}
		if n != f.Size {
			return "", fmt.Errorf("downloaded %d bytes of %s, listed as %d", n, f.Filename, f.Size)
		}
		names = append(names, fmt.Sprintf("%s (%d bytes, downloaded)", f.Filename, n))
	}
	if q.env.IsMock() && !slices.ContainsFunc(files, func(f forms.File) bool { return f.Filename == "registration.pdf" }) {
		return "", errors.New("the uploaded registration.pdf is not among the case file's files")
	}
	if len(names) == 0 {
		return "none", nil
	}
	return strings.Join(names, ", "), nil
}
