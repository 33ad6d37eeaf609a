package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/examples/internal/atomicfile"
	"github.com/signkit/signkit-go/examples/internal/browser"
)

// sign does what the signer does: open the signing request email, follow its
// link to the signing page and press Sign.
func (q *quickstart) sign(ctx context.Context) (string, error) {
	emails, err := q.env.Emails(ctx, nil)
	if err != nil {
		return "", err
	}
	link := ""
	for _, m := range emails {
		if m.To == signerEmail && m.SigningLink != "" {
			link = m.SigningLink
		}
	}
	if link == "" {
		return "", fmt.Errorf("no signing request email to %s among %d emails", signerEmail, len(emails))
	}
	msg, err := browser.Browser{}.Sign(ctx, link)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("followed the link in %s's email, signed: %q", signerEmail, msg), nil
}

// download saves the signed PDF of the case file's signable document.
func (q *quickstart) download(ctx context.Context) (string, error) {
	id := q.submission.CaseFileID
	if q.opts.caseFileID != 0 {
		id = q.opts.caseFileID
	}
	d, err := q.client.CaseFiles.Get(ctx, id)
	if err != nil {
		return "", err
	}
	if d.Status != casefiles.CaseFileCompleted {
		return "", fmt.Errorf("case file %d is %s, not completed", id, d.Status)
	}
	i := slices.IndexFunc(d.Documents, func(doc casefiles.DocumentDetails) bool { return doc.Signable })
	if i < 0 {
		return "", fmt.Errorf("case file %d has no signed document", id)
	}
	n, err := atomicfile.Write(q.opts.out, func(w io.Writer) (int64, error) {
		// The integer ID; DocumentID is only a key stamped on the pages.
		return q.client.CaseFiles.DownloadDocument(ctx, d.Documents[i].ID, w)
	})
	if err != nil {
		return "", err
	}
	if err := checkPDF(q.opts.out); err != nil {
		return "", err
	}
	q.pdfBytes = n
	return fmt.Sprintf("%q of %q, %d bytes, saved to %s", d.Documents[i].Title, d.Title, n, q.opts.out), nil
}

// checkPDF checks that the file at path starts like a PDF.
func checkPDF(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, 5)
	if _, err := io.ReadFull(f, head); err != nil || !bytes.Equal(head, []byte("%PDF-")) {
		return fmt.Errorf("%s is not a PDF (starts %q)", path, head)
	}
	return nil
}

// cleanup archives the form and deletes the subscription, so that the
// account is left as it was (at most five subscriptions may be active).
func (q *quickstart) cleanup(ctx context.Context) (string, error) {
	var done []string
	var errs []error
	if q.recv != nil && q.recv.sub != nil {
		if err := q.client.Subscriptions.Delete(ctx, q.recv.sub.ID); err != nil {
			errs = append(errs, fmt.Errorf("delete subscription: %w", err))
		} else {
			done = append(done, "subscription deleted")
		}
	}
	if q.form != nil {
		if f, err := q.client.Forms.Archive(ctx, q.form.ExternalID); err != nil {
			errs = append(errs, fmt.Errorf("archive form: %w", err))
		} else {
			done = append([]string{"form " + string(f.Status)}, done...)
		}
	}
	return strings.Join(done, ", "), errors.Join(errs...)
}

// summary prints what the run achieved.
func (q *quickstart) summary(w io.Writer) {
	fmt.Fprintf(w, "done in %s\n", q.steps.total())
	fmt.Fprintf(w, "  form          %s (%s)\n", q.form.ExternalID, q.form.Name)
	if q.submission.SubmissionID != 0 {
		fmt.Fprintf(w, "  submission    %d -> case file %d\n", q.submission.SubmissionID, q.submission.CaseFileID)
	}
	if q.env.IsMock() {
		fmt.Fprintf(w, "  signed by     %s <%s>, verified sign.casefile.completed received\n", signerName, signerEmail)
	}
	if q.pdfBytes > 0 {
		fmt.Fprintf(w, "  signed PDF    %s (%d bytes)\n", q.opts.out, q.pdfBytes)
	}
}
