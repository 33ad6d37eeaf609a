package signkit

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/progress"
)

func TestDefaultClientTimeouts(t *testing.T) {
	tests := []struct {
		name                        string
		cfg                         Config
		dial, tls, header, up, down time.Duration
	}{
		{"defaults", Config{}, 10 * time.Second, 10 * time.Second, 60 * time.Second, 30 * time.Second, 60 * time.Second},
		{"set", Config{DialTimeout: 1, TLSHandshakeTimeout: 2, ResponseHeaderTimeout: 3, UploadProgressTimeout: 4, DownloadProgressTimeout: 5},
			1, 2, 3, 4, 5},
		{"negative disables", Config{DialTimeout: -1, TLSHandshakeTimeout: -1, ResponseHeaderTimeout: -1, UploadProgressTimeout: -1, DownloadProgressTimeout: -1},
			0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hc := tt.cfg.httpClient()
			assert.Zero(t, hc.Timeout, "no whole-request timeout")
			pt, ok := hc.Transport.(*progress.Transport)
			require.True(t, ok, "bodies are bounded by progress")
			assert.Equal(t, tt.up, pt.Upload)
			assert.Equal(t, tt.down, pt.Download)
			base, ok := pt.Base.(*http.Transport)
			require.True(t, ok)
			assert.Equal(t, tt.tls, base.TLSHandshakeTimeout)
			assert.Equal(t, tt.header, base.ResponseHeaderTimeout)
			assert.NotNil(t, base.DialContext)
			assert.NotNil(t, base.Proxy, "http.DefaultTransport's settings are kept")
			assert.True(t, base.ForceAttemptHTTP2)
			assert.Equal(t, tt.dial, tt.cfg.dialer().Timeout)
		})
	}
}

// A caller's client is used as given, on a copy, with the progress bounds
// around its transport.
func TestCallerClientKept(t *testing.T) {
	own := &http.Transport{}
	caller := &http.Client{Transport: own, Timeout: 5 * time.Minute}
	cfg := Config{HTTPClient: caller, ResponseHeaderTimeout: time.Second, UploadProgressTimeout: 7 * time.Second}
	hc := cfg.httpClient()
	require.NotSame(t, caller, hc)
	assert.Same(t, own, caller.Transport, "the caller's client is not modified")
	assert.Equal(t, 5*time.Minute, hc.Timeout)
	pt, ok := hc.Transport.(*progress.Transport)
	require.True(t, ok)
	assert.Same(t, own, pt.Base)
	assert.Equal(t, 7*time.Second, pt.Upload)
	assert.Equal(t, DefaultDownloadProgressTimeout, pt.Download)
	assert.Zero(t, own.ResponseHeaderTimeout, "the caller's transport is used as given")
}
