// Package atomicfile writes a file so that it appears complete or not at
// all: the content goes to a temporary file in the same directory, which is
// renamed into place once everything was written.
package atomicfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Write creates path with the content write produces and answers the
// number of bytes write reports. On any error, path is left untouched.
func Write(path string, write func(io.Writer) (int64, error)) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return 0, fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // does nothing after a successful rename
	n, err := write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		return n, fmt.Errorf("write %s: %w", path, err)
	}
	return n, nil
}
