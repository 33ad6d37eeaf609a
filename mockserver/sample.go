package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/minipdf"

// SamplePDF answers a small, valid one-page A4 PDF (version 1.4) that shows
// title and then each line, for tests that need a document to upload: the
// mock's checks take it, and so do strict PDF validators (pdfcpu). Text
// outside printable ASCII shows as '?'.
func SamplePDF(title string, lines ...string) []byte { return minipdf.Build(title, lines...) }
