package progress

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTripFunc is a base transport: an in-process one, as a mock's or a
// caller's own transport would be.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// reader reads a request body in chunks, waiting pause between them, and
// answers 200 once it has read everything; it gives up when the attempt's
// context ends.
func reader(chunk int, pause time.Duration) roundTripFunc {
	return func(r *http.Request) (*http.Response, error) {
		buf := make([]byte, chunk)
		for {
			if _, err := io.ReadFull(r.Body, buf); err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
					return ok(r, "done"), nil
				}
				return nil, err
			}
			select {
			case <-r.Context().Done():
				return nil, r.Context().Err()
			case <-time.After(pause):
			}
		}
	}
}

func ok(r *http.Request, body string) *http.Response {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)), Request: r}
}

// slowSource is a request body whose reads take delay each: the time the
// body's own source takes, which must not count as a stall.
type slowSource struct {
	r     io.Reader
	delay time.Duration
}

func (s *slowSource) Read(p []byte) (int, error) {
	time.Sleep(s.delay)
	return s.r.Read(p)
}

func post(t *testing.T, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://svc.test/upload", body)
	require.NoError(t, err)
	return req
}

func TestUpload(t *testing.T) {
	const d = 200 * time.Millisecond
	payload := bytes.Repeat([]byte("x"), 8<<10)
	tests := []struct {
		name    string
		base    roundTripFunc
		body    io.Reader
		upload  time.Duration
		stalled bool
	}{
		{"steady reads, longer in total than the timeout", reader(1<<10, d/5), bytes.NewReader(payload), d, false},
		{"a slow source is not a stall", reader(4<<10, 0), &slowSource{bytes.NewReader(payload), 2 * d}, d, false},
		{"the server stops reading", reader(1<<10, 5*d), bytes.NewReader(payload), d, true},
		{"no bound", reader(4<<10, 2*d), bytes.NewReader(payload), 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := &Transport{Base: tt.base, Upload: tt.upload}
			req := post(t, tt.body)
			body := req.Body
			start := time.Now()
			resp, err := tr.RoundTrip(req)
			elapsed := time.Since(start)
			assert.True(t, body == req.Body, "the caller's request is not modified")
			if !tt.stalled {
				require.NoError(t, err)
				resp.Body.Close()
				return
			}
			require.ErrorIs(t, err, ErrUploadStalled)
			assert.NotErrorIs(t, err, context.Canceled)
			assert.Contains(t, err.Error(), "accepted no byte of the request body for 200ms")
			assert.GreaterOrEqual(t, elapsed, d)
			assert.Less(t, elapsed, 5*d, "the stall was noticed within the timeout, not when the server gave up")
		})
	}
}

// The body made by GetBody (net/http rewinds with it) is bounded too.
func TestUploadGetBody(t *testing.T) {
	const d = 100 * time.Millisecond
	var rewound atomic.Bool
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		body, err := r.GetBody()
		require.NoError(t, err)
		rewound.Store(true)
		r.Body = body
		return reader(1<<10, 10*d)(r)
	})
	req := post(t, bytes.NewReader(make([]byte, 8<<10)))
	_, err := (&Transport{Base: base, Upload: d}).RoundTrip(req)
	require.ErrorIs(t, err, ErrUploadStalled)
	assert.True(t, rewound.Load())
}

// Once the answer has arrived, a body that is never read to its end does not
// stall the exchange.
func TestUploadEndsWithTheAnswer(t *testing.T) {
	const d = 50 * time.Millisecond
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		_, _ = r.Body.Read(make([]byte, 16)) // read a little, then answer early
		return &http.Response{StatusCode: 413, Header: http.Header{}, Body: io.NopCloser(&slowSource{strings.NewReader("too large"), 3 * d}), Request: r}, nil
	})
	resp, err := (&Transport{Base: base, Upload: d}).RoundTrip(post(t, bytes.NewReader(make([]byte, 1<<10))))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err, "the upload's clock stopped with the answer")
	assert.Equal(t, "too large", string(b))
}

// blockingBody gives part of an answer, then blocks until the attempt ends.
type blockingBody struct {
	ctx  context.Context
	head io.Reader
}

func (b *blockingBody) Read(p []byte) (int, error) {
	if n, err := b.head.Read(p); err == nil {
		return n, nil
	}
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

func (b *blockingBody) Close() error { return nil }

func TestDownload(t *testing.T) {
	const d = 100 * time.Millisecond
	t.Run("stalled", func(t *testing.T) {
		t.Parallel()
		base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{}, Request: r,
				Body: &blockingBody{ctx: r.Context(), head: strings.NewReader(`{"partial":`)}}, nil
		})
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://svc.test/doc", nil)
		require.NoError(t, err)
		resp, err := (&Transport{Base: base, Download: d}).RoundTrip(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		start := time.Now()
		b, err := io.ReadAll(resp.Body)
		require.ErrorIs(t, err, ErrDownloadStalled)
		assert.NotErrorIs(t, err, context.Canceled)
		assert.Equal(t, `{"partial":`, string(b))
		assert.Less(t, time.Since(start), 10*d)
	})
	t.Run("slow consumer is not a stall", func(t *testing.T) {
		t.Parallel()
		base := roundTripFunc(func(r *http.Request) (*http.Response, error) { return ok(r, "abcdef"), nil })
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://svc.test/doc", nil)
		require.NoError(t, err)
		resp, err := (&Transport{Base: base, Download: d}).RoundTrip(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out []byte
		buf := make([]byte, 2)
		for {
			n, err := resp.Body.Read(buf)
			out = append(out, buf[:n]...)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			time.Sleep(2 * d) // the caller's writer is slow; the server is not
		}
		assert.Equal(t, "abcdef", string(out))
	})
}

// Closing the answer releases the attempt's context.
func TestCloseReleasesContext(t *testing.T) {
	var attempt context.Context
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		attempt = r.Context()
		return ok(r, "x"), nil
	})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, "http://svc.test/", nil)
	require.NoError(t, err)
	resp, err := (&Transport{Base: base, Download: time.Minute}).RoundTrip(req)
	require.NoError(t, err)
	require.NoError(t, attempt.Err())
	require.NoError(t, resp.Body.Close())
	assert.ErrorIs(t, attempt.Err(), context.Canceled)
	assert.NoError(t, t.Context().Err(), "the caller's context is untouched")
}

// A failed round trip is answered as the base answered it.
func TestBaseError(t *testing.T) {
	boom := errors.New("connection refused")
	base := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, boom })
	_, err := (&Transport{Base: base, Upload: time.Second, Download: time.Second}).RoundTrip(post(t, strings.NewReader("x")))
	assert.ErrorIs(t, err, boom)
	assert.NotErrorIs(t, err, ErrUploadStalled)
}
