package tmpdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDir(t *testing.T) {
	t.Parallel()
	var d Dir
	if d.Root() != "" {
		t.Fatal("a root before first use")
	}
	sub, err := d.Mkdir("upload-")
	if err != nil {
		t.Fatal(err)
	}
	f, err := d.Create("signed-*.pdf")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	root := d.Root()
	for _, p := range []string{sub, f.Name()} {
		if filepath.Dir(p) != root || !strings.HasPrefix(filepath.Base(root), "signkit-mock-") {
			t.Fatalf("%s is not directly under %s", p, root)
		}
	}
	d.RemoveAll()
	if _, err := os.Stat(root); !os.IsNotExist(err) || d.Root() != "" {
		t.Fatalf("after RemoveAll: %v, root %q", err, d.Root())
	}
	again, err := d.Mkdir("upload-")
	if err != nil || filepath.Dir(again) == root {
		t.Fatalf("after RemoveAll a new root is made: %s, %v", again, err)
	}
	d.RemoveAll()
}
