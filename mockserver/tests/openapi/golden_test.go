package openapi_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/openapi.json from the code")

// golden is the description as committed, for readers without a running
// mock: docs/openapi.json.
var golden = filepath.Join("..", "..", "..", "docs", "openapi.json")

// TestDescriptionMatchesDocs keeps docs/openapi.json equal to what the
// mock serves. The description is read from the handlers' types, so a
// renamed or retyped field changes it: this test makes such a change a
// deliberate one, seen in review as a diff of docs/openapi.json
// (go test ./mockserver/tests/openapi -run Docs -update rewrites it).
func TestDescriptionMatchesDocs(t *testing.T) {
	_, raw := load(t)
	raw = append(raw, '\n')
	if *update {
		if err := os.WriteFile(golden, raw, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run Docs -update writes it)", err)
	}
	if !bytes.Equal(raw, want) {
		t.Errorf("the mock's description differs from %s: a route or a shape changed. If on purpose, run "+
			"go test ./mockserver/tests/openapi -run Docs -update and commit the diff", golden)
	}
}
