package testkit

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// JobDelay answers how long after acceptance, in mock time, a Send job of
// s runs: advancing s by it runs every job accepted until now.
func JobDelay(s Server) time.Duration { return Core(s).Cfg.JobDelay }

// TempRoot answers the temporary directory of s, where Send uploads are
// kept; empty while none has been made.
func TempRoot(s Server) string { return Core(s).Temp.Root() }

// TempFiles answers the regular files under the temporary directory of s.
func TempFiles(t testing.TB, s Server) []string {
	t.Helper()
	root := TempRoot(s)
	if root == "" {
		return nil
	}
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}
