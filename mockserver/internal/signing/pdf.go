package signing

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-pdf/fpdf"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// signedBy is one line of the signature page.
type signedBy struct {
	Name, Role, Email string
	At                time.Time
}

// signaturePage renders the page appended to a signed document: the case
// file and document titles and, for each signer, name, role, email and when
// they signed. It uses go-pdf/fpdf with a core font (text is mapped to
// cp1252).
func signaturePage(caseTitle, docTitle string, signers []signedBy, at time.Time) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	// Uncompressed: a page of text is small either way, and a zlib writer
	// per document costs about a megabyte of allocation.
	pdf.SetCompression(false)
	tr := pdf.UnicodeTranslatorFromDescriptor("")
	pdf.SetTitle("Signatures: "+docTitle, true)
	pdf.SetCreator("signkit-mock", true)
	pdf.SetCreationDate(at)
	pdf.SetModificationDate(at)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 16)
	pdf.MultiCell(0, 8, tr("Signatures"), "", "L", false)
	pdf.SetFont("Helvetica", "", 11)
	pdf.MultiCell(0, 6, tr("Case file: "+caseTitle), "", "L", false)
	pdf.MultiCell(0, 6, tr("Document: "+docTitle), "", "L", false)
	pdf.MultiCell(0, 6, tr("Completed: "+at.UTC().Format("2006-01-02 15:04:05 UTC")), "", "L", false)
	pdf.Ln(4)
	for _, sb := range signers {
		pdf.SetFont("Helvetica", "B", 12)
		pdf.MultiCell(0, 6, tr(sb.Name), "", "L", false)
		pdf.SetFont("Helvetica", "", 10)
		line := "Signed " + sb.At.UTC().Format("2006-01-02 15:04:05 UTC")
		if sb.Role != "" {
			line += ", role " + sb.Role
		}
		if sb.Email != "" {
			line += ", " + sb.Email
		}
		pdf.MultiCell(0, 5, tr(line), "", "L", false)
		pdf.Ln(2)
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("render signature page: %w", err)
	}
	return buf.Bytes(), nil
}

// pdfcpuConfig is pdfcpu's default configuration built here, so that pdfcpu
// never reads or writes its configuration directory (its
// NewDefaultConfiguration would) and no package-level switch is needed.
func pdfcpuConfig() *model.Configuration {
	return &model.Configuration{
		Version: model.VersionStr, Reader15: true, ValidationMode: model.ValidationRelaxed, Eol: types.EolLF,
		WriteObjectStream: true, WriteXRefStream: true, EncryptUsingAES: true, EncryptKeyLength: 256,
		Permissions: model.PermissionsPrint, TimestampFormat: "2006-01-02 15:04", DateFormat: "2006-01-02",
		Optimize: true, OptimizeBeforeWriting: true, OptimizeResourceDicts: true, Offline: true, Timeout: 5,
	}
}

// appendPages writes to w the pages of orig followed by the pages of extra
// (pdfcpu merge).
func appendPages(orig io.ReadSeeker, extra []byte, w io.Writer) error {
	if err := api.MergeRaw([]io.ReadSeeker{orig, bytes.NewReader(extra)}, w, false, pdfcpuConfig()); err != nil {
		return fmt.Errorf("merge PDF pages: %w", err)
	}
	return nil
}

// openOriginal opens the unsigned original of a document: the uploaded
// file of a Send case file, or the rendered answers PDF of a submission.
func openOriginal(d *Document) (io.ReadSeekCloser, int64, error) {
	if d.OrigPath != "" {
		f, err := os.Open(d.OrigPath)
		if err != nil {
			return nil, 0, fmt.Errorf("open original of document %d: %w", d.ID, err)
		}
		st, err := f.Stat()
		if err != nil {
			_ = f.Close()
			return nil, 0, fmt.Errorf("stat original of document %d: %w", d.ID, err)
		}
		return f, st.Size(), nil
	}
	if d.Render == nil {
		return nil, 0, fmt.Errorf("document %d has no content", d.ID)
	}
	b, err := d.Render()
	if err != nil {
		return nil, 0, fmt.Errorf("render document %d: %w", d.ID, err)
	}
	return nopSeekCloser{bytes.NewReader(b)}, int64(len(b)), nil
}

type nopSeekCloser struct{ *bytes.Reader }

func (nopSeekCloser) Close() error { return nil }

// signDocument writes the signed PDF of one document (original pages plus
// the signature page) to a new file in the server's temporary directory and
// answers its path.
func (s *simulation) signDocument(cf *CaseFile, d *Document, signers []signedBy, at time.Time) (string, error) {
	page, err := signaturePage(cf.Title, d.Title, signers, at)
	if err != nil {
		return "", err
	}
	orig, _, err := openOriginal(d)
	if err != nil {
		return "", err
	}
	defer orig.Close()
	out, err := s.tmp.Create("signed-*.pdf")
	if err != nil {
		return "", err
	}
	if err := appendPages(orig, page, out); err != nil {
		_ = out.Close()
		_ = os.Remove(out.Name())
		return "", fmt.Errorf("sign document %d: %w", d.ID, err)
	}
	if err := out.Close(); err != nil {
		_ = os.Remove(out.Name())
		return "", fmt.Errorf("write signed document %d: %w", d.ID, err)
	}
	return out.Name(), nil
}

// signDocuments produces the signed PDF of every signable document of a
// case file whose signers have all signed. It answers the paths by
// document id; on error, no file is left behind.
func (s *simulation) signDocuments(cf *CaseFile, at time.Time) (map[int64]string, error) {
	paths := map[int64]string{}
	for _, d := range cf.Documents {
		if !d.Signable {
			continue
		}
		var signers []signedBy
		for _, sg := range cf.Signers {
			if sg.Status == sgSigned && signsDocument(sg, d) {
				signers = append(signers, signedBy{Name: sg.Name, Role: sg.Role, Email: sg.Email, At: sg.SignedAt})
			}
		}
		p, err := s.signDocument(cf, d, signers, at)
		if err != nil {
			for _, p := range paths {
				_ = os.Remove(p)
			}
			return nil, &documentError{title: d.Title, err: err}
		}
		paths[d.ID] = p
	}
	return paths, nil
}

// signsDocument tells whether a signer signs a document: every signer signs
// a document without roles, else only signers with one of its roles.
func signsDocument(sg *Signer, d *Document) bool {
	if len(d.Roles) == 0 {
		return true
	}
	for _, r := range d.Roles {
		if r == sg.Role {
			return true
		}
	}
	return false
}
