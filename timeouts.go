package signkit

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/internal/progress"
)

// Defaults of the Config timeouts, used when a field is zero.
const (
	// DefaultDialTimeout bounds the TCP connection of one attempt.
	DefaultDialTimeout = 10 * time.Second
	// DefaultTLSHandshakeTimeout bounds the TLS handshake of one attempt.
	DefaultTLSHandshakeTimeout = 10 * time.Second
	// DefaultResponseHeaderTimeout bounds the wait for the answer's headers
	// once the whole request, body included, was written.
	DefaultResponseHeaderTimeout = 60 * time.Second
	// DefaultUploadProgressTimeout is how long the server may take to
	// accept the next byte of a request body.
	DefaultUploadProgressTimeout = 30 * time.Second
	// DefaultDownloadProgressTimeout is how long the next byte of an
	// answer's body may take to arrive.
	DefaultDownloadProgressTimeout = 60 * time.Second
)

// ErrUploadStalled is matched (errors.Is) by the error of a request whose
// body the server stopped accepting: no byte was taken for
// Config.UploadProgressTimeout. The request was not complete, so the server
// cannot have acted on it.
var ErrUploadStalled = progress.ErrUploadStalled

// ErrDownloadStalled is matched (errors.Is) by the error of a call whose
// answer stopped arriving: no byte came for Config.DownloadProgressTimeout.
var ErrDownloadStalled = progress.ErrDownloadStalled

// keepAlive is the TCP keep-alive period of the default client's
// connections, as in http.DefaultTransport.
const keepAlive = 30 * time.Second

// dialHook, when set (by tests only), is given every connection the default
// client dials: the timeout tests shrink its socket buffer along with the
// sizes and timeouts they scale down.
var dialHook func(net.Conn)

// timeout resolves a Config timeout: zero is def, negative is none (0 in
// net/http's and package progress's terms).
func timeout(v, def time.Duration) time.Duration {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}

// httpClient is the client every request of a Client goes through, the token
// request included. With Config.HTTPClient nil it is a client without a
// whole-request timeout whose transport bounds each attempt's dial, TLS
// handshake and wait for the answer's headers; otherwise a copy of
// Config.HTTPClient, used as given. In both cases its transport is wrapped so
// that bodies are bounded by progress (package progress).
func (cfg *Config) httpClient() *http.Client {
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	} else {
		hc.Transport = cfg.defaultTransport()
	}
	hc.Transport = &progress.Transport{
		Base:     hc.Transport,
		Upload:   timeout(cfg.UploadProgressTimeout, DefaultUploadProgressTimeout),
		Download: timeout(cfg.DownloadProgressTimeout, DefaultDownloadProgressTimeout),
	}
	return &hc
}

// defaultTransport is http.DefaultTransport's settings (proxy from the
// environment, HTTP/2, connection pool) with the Config's per-attempt
// bounds.
func (cfg *Config) defaultTransport() *http.Transport {
	var t *http.Transport
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		t = dt.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true}
	}
	d := cfg.dialer()
	t.DialContext = d.DialContext
	if hook := dialHook; hook != nil {
		t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := d.DialContext(ctx, network, addr)
			if err == nil {
				hook(c)
			}
			return c, err
		}
	}
	t.TLSHandshakeTimeout = timeout(cfg.TLSHandshakeTimeout, DefaultTLSHandshakeTimeout)
	t.ResponseHeaderTimeout = timeout(cfg.ResponseHeaderTimeout, DefaultResponseHeaderTimeout)
	return t
}

// dialer is the default client's dialer.
func (cfg *Config) dialer() *net.Dialer {
	return &net.Dialer{Timeout: timeout(cfg.DialTimeout, DefaultDialTimeout), KeepAlive: keepAlive}
}
