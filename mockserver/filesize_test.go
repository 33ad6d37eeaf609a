package mockserver

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxProductionLines bounds a production file of the mock and its binary: lower
// than the project's general ~600 on purpose, for the mock's many small
// services
// (https://github.com/signkit/signkit-go/blob/main/docs/architecture.md#the-mock-what-users-tests-import).
const maxProductionLines = 400

// TestNoProductionFileOver400Lines walks the mock and its binary and fails
// on a non-test Go file longer than maxProductionLines.
func TestNoProductionFileOver400Lines(t *testing.T) {
	files := 0
	for _, root := range []string{".", filepath.Join("..", "cmd")} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			if n := bytes.Count(b, []byte("\n")); n > maxProductionLines {
				t.Errorf("%s has %d lines, over the mock's %d: split it by job", path, n, maxProductionLines)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 50 {
		t.Fatalf("found only %d production files: the walk is not looking", files)
	}
}
