package readme_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/mockserver"
)

// saveSignedPDFs is the README's signed-PDF snippet: it saves the signed PDF
// of each document of a completed case file into dir.
func saveSignedPDFs(ctx context.Context, client *signkit.Client, caseFileID int64, dir string) error {
	cf, err := client.CaseFiles.Get(ctx, caseFileID)
	if err != nil {
		return err
	}
	for _, doc := range cf.Documents {
		var pdf bytes.Buffer
		// doc.ID is the document's integer id; doc.DocumentID is only a key stamped on its pages.
		if _, err := client.CaseFiles.DownloadDocument(ctx, doc.ID, &pdf); err != nil {
			return err
		}
		name := filepath.Join(dir, fmt.Sprintf("casefile-%d-document-%d.pdf", caseFileID, doc.ID))
		if err := os.WriteFile(name, pdf.Bytes(), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// TestSaveSignedPDFs runs the README's signed-PDF snippet on a case file
// that the mock's only signer has signed.
func TestSaveSignedPDFs(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{
		Title:     "Contract",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "contract.pdf", Title: "Contract"}},
	}, casefiles.BytesUpload("contract.pdf", mockserver.SamplePDF("Contract")))
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.CaseFiles.Wait(ctx, job)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := client.CaseFiles.Get(ctx, res.CaseFileID)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SignerAction(cf.ID, cf.Signers[0].ID, "sign"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := saveSignedPDFs(ctx, client, cf.ID, dir); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, fmt.Sprintf("casefile-%d-document-%d.pdf", cf.ID, cf.Documents[0].ID))
	pdf, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) || len(pdf) <= len(mockserver.SamplePDF("Contract")) {
		t.Fatalf("%s is not the signed PDF (%d bytes)", want, len(pdf))
	}
}
