// Package tmpdir is the mock server's temporary directory for uploaded
// files and signed PDFs: created on first use, removed with everything in
// it on reset and close.
package tmpdir

import (
	"fmt"
	"os"
	"sync"
)

// Dir is a temporary directory made on first use. The zero value is ready;
// it is safe for concurrent use.
type Dir struct {
	mu   sync.Mutex
	root string
}

func (d *Dir) rootLocked() (string, error) {
	if d.root == "" {
		root, err := os.MkdirTemp("", "signkit-mock-")
		if err != nil {
			return "", fmt.Errorf("create temporary directory: %w", err)
		}
		d.root = root
	}
	return d.root, nil
}

// Mkdir makes a new directory under the root.
func (d *Dir) Mkdir(pattern string) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	root, err := d.rootLocked()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(root, pattern)
	if err != nil {
		return "", fmt.Errorf("create upload directory: %w", err)
	}
	return dir, nil
}

// Create makes a new file under the root.
func (d *Dir) Create(pattern string) (*os.File, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	root, err := d.rootLocked()
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(root, pattern)
	if err != nil {
		return nil, fmt.Errorf("create temporary file: %w", err)
	}
	return f, nil
}

// RemoveAll deletes the directory and everything in it; the next use makes
// a new one.
func (d *Dir) RemoveAll() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.root != "" {
		_ = os.RemoveAll(d.root)
		d.root = ""
	}
}

// Root answers the directory's path, or "" before its first use.
func (d *Dir) Root() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.root
}
