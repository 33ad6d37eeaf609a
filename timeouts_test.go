package signkit_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
)

// scale shrinks the acceptance scenario (a 160 MiB case file on a 1.5 MB/s
// uplink against the default timeouts) in time: the file, the timeouts and
// the sockets' buffers are divided by it, the rate is the real one, so the
// upload lasts as long, relative to the timeouts, as the real one.
const scale = 40

// scaledBuffer is a socket buffer of a few MiB, as loopback and real
// connections grow them, divided by scale.
const scaledBuffer = 4 << 20 / scale

const uplink = 1_500_000 // bytes per second

// smallRcvBuf gives the server's connections a receive buffer of
// scaledBuffer bytes.
type smallRcvBuf struct{ net.Listener }

func (l smallRcvBuf) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(scaledBuffer)
	}
	return c, err
}

// sendServer answers the token request and the Send create like the
// platform, reading the create's body with read.
func sendServer(t *testing.T, read func(r *http.Request) error) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/auth/oauth/token":
			_, _ = io.WriteString(w, `{"access_token":"tok","token_type":"Bearer","expires_in":600}`)
		case "/send/api/v1/casefiles/20251022/create":
			if err := read(r); err != nil {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			_, _ = io.WriteString(w, `{"uuid":"job-1","payloadHash":"h1","status":"handled","message":"Job created"}`)
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Listener = smallRcvBuf{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// zeroUpload is a case file upload of n bytes, generated as it is read.
func zeroUpload(name string, n int64) casefiles.Upload {
	return casefiles.Upload{Name: name, Size: n, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(io.LimitReader(zeros{}, n)), nil
	}}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func uploadCaseFile(name string) *casefiles.CaseFile {
	return &casefiles.CaseFile{
		Title:     "Contract",
		Signers:   []casefiles.Signer{{Name: "Ada", Email: "ada@example.com", Role: "employee"}},
		Documents: []casefiles.Document{{Name: name, Title: "Contract"}},
	}
}

// throttled reads r's body at rate bytes per second.
func throttled(rate int, got *atomic.Int64) func(r *http.Request) error {
	return func(r *http.Request) error {
		start := time.Now()
		buf := make([]byte, 16<<10)
		var n int64
		for {
			k, err := r.Body.Read(buf)
			n += int64(k)
			got.Store(n)
			if due := start.Add(time.Duration(n) * time.Second / time.Duration(rate)); time.Until(due) > 0 {
				time.Sleep(time.Until(due))
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
}

// A 160 MiB upload at 1.5 MB/s takes about 112 s, longer than the old
// whole-request timeout of 60 s. Scaled down, it succeeds with the default
// client: only stalls are bounded, not the upload's duration.
func TestSlowUploadSucceeds(t *testing.T) {
	t.Cleanup(signkit.SetDialHook(func(c net.Conn) {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(scaledBuffer)
		}
	}))
	var got atomic.Int64
	srv := sendServer(t, throttled(uplink, &got))
	const size = 160 << 20 / scale
	oldTimeout := 60 * time.Second / scale
	c, err := signkit.NewClient(signkit.Config{
		Endpoints:               signkit.LocalEndpoints(srv.URL),
		Credentials:             goodCreds,
		DialTimeout:             signkit.DefaultDialTimeout / scale,
		TLSHandshakeTimeout:     signkit.DefaultTLSHandshakeTimeout / scale,
		ResponseHeaderTimeout:   signkit.DefaultResponseHeaderTimeout / scale,
		UploadProgressTimeout:   signkit.DefaultUploadProgressTimeout / scale,
		DownloadProgressTimeout: signkit.DefaultDownloadProgressTimeout / scale,
	})
	require.NoError(t, err)

	start := time.Now()
	job, err := c.CaseFiles.Create(t.Context(), uploadCaseFile("big.pdf"), zeroUpload("big.pdf", size))
	elapsed := time.Since(start)
	require.NoError(t, err)
	assert.Equal(t, "job-1", job.UUID)
	assert.Greater(t, got.Load(), int64(size), "the server read the whole body")
	assert.Greater(t, elapsed, oldTimeout, "the upload lasted longer than the old whole-request timeout")
	t.Logf("%d bytes in %s", got.Load(), elapsed)
}

// A server that stops reading mid-body fails the upload within the progress
// timeout, long before the response header timeout, with the default client
// as with a caller's own (which has no timeout at all). The body is far
// larger than the loopback socket buffers, so the client really blocks.
func TestStalledUploadFails(t *testing.T) {
	for _, own := range []bool{false, true} {
		name := map[bool]string{false: "default client", true: "caller's client"}[own]
		t.Run(name, func(t *testing.T) {
			var got atomic.Int64
			stop := make(chan struct{})
			srv := sendServer(t, func(r *http.Request) error {
				n, _ := io.CopyN(io.Discard, r.Body, 256<<10)
				got.Store(n)
				<-stop // stop reading until the test ends
				return errors.New("stopped")
			})
			t.Cleanup(func() { close(stop) }) // runs before the server's Close, which waits for the handler
			const progressTimeout = 500 * time.Millisecond
			cfg := signkit.Config{
				Endpoints:             signkit.LocalEndpoints(srv.URL),
				Credentials:           goodCreds,
				UploadProgressTimeout: progressTimeout,
				MaxRetries:            -1,
			}
			if own {
				cfg.HTTPClient = &http.Client{}
			}
			c, err := signkit.NewClient(cfg)
			require.NoError(t, err)

			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second) // a regression fails, not hangs
			defer cancel()
			start := time.Now()
			_, err = c.CaseFiles.Create(ctx, uploadCaseFile("big.pdf"), zeroUpload("big.pdf", 64<<20))
			elapsed := time.Since(start)
			require.Error(t, err)
			assert.ErrorIs(t, err, signkit.ErrUploadStalled)
			assert.NotErrorIs(t, err, context.Canceled, "the caller's context was not cancelled")
			assert.NotErrorIs(t, err, context.DeadlineExceeded)
			assert.Contains(t, err.Error(), "upload stalled")
			assert.GreaterOrEqual(t, elapsed, progressTimeout)
			assert.Less(t, elapsed, progressTimeout+3*time.Second, "the progress timeout tripped, not the 60 s response header one")
			t.Logf("stalled after %s, server read %d bytes", elapsed, got.Load())
		})
	}
}

// An answer that stops arriving mid-body fails within the download progress
// timeout.
func TestStalledDownloadFails(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/send/api/v1/queue/public/status" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"uuid":"job-1","jobStatus":`)
		w.(http.Flusher).Flush()
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) })
	const progressTimeout = 300 * time.Millisecond
	c, err := signkit.NewClient(signkit.Config{
		Endpoints:               signkit.LocalEndpoints(srv.URL),
		Credentials:             goodCreds,
		DownloadProgressTimeout: progressTimeout,
		MaxRetries:              -1,
	})
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	start := time.Now()
	_, err = c.CaseFiles.Status(ctx, &casefiles.Job{UUID: "job-1", PayloadHash: "h1"})
	elapsed := time.Since(start)
	require.Error(t, err)
	assert.ErrorIs(t, err, signkit.ErrDownloadStalled)
	assert.NotErrorIs(t, err, context.Canceled)
	assert.GreaterOrEqual(t, elapsed, progressTimeout)
	assert.Less(t, elapsed, progressTimeout+3*time.Second)
}
