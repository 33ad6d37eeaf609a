package retry

import (
	"bufio"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sniffListener serves TLS and plain HTTP on one port, telling them apart by
// the first byte (a TLS handshake record starts with 0x16), so that a
// redirect can change the scheme and nothing else.
type sniffListener struct {
	net.Listener
	tls *tls.Config
}

func (l sniffListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	first, err := br.Peek(1)
	_ = c.SetReadDeadline(time.Time{})
	pc := &peekedConn{Conn: c, r: br}
	if err == nil && first[0] == 0x16 {
		return tls.Server(pc, l.tls), nil
	}
	return pc, nil
}

type peekedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// recorder answers /redirect?to=U with a 302 to U and records the credential
// headers that reach /target/<name>.
type recorder struct {
	mu  sync.Mutex
	got map[string]http.Header
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/redirect" {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
		return
	}
	if name, ok := strings.CutPrefix(r.URL.Path, "/target/"); ok {
		h := http.Header{}
		for _, k := range credentialHeaders {
			if v := r.Header.Values(k); v != nil {
				h[k] = v
			}
		}
		rec.mu.Lock()
		rec.got[name] = h
		rec.mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
		return
	}
	http.NotFound(w, r)
}

func (rec *recorder) headers(name string) (http.Header, bool) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	h, ok := rec.got[name]
	return h, ok
}

// redirectServers starts a server that speaks TLS and plain HTTP on one port
// and a plain one on another port, both recording into rec, and returns their
// ports and a client that trusts the TLS certificate.
func redirectServers(t *testing.T, rec *recorder) (dual, other string, hc *http.Client) {
	t.Helper()
	certSrv := httptest.NewTLSServer(http.NotFoundHandler()) // for its certificate and trusting client
	t.Cleanup(certSrv.Close)
	cfg := certSrv.TLS.Clone()
	cfg.NextProtos = []string{"http/1.1"}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := &http.Server{Handler: rec, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(sniffListener{Listener: ln, tls: cfg}) }()
	t.Cleanup(func() { _ = srv.Close() })

	plain := httptest.NewServer(rec)
	t.Cleanup(plain.Close)

	_, dual, _ = net.SplitHostPort(ln.Addr().String())
	_, other, _ = net.SplitHostPort(plain.Listener.Addr().String())
	return dual, other, certSrv.Client()
}

func TestStripAuthOnRedirect(t *testing.T) {
	rec := &recorder{got: map[string]http.Header{}}
	dual, other, base := redirectServers(t, rec)
	hc := StripAuthOnRedirect(base)
	hc.Timeout = 10 * time.Second

	tests := []struct {
		name   string
		from   string // scheme://host:port of the first request
		to     string // scheme://host:port of the target
		via    string // an extra hop before the target, "" for none
		strips bool
	}{
		{"https to http, same host and port", "https://127.0.0.1:" + dual, "http://127.0.0.1:" + dual, "", true},
		{"http to another host, same port", "http://127.0.0.1:" + dual, "http://localhost:" + dual, "", true},
		{"http to another port, same host", "http://127.0.0.1:" + dual, "http://127.0.0.1:" + other, "", true},
		{"https to another port, same host", "https://127.0.0.1:" + dual, "http://127.0.0.1:" + other, "", true},
		{"https back to https through http", "https://127.0.0.1:" + dual, "https://127.0.0.1:" + dual, "http://127.0.0.1:" + dual, true},
		{"http to https, same host and port", "http://127.0.0.1:" + dual, "https://127.0.0.1:" + dual, "", true},
		{"same origin, https", "https://127.0.0.1:" + dual, "https://127.0.0.1:" + dual, "", false},
		{"same origin, http", "http://127.0.0.1:" + dual, "http://127.0.0.1:" + dual, "", false},
	}
	for i, tt := range tests {
		for _, header := range credentialHeaders {
			name := strings.ReplaceAll(tt.name, " ", "_") + "-" + header
			t.Run(name, func(t *testing.T) {
				target := tt.to + "/target/" + name
				if tt.via != "" {
					target = tt.via + "/redirect?to=" + url.QueryEscape(target)
				}
				start := tt.from + "/redirect?to=" + url.QueryEscape(target)
				req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, start, nil)
				require.NoError(t, err)
				value := "token-" + string(rune('a'+i))
				if header == "Authorization" {
					value = "Bearer " + value
				}
				req.Header.Set(header, value)
				resp, err := hc.Do(req)
				require.NoError(t, err)
				resp.Body.Close()
				require.Equal(t, http.StatusNoContent, resp.StatusCode)

				got, ok := rec.headers(name)
				require.True(t, ok, "the target was not reached")
				if tt.strips {
					assert.Empty(t, got, "a credential header reached the target")
				} else {
					assert.Equal(t, []string{value}, got.Values(header), "the credential was dropped on a same-origin redirect")
				}
			})
		}
	}
}

func TestSameOrigin(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"https://app.test/x", "https://APP.test:443/y", true},
		{"http://app.test", "http://app.test:80", true},
		{"https://app.test", "http://app.test:443", false},
		{"https://app.test", "https://app.test:8443", false},
		{"https://app.test", "https://sub.app.test", false},
		{"https://[::1]:8443", "https://[::1]:8443/z", true},
	}
	for _, tt := range tests {
		a, err := url.Parse(tt.a)
		require.NoError(t, err)
		b, err := url.Parse(tt.b)
		require.NoError(t, err)
		assert.Equal(t, tt.want, sameOrigin(a, b), "%s vs %s", tt.a, tt.b)
	}
}

func TestTooManyRedirects(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv.URL+"/again", http.StatusFound)
	}))
	defer srv.Close()
	_, err := StripAuthOnRedirect(srv.Client()).Get(srv.URL)
	require.ErrorIs(t, err, ErrRedirect)
}
