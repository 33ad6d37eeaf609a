package forms

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// renderAnswersPDF makes the case file document of a submission: a real PDF
// (go-pdf/fpdf) listing the answers of the visible fields by section.
func renderAnswersPDF(title, externalID string, sub *submission) ([]byte, error) {
	pdf := fpdf.New("P", "mm", "A4", "")
	// Uncompressed: a page of text is small either way, and a zlib writer
	// per document costs about a megabyte of allocation.
	pdf.SetCompression(false)
	pdf.SetTitle(title, true)
	pdf.SetCreator("signkit-mock", true)
	pdf.SetCreationDate(sub.completedAt)
	pdf.SetModificationDate(sub.completedAt)
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 16)
	pdf.MultiCell(0, 8, latin1(title), "", "L", false)
	pdf.SetFont("Helvetica", "", 10)
	pdf.MultiCell(0, 6, latin1(fmt.Sprintf("Form %s, version %d. Submission %d, completed %s.",
		externalID, sub.version.number, sub.id, sub.completedAt.UTC().Format(time.RFC3339))), "", "L", false)
	for _, sec := range sub.answers(externalID).Sections {
		pdf.Ln(4)
		pdf.SetFont("Helvetica", "B", 12)
		pdf.MultiCell(0, 7, latin1(cmpOr(sec.Title, sec.Slug)), "", "L", false)
		pdfAnswers(pdf, sec.Answers)
		for k, in := range sec.Instances {
			pdf.SetFont("Helvetica", "I", 10)
			pdf.MultiCell(0, 6, fmt.Sprintf("Entry %d", k+1), "", "L", false)
			pdfAnswers(pdf, in.Answers)
		}
	}
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, fmt.Errorf("render answers PDF: %w", err)
	}
	return buf.Bytes(), nil
}

// pdfAnswers writes answers as label and value lines; the values of a
// multi-entry field are joined by ", ".
func pdfAnswers(pdf *fpdf.Fpdf, answers []answerJSON) {
	for _, a := range answers {
		val := a.Value
		if a.multi {
			val = strings.Join(a.Values, ", ")
		}
		pdf.SetFont("Helvetica", "B", 10)
		pdf.MultiCell(0, 5, latin1(cmpOr(a.Label, a.Name)), "", "L", false)
		pdf.SetFont("Helvetica", "", 10)
		pdf.MultiCell(0, 5, latin1(cmpOr(val, "-")), "", "L", false)
	}
}

// latin1 maps text to the core fonts' single-byte encoding: characters
// outside Latin-1 become '?'.
func latin1(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x100 {
			b.WriteByte(byte(r))
		} else {
			b.WriteByte('?')
		}
	}
	return b.String()
}
