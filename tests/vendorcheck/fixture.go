package vendorcheck

import (
	"bytes"
	"sync"
	"time"

	"github.com/go-pdf/fpdf"
)

// fixtureDate makes the fixture the same bytes on every run.
var fixtureDate = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// FixturePDF is a small valid one-page PDF: the file a person picks for the
// collections' file parts. It is made once and the same bytes are returned
// on every call (callers must not change them).
var FixturePDF = sync.OnceValue(func() []byte {
	doc := fpdf.New("P", "mm", "A4", "")
	doc.AddPage()
	doc.SetFont("Helvetica", "", 14)
	doc.Cell(0, 10, "Contract Agreement (vendorcheck fixture)")
	doc.SetCreationDate(fixtureDate)
	doc.SetModificationDate(fixtureDate)
	var buf bytes.Buffer
	if err := doc.Output(&buf); err != nil {
		panic("vendorcheck: fixture PDF: " + err.Error()) // fixed input: cannot fail
	}
	return buf.Bytes()
})
