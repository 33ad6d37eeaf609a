package minipdf_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/signkit/signkit-go/mockserver/internal/minipdf"
)

func TestBuildIsValid(t *testing.T) {
	t.Parallel()
	pdf := minipdf.Build("Employment (contract)", "Ada Employee", "Wendy Witness – ü")
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("no PDF header: %q", pdf[:10])
	}
	if err := api.Validate(bytes.NewReader(pdf), strictConfig()); err != nil {
		t.Fatalf("pdfcpu rejects the PDF: %v", err)
	}
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pdftotext not found and CI is set: %v", err)
		}
		t.Skipf("pdftotext not installed (%v): install poppler-utils to run the text check", err)
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	for _, want := range []string{"Employment (contract)", "Ada Employee"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pdftotext output lacks %q:\n%s", want, out)
		}
	}
}

// strictConfig is pdfcpu's configuration built here, so that pdfcpu does not
// read or write its configuration directory, validating strictly.
func strictConfig() *model.Configuration {
	return &model.Configuration{
		Version: model.VersionStr, Reader15: true, ValidationMode: model.ValidationStrict, Eol: types.EolLF,
		Offline: true, Timeout: 5,
	}
}
