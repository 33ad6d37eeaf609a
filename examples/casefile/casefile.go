package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/examples/internal/atomicfile"
	"github.com/signkit/signkit-go/examples/internal/browser"
	"github.com/signkit/signkit-go/examples/internal/exampleenv"
	"github.com/signkit/signkit-go/mockserver"
)

// definition is the case file: the employee signs first, then the employer,
// then a witness who has no email; the handbook is attached, not signed.
func definition(o options) (*casefiles.CaseFile, []casefiles.Upload) {
	cf := &casefiles.CaseFile{
		Title: "Employment contract: Ada Employee",
		Signers: []casefiles.Signer{{
			Name: "Ada Employee", Email: o.employeeEmail, Role: "employee", SignOrder: 0,
			EmailSubject:          "Your employment contract is ready to sign",
			EmailText:             "Dear Ada,\n\nwelcome aboard! Please read and sign your contract.",
			ReminderEmailSubject:  "Reminder: your contract is waiting",
			ReminderEmailText:     "Dear Ada,\n\nyour contract still needs your signature.",
			CompletedEmailSubject: "Your contract is signed",
			CompletedEmailText:    "Dear Ada,\n\neveryone has signed. The signed contract is attached to your case file.",
			ReminderInterval:      2, // every second day until she signs
		}, {
			Name: "Bob Boss", Email: o.employerEmail, Role: "employer", SignOrder: 1,
			EmailSubject:     "Countersign: Ada Employee's contract",
			EmailText:        "Ada has signed. Please countersign.",
			ReminderInterval: 1,
		}, {
			// No email: the platform sends nothing; deliver the link from Wait yourself.
			Name: "Wendy Witness", Role: "witness", SignOrder: 2,
		}},
		Documents: []casefiles.Document{
			{Name: "contract.pdf", Title: "Employment contract", Roles: []string{"employee", "employer", "witness"}},
			{Name: "handbook.pdf", Title: "Staff handbook", Signable: signkit.Ptr(false)},
		},
	}
	uploads := []casefiles.Upload{
		casefiles.BytesUpload("contract.pdf", mockserver.SamplePDF("Employment contract",
			"Employer: Bob Boss, on behalf of Example Ltd.", "Employee: Ada Employee",
			"Position: analytical engine programmer", "Witness: Wendy Witness")),
		casefiles.BytesUpload("handbook.pdf", mockserver.SamplePDF("Staff handbook",
			"1. Be kind.", "2. Sign your contract.")),
	}
	return cf, uploads
}

// create sends the case file with its files in one request and waits for
// the creation job.
func create(ctx context.Context, client *signkit.Client, o options, w io.Writer) (*casefiles.Result, error) {
	cf, uploads := definition(o)
	start := time.Now()
	job, err := client.CaseFiles.Create(ctx, cf, uploads...)
	if err != nil {
		return nil, fmt.Errorf("create the case file: %w", err)
	}
	var size int64
	for _, u := range uploads {
		size += u.Size
	}
	fmt.Fprintf(w, "created job %s: %d signers, %d documents, %d bytes uploaded in one request\n",
		job.UUID, len(cf.Signers), len(cf.Documents), size)
	res, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		return nil, fmt.Errorf("wait for the creation job: %w", err)
	}
	fmt.Fprintf(w, "case file %d created after %s\n", res.CaseFileID, time.Since(start).Round(time.Millisecond))
	for _, l := range res.SigningLinks {
		if l.Email == "" {
			fmt.Fprintf(w, "signing link for %s (%s, no email: deliver it yourself):\n  %s\n", l.Name, l.Role, l.URL)
		}
	}
	return res, nil
}

// describe prints the case file as the signing service describes it.
func describe(ctx context.Context, client *signkit.Client, res *casefiles.Result, w io.Writer) error {
	d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		return fmt.Errorf("get case file %d: %w", res.CaseFileID, err)
	}
	fmt.Fprintf(w, "%q is %s\n", d.Title, d.Status)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  round\tsigner\trole\temail\tstatus")
	for _, s := range sortedSigners(d) {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\n", s.SignOrder, s.Name, s.Role, cmp.Or(s.Email, "(none)"), s.Status)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("print signers: %w", err)
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  document\tsize\tkind")
	for _, doc := range d.Documents {
		kind := "to sign"
		if !doc.Signable {
			kind = "attachment, not signed"
		}
		fmt.Fprintf(tw, "  %s\t%d bytes\t%s\n", doc.Title, doc.FileSize, kind)
	}
	return tw.Flush()
}

func sortedSigners(d *casefiles.Details) []casefiles.SignerDetails {
	s := slices.Clone(d.Signers)
	slices.SortStableFunc(s, func(a, b casefiles.SignerDetails) int { return cmp.Compare(a.SignOrder, b.SignOrder) })
	return s
}

// printEmails lists what the mock server has emailed so far: the custom
// signing request text went to the first round only.
func printEmails(ctx context.Context, e *exampleenv.Env, w io.Writer) error {
	emails, err := e.Emails(ctx, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "emails sent so far (mock outbox): %d\n", len(emails))
	for _, m := range emails {
		fmt.Fprintf(w, "  to %s: %q\n", m.To, m.Subject)
	}
	return nil
}

// signAll signs as every signer, round by round, through the signing pages
// behind the links of the job's result, then saves the signed contract.
func signAll(ctx context.Context, client *signkit.Client, res *casefiles.Result, out string, w io.Writer) error {
	d, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		return fmt.Errorf("get case file %d: %w", res.CaseFileID, err)
	}
	links := map[string]string{}
	for _, l := range res.SigningLinks {
		links[l.Name] = l.URL
	}
	var b browser.Browser
	for _, s := range sortedSigners(d) {
		msg, err := b.Sign(ctx, links[s.Name])
		if err != nil {
			return fmt.Errorf("sign as %s: %w", s.Name, err)
		}
		fmt.Fprintf(w, "signed as %s (round %d): %s\n", s.Name, s.SignOrder, msg)
	}
	if d, err = client.CaseFiles.Get(ctx, res.CaseFileID); err != nil {
		return fmt.Errorf("get case file %d: %w", res.CaseFileID, err)
	}
	fmt.Fprintf(w, "%q is %s\n", d.Title, d.Status)
	if d.Status != casefiles.CaseFileCompleted {
		return fmt.Errorf("case file %d is %s after everyone signed, want completed", d.ID, d.Status)
	}
	if out == "" {
		return nil
	}
	return saveContract(ctx, client, d, out, w)
}

// saveContract downloads the signed contract (the signable document) to path.
func saveContract(ctx context.Context, client *signkit.Client, d *casefiles.Details, path string, w io.Writer) error {
	i := slices.IndexFunc(d.Documents, func(doc casefiles.DocumentDetails) bool { return doc.Signable })
	if i < 0 {
		return fmt.Errorf("case file %d has no signable document", d.ID)
	}
	n, err := atomicfile.Write(path, func(f io.Writer) (int64, error) {
		// The integer ID; DocumentID is only a key stamped on the pages.
		return client.CaseFiles.DownloadDocument(ctx, d.Documents[i].ID, f)
	})
	if err != nil {
		return fmt.Errorf("save the signed contract: %w", err)
	}
	fmt.Fprintf(w, "saved the signed %s to %s (%d bytes)\n", strings.ToLower(d.Documents[i].Title), path, n)
	return nil
}
