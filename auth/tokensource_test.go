package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/apierror"
)

var testCreds = Credentials{ClientID: "client-1", ClientSecret: "client-secret-1", APIKey: "key-1", APISecret: "api-secret-1"}

// tokenServer is a login service that checks the grant and issues tok-1, tok-2, ...
type tokenServer struct {
	*httptest.Server
	requests atomic.Int32
	mu       sync.Mutex
	nonces   map[string]bool
	delay    time.Duration
	status   int    // when set, every request is answered with it
	expires  string // raw JSON of expires_in; empty means 600
}

func newTokenServer(t *testing.T) *tokenServer {
	ts := &tokenServer{nonces: map[string]bool{}}
	ts.Server = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.Close)
	return ts
}

func (s *tokenServer) serve(w http.ResponseWriter, r *http.Request) {
	n := s.requests.Add(1)
	time.Sleep(s.delay)
	if r.URL.Path != "/auth/oauth/token" || r.Method != http.MethodPost {
		http.NotFound(w, r)
		return
	}
	if s.status != 0 {
		w.WriteHeader(s.status)
		fmt.Fprint(w, `{"error":"invalid_client","error_description":"unknown client"}`)
		return
	}
	var body tokenRequest
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	nonce, err := base64.StdEncoding.DecodeString(body.Nonce)
	s.mu.Lock()
	reused := s.nonces[body.Nonce]
	s.nonces[body.Nonce] = true
	s.mu.Unlock()
	ok := err == nil && len(nonce) >= 20 && !reused && body.GrantType == "api_keys" &&
		body.ClientID == testCreds.ClientID && body.ClientSecret == testCreds.ClientSecret && body.Key == testCreds.APIKey &&
		body.Digest == Digest(nonce, body.CreatedAt, testCreds.APISecret)
	if _, perr := time.Parse(time.RFC3339, body.CreatedAt); !ok || perr != nil {
		w.WriteHeader(401)
		fmt.Fprint(w, `{"error":"invalid_grant","error_description":"bad grant"}`)
		return
	}
	expires := s.expires
	if expires == "" {
		expires = "600"
	}
	fmt.Fprintf(w, `{"access_token":"tok-%d","token_type":"Bearer","expires_in":%s,"access_token_expires_at":%d}`,
		n, expires, time.Now().Add(10*time.Minute).Unix())
}

func TestTokenIsCachedAndRenewedBeforeExpiry(t *testing.T) {
	srv := newTokenServer(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ts := NewTokenSource(srv.URL+"/auth/", testCreds, WithClock(clock))
	ctx := context.Background()

	t1, err := ts.Token(ctx)
	require.NoError(t, err)
	assert.Equal(t, "tok-1", t1.AccessToken)
	assert.Equal(t, now.Add(10*time.Minute), t1.ExpiresAt)

	mu.Lock()
	now = now.Add(8*time.Minute + 59*time.Second)
	mu.Unlock()
	t2, _ := ts.Token(ctx)
	assert.Equal(t, "tok-1", t2.AccessToken, "more than the renewal margin left: cached")

	mu.Lock()
	now = now.Add(2 * time.Second)
	mu.Unlock()
	t3, err := ts.Token(ctx)
	require.NoError(t, err)
	assert.Equal(t, "tok-2", t3.AccessToken, "within a minute of expiry: renewed")
	assert.Equal(t, int32(2), srv.requests.Load())
}

func TestInvalidateForgetsOnlyTheStaleToken(t *testing.T) {
	srv := newTokenServer(t)
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	ctx := context.Background()
	t1, _ := ts.Token(ctx)
	ts.Invalidate(t1)
	t2, err := ts.Token(ctx)
	require.NoError(t, err)
	assert.Equal(t, "tok-2", t2.AccessToken)
	ts.Invalidate(t1) // a late 401 for the old token must not discard the new one
	t3, _ := ts.Token(ctx)
	assert.Equal(t, t2, t3)
	assert.Equal(t, int32(2), srv.requests.Load())
}

func TestSingleFlight(t *testing.T) {
	srv := newTokenServer(t)
	srv.delay = 50 * time.Millisecond
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	var wg sync.WaitGroup
	tokens := make([]Token, 100)
	for i := range tokens {
		wg.Go(func() {
			tok, err := ts.Token(context.Background())
			assert.NoError(t, err)
			tokens[i] = tok
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), srv.requests.Load())
	for _, tok := range tokens {
		assert.Equal(t, "tok-1", tok.AccessToken)
	}
}

func TestWaitEndsWithContext(t *testing.T) {
	srv := newTokenServer(t)
	srv.delay = 300 * time.Millisecond
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ts.Token(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 250*time.Millisecond)

	// A caller that leaves does not fail the others waiting for the same request.
	tok, err := ts.Token(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "tok-1", tok.AccessToken)
	assert.Equal(t, int32(1), srv.requests.Load())
}

func TestTokenErrorIsTypedAndHasNoSecret(t *testing.T) {
	srv := newTokenServer(t)
	srv.status = 401
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	_, err := ts.Token(context.Background())
	var apiErr *apierror.Error
	require.True(t, errors.As(err, &apiErr), "got %v", err)
	assert.Equal(t, 401, apiErr.StatusCode)
	assert.Equal(t, "invalid_client", apiErr.Code)
	assert.Equal(t, "unknown client", apiErr.Message)
	assert.ErrorIs(t, err, apierror.ErrUnauthorized)
	for _, secret := range []string{testCreds.ClientSecret, testCreds.APISecret} {
		assert.NotContains(t, err.Error(), secret)
	}
	assert.Equal(t, int32(1), srv.requests.Load(), "a 401 is not retried")
}

func TestEveryAttemptHasAFreshNonce(t *testing.T) {
	srv := newTokenServer(t)
	ts := NewTokenSource(srv.URL+"/auth", testCreds)
	for range 3 {
		ts.Invalidate(mustToken(t, ts))
	}
	assert.Len(t, srv.nonces, 3)
}

func mustToken(t *testing.T, ts *TokenSource) Token {
	t.Helper()
	tok, err := ts.Token(context.Background())
	require.NoError(t, err)
	return tok
}

func TestRedirectIsNotFollowed(t *testing.T) {
	var hit atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit.Store(true) }))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	_, err := NewTokenSource(srv.URL, testCreds).Token(context.Background())
	require.Error(t, err)
	assert.False(t, hit.Load(), "the credentials must not follow a redirect")
}

func TestSecretsAreNotPrinted(t *testing.T) {
	for _, s := range []string{fmt.Sprint(testCreds), fmt.Sprintf("%+v", testCreds), fmt.Sprintf("%#v", testCreds),
		fmt.Sprintf("%v", Token{AccessToken: "tok-secret"})} {
		assert.NotContains(t, s, testCreds.ClientSecret)
		assert.NotContains(t, s, testCreds.APISecret)
		assert.NotContains(t, s, "tok-secret")
	}
	assert.Equal(t, []string{"ClientSecret", "APIKey"}, Credentials{ClientID: "a", APISecret: "b"}.MissingFields())
}

// A token request changes nothing, so it is re-sent after a 429, 502, 503 or
// 504, each attempt with a fresh nonce
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md).
func TestTokenRequestIsResentAfterGatewayErrors(t *testing.T) {
	srv := newTokenServer(t)
	statuses := []int{http.StatusServiceUnavailable, http.StatusBadGateway, http.StatusTooManyRequests, http.StatusGatewayTimeout}
	var mu sync.Mutex
	var nonces []string
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body tokenRequest
		_ = json.NewDecoder(r.Body).Decode(&body)
		mu.Lock()
		nonces = append(nonces, body.Nonce)
		i := len(nonces) - 1
		mu.Unlock()
		if i < len(statuses) {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(statuses[i])
			return
		}
		b, _ := json.Marshal(body)
		r2 := httptest.NewRequest(r.Method, r.URL.Path, bytes.NewReader(b))
		srv.serve(w, r2)
	}))
	t.Cleanup(gw.Close)
	ts := NewTokenSource(gw.URL+"/auth", testCreds, WithRetryPolicy(4, time.Millisecond, time.Millisecond))
	mustToken(t, ts)
	mu.Lock()
	defer mu.Unlock()
	require.Len(t, nonces, len(statuses)+1, "every gateway error is followed by one more attempt")
	seen := map[string]bool{}
	for _, n := range nonces {
		assert.False(t, seen[n], "nonce %q sent twice", n)
		seen[n] = true
	}
}
