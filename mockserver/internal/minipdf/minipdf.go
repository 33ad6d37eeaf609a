// Package minipdf builds small, valid one-page PDF documents in memory:
// mockserver.SamplePDF, the documents tests and examples upload.
package minipdf

import (
	"bytes"
	"fmt"
	"strings"
)

// Build returns a one-page A4 PDF (version 1.4) that shows title and then
// each line in Helvetica. Text outside printable ASCII is replaced by '?'.
func Build(title string, lines ...string) []byte {
	var content strings.Builder
	content.WriteString("BT /F1 18 Tf 72 770 Td (" + escape(title) + ") Tj ET\n")
	for i, l := range lines {
		fmt.Fprintf(&content, "BT /F1 11 Tf 72 %d Td (%s) Tj ET\n", 740-16*i, escape(l))
	}
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()),
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

// escape makes s a PDF literal string body: printable ASCII with (, ) and \
// escaped.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '(' || r == ')' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
