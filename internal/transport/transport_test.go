package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/apierror"
	"github.com/signkit/signkit-go/internal/retry"
)

var creds = auth.Credentials{ClientID: "cid", ClientSecret: "client-secret-XYZ", APIKey: "key", APISecret: "api-secret-XYZ"}

// platform is a fake platform: a login service issuing tok-1, tok-2, ... and
// an API that accepts only the newest token.
type platform struct {
	*httptest.Server
	tokenRequests atomic.Int32
	mu            sync.Mutex
	valid         string
	api           http.HandlerFunc
}

func newPlatform(t *testing.T, api http.HandlerFunc) *platform {
	p := &platform{api: api}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /auth/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		n := p.tokenRequests.Add(1)
		time.Sleep(20 * time.Millisecond) // keep the request in flight while others arrive
		tok := fmt.Sprintf("tok-%d", n)
		p.mu.Lock()
		p.valid = tok
		p.mu.Unlock()
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":600}`, tok)
	})
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		valid := p.valid
		p.mu.Unlock()
		got := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if got == "" || got != valid {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"statusCode":401,"error":"unauthorized","message":"token expired"}`)
			return
		}
		p.api(w, r)
	})
	p.Server = httptest.NewServer(mux)
	t.Cleanup(p.Close)
	return p
}

// expire makes the server refuse every token issued so far.
func (p *platform) expire() {
	p.mu.Lock()
	p.valid = "expired"
	p.mu.Unlock()
}

func newClient(p *platform, logger *slog.Logger) *Client {
	policy := retry.Policy{MaxRetries: 2, WaitMin: time.Millisecond, WaitMax: 2 * time.Millisecond, MaxRetryAfter: time.Second}
	ts := auth.NewTokenSource(p.URL+"/auth", creds, auth.WithHTTPClient(p.Client()), auth.WithLogger(logger))
	return New(Config{HTTPClient: p.Client(), Tokens: ts, Logger: logger, Policy: policy, UserAgent: "acme/1.0"})
}

func TestExpiredTokenRenewedOnceForManyCallers(t *testing.T) {
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"ok":true}`) })
	c := newClient(p, nil)
	ctx := context.Background()
	var out struct{ OK bool }
	require.NoError(t, c.Do(ctx, &Request{Method: "GET", URL: p.URL + "/api/x", Auth: Bearer}, &out))
	require.Equal(t, int32(1), p.tokenRequests.Load())

	p.expire()
	var wg sync.WaitGroup
	var failures atomic.Int32
	for range 100 {
		wg.Go(func() {
			var out struct{ OK bool }
			if err := c.Do(ctx, &Request{Method: "GET", URL: p.URL + "/api/x", Auth: Bearer}, &out); err != nil || !out.OK {
				failures.Add(1)
				t.Log(err)
			}
		})
	}
	wg.Wait()
	assert.Zero(t, failures.Load(), "all 100 calls succeed")
	assert.Equal(t, int32(2), p.tokenRequests.Load(), "exactly one token request after the expiry")
}

func TestTokenPlacement(t *testing.T) {
	tests := []struct {
		style         AuthStyle
		authorization string
		xAuthToken    string
	}{
		{NoAuth, "", ""},
		{Bearer, "Bearer tok-1", ""},
		{XAuthToken, "", "tok-1"},
	}
	for _, tt := range tests {
		var got http.Header
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/auth/oauth/token" {
				fmt.Fprint(w, `{"access_token":"tok-1","expires_in":600}`)
				return
			}
			got = r.Header.Clone()
		}))
		ts := auth.NewTokenSource(srv.URL+"/auth", creds)
		c := New(Config{Tokens: ts})
		require.NoError(t, c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/x", Auth: tt.style}, nil))
		srv.Close()
		assert.Equal(t, tt.authorization, got.Get("Authorization"), "style %d", tt.style)
		assert.Equal(t, tt.xAuthToken, got.Get("X-Auth-Token"), "style %d", tt.style)
		assert.Regexp(t, `^signkit-go/\d+\.\d+\.\d+ \(go[^)]+\)$`, got.Get("User-Agent"))
		assert.Equal(t, "application/json", got.Get("Accept"))
	}
}

func TestRedirectToAnotherHostDropsTokens(t *testing.T) {
	var foreign, same http.Header
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { foreign = r.Header.Clone() }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/auth/oauth/token":
			fmt.Fprint(w, `{"access_token":"tok-1","expires_in":600}`)
		case "/start":
			http.Redirect(w, r, "/local", http.StatusFound)
		case "/local":
			same = r.Header.Clone()
			http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
		}
	}))
	defer srv.Close()
	c := New(Config{Tokens: auth.NewTokenSource(srv.URL+"/auth", creds)})
	require.NoError(t, c.Do(context.Background(), &Request{Method: "GET", URL: srv.URL + "/start", Auth: Bearer,
		Header: http.Header{"X-Auth-Token": {"tok-1"}}}, nil))
	require.NotNil(t, foreign)
	assert.Equal(t, "Bearer tok-1", same.Get("Authorization"), "same host keeps the token")
	assert.Equal(t, "tok-1", same.Get("X-Auth-Token"))
	assert.Empty(t, foreign.Get("Authorization"))
	assert.Empty(t, foreign.Get("X-Auth-Token"))
}

func TestUnauthorizedReplaysUploadOnce(t *testing.T) {
	var bodies []string
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, string(b))
		w.WriteHeader(http.StatusCreated)
	})
	c := newClient(p, nil)
	ctx := context.Background()
	require.NoError(t, c.Do(ctx, &Request{Method: "GET", URL: p.URL + "/api/warm", Auth: Bearer}, nil))
	p.expire()
	opens := 0
	upload := func() (io.ReadCloser, int64, error) {
		opens++
		return io.NopCloser(strings.NewReader("file-bytes")), 10, nil
	}
	err := c.Do(ctx, &Request{Method: "POST", URL: p.URL + "/api/upload", Auth: Bearer, Body: upload, ContentType: "application/pdf"}, nil)
	require.NoError(t, err)
	assert.Equal(t, 2, opens, "the body is opened again for the replay")
	assert.Equal(t, []string{"", "file-bytes"}, bodies)
}

func TestUnauthorizedTwiceIsReturned(t *testing.T) {
	p := newPlatform(t, nil)
	p.api = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusUnauthorized) }
	c := newClient(p, nil)
	err := c.Do(context.Background(), &Request{Method: "GET", URL: p.URL + "/api/x", Auth: Bearer}, nil)
	assert.ErrorIs(t, err, apierror.ErrUnauthorized)
	assert.Equal(t, int32(2), p.tokenRequests.Load(), "one renewal, then the 401 is the answer")
}

func TestQueryJSONAndDecodeErrors(t *testing.T) {
	var gotQuery, gotType string
	var gotBody map[string]any
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		gotQuery, gotType = r.URL.RawQuery, r.Header.Get("Content-Type")
		_ = json.NewDecoder(r.Body).Decode(&gotBody)
		if r.URL.Path == "/api/bad" {
			fmt.Fprint(w, `{"items":[`)
			return
		}
		fmt.Fprint(w, `{"n":3}`)
	})
	c := newClient(p, nil)
	type opts struct {
		Limit  int `url:"limit,omitempty"`
		Offset int `url:"offset,omitempty"`
	}
	var out struct{ N int }
	require.NoError(t, c.Do(context.Background(), &Request{Method: "POST", URL: p.URL + "/api/q",
		Query: &opts{Limit: 5}, JSON: map[string]string{"name": "x"}, Auth: Bearer}, &out))
	assert.Equal(t, "limit=5", gotQuery)
	assert.Equal(t, "application/json", gotType)
	assert.Equal(t, map[string]any{"name": "x"}, gotBody)
	assert.Equal(t, 3, out.N)

	err := c.Do(context.Background(), &Request{Method: "GET", URL: p.URL + "/api/bad", Auth: Bearer}, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "decoding answer of GET /api/bad")
	assert.False(t, errors.As(err, new(*apierror.Error)), "a bad answer is not an API error")
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

func TestJoinURLEscapesSegments(t *testing.T) {
	assert.Equal(t, "https://x.test/api/v1/forms/a%20b%2Fc", JoinURL("https://x.test/api/", "v1", "forms", "a b/c"))
}

func TestDownloadStreams(t *testing.T) {
	payload := bytes.Repeat([]byte("%PDF-"), 1000)
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "application/pdf", r.Header.Get("Accept"))
		_, _ = w.Write(payload)
	})
	c := newClient(p, nil)
	var buf bytes.Buffer
	n, err := c.Download(context.Background(), &Request{Method: "GET", URL: p.URL + "/api/doc", Auth: Bearer, Accept: "application/pdf"}, &buf)
	require.NoError(t, err)
	assert.Equal(t, int64(len(payload)), n)
	assert.Equal(t, payload, buf.Bytes())
}

func TestLogsCarryNoSecrets(t *testing.T) {
	var calls atomic.Int32
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if r.URL.Path == "/api/fail" {
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"error":"validation_failed","message":"no"}`)
		}
	})
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := newClient(p, logger)
	ctx := context.Background()
	require.NoError(t, c.Do(ctx, &Request{Method: "GET", URL: p.URL + "/api/ok", Auth: Bearer}, nil))
	err := c.Do(ctx, &Request{Method: "PUT", URL: p.URL + "/api/fail", Auth: Bearer, JSON: map[string]string{"secret": "x"}}, nil)
	require.Error(t, err)

	out := logs.String()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Len(t, lines, 5, "token request, GET 503, GET 503, GET 200, PUT 422:\n%s", out)
	assert.Contains(t, out, `"path":"/api/ok","attempt":3`)
	assert.Contains(t, out, `"status":422`)
	assert.Regexp(t, regexp.MustCompile(`"msg":"signkit: request, will retry","method":"GET"`), out)
	for _, secret := range []string{creds.ClientSecret, creds.APISecret, "tok-1", "tok-2"} {
		assert.NotContains(t, out, secret)
		assert.NotContains(t, err.Error(), secret)
	}
}

func TestNoGoroutineLeakAfterCalls(t *testing.T) {
	p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {})
	c := newClient(p, nil)
	before := runtime.NumGoroutine()
	for range 20 {
		require.NoError(t, c.Do(context.Background(), &Request{Method: "GET", URL: p.URL + "/api/x", Auth: Bearer}, nil))
	}
	p.Client().CloseIdleConnections()
	assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, time.Second, 10*time.Millisecond)
}

func TestGoneIsDoneOnlyOnRetry(t *testing.T) {
	tests := []struct {
		name       string
		statuses   []int
		goneIsDone bool
		wantErr    error
		attempts   int32
	}{
		{"retried DELETE finds it gone", []int{503, 404}, true, nil, 2},
		{"first attempt finds it gone", []int{404}, true, apierror.ErrNotFound, 1},
		{"not marked", []int{503, 404}, false, apierror.ErrNotFound, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			p := newPlatform(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.statuses[min(int(n.Add(1))-1, len(tt.statuses)-1)])
			})
			err := newClient(p, nil).Do(context.Background(),
				&Request{Method: "DELETE", URL: p.URL + "/api/subscriptions/x", Auth: Bearer, GoneIsDone: tt.goneIsDone}, nil)
			if tt.wantErr == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tt.wantErr)
			}
			assert.Equal(t, tt.attempts, n.Load())
		})
	}
}
