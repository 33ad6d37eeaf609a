package multipart

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// errClosed is returned by a read after the body was closed.
var errClosed = errors.New("multipart: body closed")

// lazyFile reads one file part: it opens the file on the first Read, checks
// that it yields exactly its declared size, and closes it at the end.
type lazyFile struct {
	seg *segment

	mu     sync.Mutex // Close may come from another goroutine than Read
	rc     io.ReadCloser
	read   int64
	done   bool // the content was read and the file closed
	closed bool // the body was closed
	err    error
}

// Read implements io.Reader.
func (l *lazyFile) Read(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.err != nil:
		return 0, l.err
	case l.closed:
		return 0, errClosed
	case l.done:
		return 0, io.EOF
	}
	if l.rc == nil {
		rc, err := l.seg.open()
		if err != nil {
			return 0, l.fail(fmt.Errorf("multipart: opening %q: %w", l.seg.name, err))
		}
		l.rc = rc
	}
	if rest := l.seg.size - l.read; int64(len(p)) > rest {
		p = p[:rest]
	}
	if len(p) == 0 {
		return 0, l.end()
	}
	n, err := l.rc.Read(p)
	l.read += int64(n)
	switch {
	case err == io.EOF && l.read < l.seg.size:
		return n, l.fail(fmt.Errorf("%w: %q yielded %d of %d bytes", ErrSizeMismatch, l.seg.name, l.read, l.seg.size))
	case err != nil && err != io.EOF:
		return n, l.fail(fmt.Errorf("multipart: reading %q: %w", l.seg.name, err))
	}
	return n, nil
}

// end is reached when the declared size has been read: it checks that the
// file has nothing more and closes it.
func (l *lazyFile) end() error {
	var one [1]byte
	n, err := io.ReadFull(l.rc, one[:])
	if n > 0 {
		return l.fail(fmt.Errorf("%w: %q is longer than %d bytes", ErrSizeMismatch, l.seg.name, l.seg.size))
	}
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return l.fail(fmt.Errorf("multipart: reading %q: %w", l.seg.name, err))
	}
	l.done = true
	rc := l.rc
	l.rc = nil
	if err := rc.Close(); err != nil {
		return l.fail(fmt.Errorf("multipart: closing %q: %w", l.seg.name, err))
	}
	return io.EOF
}

// fail records err, closes the file and returns err.
func (l *lazyFile) fail(err error) error {
	l.err = err
	if l.rc != nil {
		_ = l.rc.Close()
		l.rc = nil
	}
	return err
}

// Close closes the file if it is open.
func (l *lazyFile) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.rc == nil {
		return nil
	}
	err := l.rc.Close()
	l.rc = nil
	return err
}
