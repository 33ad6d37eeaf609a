package casefiles_test

import (
	"context"
	"io"
	"sync/atomic"
	"testing"

	"github.com/signkit/signkit-go/casefiles"
)

// Copies of two helpers of package casefiles' own tests, which still use
// them there.

// ctx is a test context.
func ctx(t testing.TB) context.Context { return t.Context() }

// countingUpload wraps u so that opens are counted.
func countingUpload(u casefiles.Upload, opens *atomic.Int32) casefiles.Upload {
	open := u.Open
	u.Open = func() (io.ReadCloser, error) { opens.Add(1); return open() }
	return u
}
