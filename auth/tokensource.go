package auth

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/internal/apierror"
	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/version"
)

const (
	defaultLifetime    = 10 * time.Minute
	defaultRenewBefore = time.Minute
	fetchTimeout       = time.Minute
	maxTokenResponse   = 64 << 10
)

// Bounds of the lifetime a token is taken to have, whatever the login
// service answers; a token is renewed at the latest half way through it.
const (
	// MinTokenLifetime is the shortest lifetime a token is taken to have: a
	// shorter expires_in (or access_token_expires_at) counts as this much,
	// so that a token is cached for at least 10 s.
	MinTokenLifetime = 20 * time.Second
	// MaxTokenLifetime is the longest lifetime a token is taken to have: a
	// longer expires_in, up to any JSON number (1e19), counts as this much.
	MaxTokenLifetime = time.Hour
)

// ErrNoToken is returned when the login service answered 2xx without an access token.
var ErrNoToken = errors.New("auth: token response has no access_token")

// Option configures a TokenSource.
type Option func(*TokenSource)

// WithHTTPClient sets the client that token requests are sent through. Its
// redirects are not followed: the request body carries the credentials.
func WithHTTPClient(hc *http.Client) Option {
	return func(ts *TokenSource) { ts.hc = hc }
}

// WithLogger logs one Debug line per token request attempt. The credentials
// and the token are never logged.
func WithLogger(l *slog.Logger) Option {
	return func(ts *TokenSource) { ts.logger = l }
}

// WithClock sets the clock that decides when a cached token is due for renewal.
func WithClock(now func() time.Time) Option {
	return func(ts *TokenSource) { ts.now = now }
}

// WithRenewBefore sets how long before its expiry a token is renewed
// (default one minute); a token is renewed half way through its lifetime
// when that comes earlier.
func WithRenewBefore(d time.Duration) Option {
	return func(ts *TokenSource) { ts.renewBefore = d }
}

// WithRetryPolicy sets how token requests are retried (default: up to 4
// retries after a connection error, 429, 502, 503 or 504; a token request
// changes nothing, so it is always safe to send again).
func WithRetryPolicy(maxRetries int, waitMin, waitMax time.Duration) Option {
	return func(ts *TokenSource) {
		ts.policy.MaxRetries, ts.policy.WaitMin, ts.policy.WaitMax = maxRetries, waitMin, waitMax
	}
}

// WithUserAgent prefixes the SDK's User-Agent on token requests.
func WithUserAgent(ua string) Option {
	return func(ts *TokenSource) { ts.userAgent = ua }
}

// TokenSource obtains access tokens with the API Keys Grant, caches the
// current one and renews it shortly before it expires. However many
// goroutines ask at once, at most one token request is in flight. It is safe
// for concurrent use.
type TokenSource struct {
	tokenURL    string
	creds       Credentials
	hc          *http.Client
	logger      *slog.Logger
	now         func() time.Time
	renewBefore time.Duration
	policy      retry.Policy
	userAgent   string
	sender      *retry.Sender

	mu      sync.Mutex
	token   Token
	renewAt time.Time // when token is due for renewal; see renewalTime
	flight  *flight
}

// flight is one token request that any number of callers wait for.
type flight struct {
	done  chan struct{}
	token Token
	err   error
}

// NewTokenSource returns a TokenSource that asks authURL (the login
// service's base URL, e.g. signkit.Sandbox.Auth) for tokens with c.
func NewTokenSource(authURL string, c Credentials, opts ...Option) *TokenSource {
	ts := &TokenSource{
		tokenURL:    strings.TrimRight(authURL, "/") + "/oauth/token",
		creds:       c,
		hc:          http.DefaultClient,
		now:         time.Now,
		renewBefore: defaultRenewBefore,
		policy:      retry.DefaultPolicy(),
	}
	for _, o := range opts {
		o(ts)
	}
	ts.sender = retry.NewSender(retry.NoRedirects(ts.hc), ts.policy, ts.logger)
	return ts
}

// Token returns a valid access token: the cached one until it is due for
// renewal (see WithRenewBefore), otherwise a new one. Waiting ends when ctx ends.
func (ts *TokenSource) Token(ctx context.Context) (Token, error) {
	if err := ctx.Err(); err != nil {
		return Token{}, err
	}
	ts.mu.Lock()
	if t := ts.token; t.AccessToken != "" && ts.now().Before(ts.renewAt) {
		ts.mu.Unlock()
		return t, nil
	}
	f := ts.flight
	if f == nil {
		f = &flight{done: make(chan struct{})}
		ts.flight = f
		go ts.fetch(ctx, f)
	}
	ts.mu.Unlock()
	select {
	case <-f.done:
		return f.token, f.err
	case <-ctx.Done():
		return Token{}, ctx.Err()
	}
}

// Invalidate forgets stale, typically after a service answered 401 to it,
// unless a newer token has already replaced it.
func (ts *TokenSource) Invalidate(stale Token) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.token.AccessToken == stale.AccessToken {
		ts.token = Token{}
	}
}

// fetch runs one token request for every caller waiting on f. It is detached
// from the first caller's cancellation, so that caller leaving does not fail
// the others, and bounded by fetchTimeout.
func (ts *TokenSource) fetch(parent context.Context, f *flight) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(parent), fetchTimeout)
	defer cancel()
	t, renewAt, err := ts.request(ctx)
	ts.mu.Lock()
	if err == nil {
		ts.token, ts.renewAt = t, renewAt
	}
	ts.flight = nil
	ts.mu.Unlock()
	f.token, f.err = t, err
	close(f.done)
}

// tokenRequest is the body of the API Keys Grant.
type tokenRequest struct {
	GrantType    string `json:"grant_type"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Key          string `json:"key"`
	Nonce        string `json:"nonce"`
	CreatedAt    string `json:"created_at"`
	Digest       string `json:"digest"`
}

// request runs the API Keys Grant and returns the token and when it is due
// for renewal.
func (ts *TokenSource) request(ctx context.Context) (Token, time.Time, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ts.tokenURL, nil)
	if err != nil {
		return Token{}, time.Time{}, fmt.Errorf("auth: token request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", version.UserAgent(ts.userAgent))
	requested := ts.now()
	// Every attempt gets its own nonce and created_at: a nonce is single use.
	// Always re-sendable
	// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md): a
	// token request changes nothing.
	resp, err := ts.sender.Send(req, ts.grantBody, retry.Always)
	if err != nil {
		return Token{}, time.Time{}, fmt.Errorf("auth: token request: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Token{}, time.Time{}, fmt.Errorf("auth: token request: %w", apierror.FromResponse(resp))
	}
	defer resp.Body.Close()
	var tr tokenResponse
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxTokenResponse)).Decode(&tr); err != nil {
		return Token{}, time.Time{}, fmt.Errorf("auth: decoding token response: %w", err)
	}
	if tr.AccessToken == "" {
		return Token{}, time.Time{}, ErrNoToken
	}
	life := tr.lifetime(requested)
	tok := Token{AccessToken: tr.AccessToken, ExpiresAt: requested.Add(life)}
	return tok, requested.Add(renewalTime(life, ts.renewBefore)), nil
}

// grantBody builds a fresh API Keys Grant body.
func (ts *TokenSource) grantBody() (io.ReadCloser, int64, error) {
	nonce := make([]byte, 24)
	if _, err := rand.Read(nonce); err != nil {
		return nil, 0, fmt.Errorf("auth: nonce: %w", err)
	}
	createdAt := time.Now().UTC().Format(time.RFC3339)
	b, err := json.Marshal(tokenRequest{
		GrantType:    "api_keys",
		ClientID:     ts.creds.ClientID,
		ClientSecret: ts.creds.ClientSecret,
		Key:          ts.creds.APIKey,
		Nonce:        base64.StdEncoding.EncodeToString(nonce),
		CreatedAt:    createdAt,
		Digest:       Digest(nonce, createdAt, ts.creds.APISecret),
	})
	if err != nil {
		return nil, 0, err
	}
	return io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
}
