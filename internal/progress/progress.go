// Package progress bounds the bodies of HTTP exchanges by progress instead of
// by total duration: an upload fails when the server accepts no byte of the
// request body for a while, a download when no byte of the answer arrives for
// a while, however long the whole transfer takes. It works as an
// http.RoundTripper around any other (net/http's, an in-process one, a mock),
// so the bound holds whatever client the SDK is given.
package progress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// ErrUploadStalled is returned by a round trip whose request body the server
// stopped accepting: no byte was taken for the upload progress timeout.
var ErrUploadStalled = errors.New("signkit: upload stalled")

// ErrDownloadStalled is returned by a Read of an answer's body when no byte
// of it arrived for the download progress timeout.
var ErrDownloadStalled = errors.New("signkit: download stalled")

// Transport is an http.RoundTripper that sends through Base and aborts an
// attempt whose body stops moving. Each attempt (each RoundTrip, so each
// retry and each redirect hop) has its own bound and its own context, derived
// from the request's: the caller's deadline still ends everything.
type Transport struct {
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// Upload is how long the request body may wait for the server to accept
	// its next byte. The clock runs only while the body waits on the
	// sender, not while the body's own source is being read, and stops at
	// the end of the body or when the answer arrives. Zero or negative: no
	// bound.
	Upload time.Duration
	// Download is how long one Read of the answer's body may wait for its
	// next byte. Zero or negative: no bound.
	Download time.Duration
}

// RoundTrip implements http.RoundTripper. When the upload stalls it returns
// an error matching ErrUploadStalled (and not context.Canceled: the caller's
// context is still alive).
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	hasBody := req.Body != nil && req.Body != http.NoBody
	if (t.Upload <= 0 || !hasBody) && t.Download <= 0 {
		return base.RoundTrip(req)
	}
	ctx, cancel := context.WithCancel(req.Context())
	up := newWatch(t.Upload, cancel)
	r := req.WithContext(ctx) // a shallow copy: req itself is not modified
	if t.Upload > 0 && hasBody {
		r.Body = &uploadBody{rc: req.Body, w: up}
		if get := req.GetBody; get != nil {
			r.GetBody = func() (io.ReadCloser, error) {
				rc, err := get()
				if err != nil || rc == nil || rc == http.NoBody {
					return rc, err
				}
				return &uploadBody{rc: rc, w: up}, nil
			}
		}
	}
	resp, err := base.RoundTrip(r)
	stalled := up.finish()
	if stalled {
		cancel()
		if resp != nil {
			resp.Body.Close()
		}
		return nil, fmt.Errorf("%w: the server accepted no byte of the request body for %s", ErrUploadStalled, t.Upload)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &downloadBody{rc: resp.Body, w: newWatch(t.Download, cancel), cancel: cancel}
	return resp, nil
}

// uploadBody is a request body whose reads feed a watch: the clock stops
// while the source is read and starts again when the bytes are handed to the
// sender, so it measures the time the sender takes to accept them.
type uploadBody struct {
	rc io.ReadCloser
	w  *watch
}

func (b *uploadBody) Read(p []byte) (int, error) {
	b.w.pause()
	n, err := b.rc.Read(p)
	if err == nil {
		b.w.arm()
	}
	return n, err
}

func (b *uploadBody) Close() error {
	b.w.pause()
	return b.rc.Close()
}

// downloadBody is an answer's body whose reads are bounded by a watch; its
// Close releases the attempt's context.
type downloadBody struct {
	rc     io.ReadCloser
	w      *watch
	cancel context.CancelFunc
	once   sync.Once
}

func (b *downloadBody) Read(p []byte) (int, error) {
	b.w.arm()
	n, err := b.rc.Read(p)
	b.w.pause()
	if err != nil && b.w.stalled() {
		return n, fmt.Errorf("%w: no byte of the answer arrived for %s", ErrDownloadStalled, b.w.d)
	}
	return n, err
}

func (b *downloadBody) Close() error {
	err := b.rc.Close()
	b.once.Do(func() {
		b.w.finish()
		b.cancel()
	})
	return err
}

// watch cancels an attempt when it stays armed for d. A zero or negative d
// never fires.
type watch struct {
	d      time.Duration
	cancel context.CancelFunc

	mu       sync.Mutex
	timer    *time.Timer
	armed    bool
	deadline time.Time
	done     bool
	fired    bool
}

func newWatch(d time.Duration, cancel context.CancelFunc) *watch {
	return &watch{d: d, cancel: cancel}
}

// arm starts the clock afresh.
func (w *watch) arm() {
	if w.d <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done {
		return
	}
	w.armed, w.deadline = true, time.Now().Add(w.d)
	if w.timer == nil {
		w.timer = time.AfterFunc(w.d, w.fire)
	} else {
		w.timer.Reset(w.d)
	}
}

// pause stops the clock until the next arm.
func (w *watch) pause() {
	if w.d <= 0 {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.armed = false
	if w.timer != nil {
		w.timer.Stop()
	}
}

// finish stops the clock for good and reports whether it had fired.
func (w *watch) finish() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done, w.armed = true, false
	if w.timer != nil {
		w.timer.Stop()
	}
	return w.fired
}

// stalled reports whether the watch fired.
func (w *watch) stalled() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired
}

// fire cancels the attempt unless the clock was paused or re-armed since the
// timer was set (a firing that raced with pause or arm is stale).
func (w *watch) fire() {
	w.mu.Lock()
	if w.done || !w.armed || time.Now().Before(w.deadline) {
		w.mu.Unlock()
		return
	}
	w.fired, w.done = true, true
	w.mu.Unlock()
	w.cancel()
}
