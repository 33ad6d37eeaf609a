package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"golang.org/x/oauth2"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
)

// earlyExpiry is how long before its expiry an access token is refreshed,
// so that Token never answers one about to lapse mid-request.
const earlyExpiry = time.Minute

// defaultLifetime is how long an access token is taken to live when the token
// endpoint's answer says neither expires_in nor access_token_expires_at: the
// platform's ten minutes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
const defaultLifetime = 10 * time.Minute

// Endpoint is the OAuth 2 endpoint of the platform environment env
// (signkit.Sandbox or signkit.Production): the login service's /oauth/authorize
// and /oauth/token, with the client id and secret sent in the body of token
// requests
// (https://github.com/signkit/signkit-go/blob/main/examples/oauth2-authcode/README.md
// here lists the facts).
func Endpoint(env signkit.Endpoints) oauth2.Endpoint {
	return oauth2.Endpoint{
		AuthURL:   env.Auth + "/oauth/authorize",
		TokenURL:  env.Auth + "/oauth/token",
		AuthStyle: oauth2.AuthStyleInParams,
	}
}

// Provider adapts the tokens of an OAuth 2 client (authorization code grant
// with refresh tokens) to auth.TokenProvider, for signkit.Config.TokenSource.
// Token answers the cached access token until a minute before its expiry,
// then refreshes it with the refresh token; Invalidate drops the cached
// access token when the platform refused it, so that the next Token call
// refreshes, keeping the refresh token. It is safe for concurrent use: one
// mutex guards the source, held through a refresh, so that two callers never
// spend the same refresh token.
type Provider struct {
	refresh func(refreshToken string) oauth2.TokenSource

	mu      sync.Mutex
	src     oauth2.TokenSource // caches the access token; refreshes through refresh
	current *oauth2.Token      // the last token src answered (or the stored one)
}

// Interface check.
var _ auth.TokenProvider = (*Provider)(nil)

// NewProvider returns a Provider whose tokens come from conf, starting from
// stored: a token of conf.Exchange, or one saved by an earlier run (its
// refresh token at least). ctx carries the HTTP client of the token
// requests (oauth2.HTTPClient) and must outlive the Provider.
func NewProvider(ctx context.Context, conf *oauth2.Config, stored *oauth2.Token) *Provider {
	return newProvider(stored, func(refreshToken string) oauth2.TokenSource {
		return &refresher{ctx: ctx, conf: conf, refreshToken: refreshToken}
	})
}

// newProvider is NewProvider with the source of refreshed tokens given:
// refresh(rt) answers a source that refreshes with rt (and with whatever
// refresh token replaces it) every time it is asked.
func newProvider(stored *oauth2.Token, refresh func(refreshToken string) oauth2.TokenSource) *Provider {
	if stored == nil {
		stored = &oauth2.Token{}
	}
	return &Provider{
		refresh: refresh,
		src:     oauth2.ReuseTokenSourceWithExpiry(stored, refresh(stored.RefreshToken), earlyExpiry),
		current: stored,
	}
}

// Token implements auth.TokenProvider: the cached access token while it is
// valid, else a refreshed one. The refresh request is bounded by the
// timeout of the HTTP client NewProvider's ctx carries (x/oauth2 takes no
// context per call); ctx is checked first.
func (p *Provider) Token(ctx context.Context) (auth.Token, error) {
	if err := ctx.Err(); err != nil {
		return auth.Token{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	t, err := p.src.Token()
	if err != nil {
		// x/oauth2's errors carry the token endpoint's error answer, never
		// the client secret or the refresh token.
		return auth.Token{}, fmt.Errorf("oauth2-authcode: refreshing the access token: %w", err)
	}
	p.current = t
	return auth.Token{AccessToken: t.AccessToken, ExpiresAt: t.Expiry}, nil
}

// Invalidate implements auth.TokenProvider: when stale is the access token
// held now, it is dropped and the next Token call refreshes with the
// refresh token; an older token (already replaced) changes nothing.
func (p *Provider) Invalidate(stale auth.Token) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current.AccessToken == "" || p.current.AccessToken != stale.AccessToken {
		return
	}
	rt := p.current.RefreshToken
	p.current = &oauth2.Token{RefreshToken: rt}
	p.src = oauth2.ReuseTokenSourceWithExpiry(nil, p.refresh(rt), earlyExpiry)
}

// Saved answers a copy of the token held now, to store between runs: the
// platform may have replaced the refresh token at a refresh.
func (p *Provider) Saved() *oauth2.Token {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := *p.current
	return &t
}

// refresher asks the token endpoint for a new access token every time it
// is asked (ReuseTokenSourceWithExpiry caches), with the latest refresh
// token.
type refresher struct {
	ctx          context.Context
	conf         *oauth2.Config
	refreshToken string
}

// Token refreshes. A source of conf built from a token without an access token
// refreshes at once; x/oauth2 keeps the old refresh token when the answer has
// none. The expiry is the answer's expires_in, else its access_token_expires_at
// (what the platform's token endpoint answers, see
// https://github.com/signkit/signkit-go/blob/main/examples/oauth2-authcode/README.md
// here), else the platform's ten minutes.
func (r *refresher) Token() (*oauth2.Token, error) {
	requested := time.Now()
	t, err := r.conf.TokenSource(r.ctx, &oauth2.Token{RefreshToken: r.refreshToken}).Token()
	if err != nil {
		return nil, err
	}
	r.refreshToken = t.RefreshToken
	if t.Expiry.IsZero() {
		t.Expiry = expiresAt(t, requested)
	}
	return t, nil
}

// expiresAt reads access_token_expires_at (Unix seconds, a JSON number or
// a string holding one) from t's answer; without it, the platform's ten
// minutes from requested.
func expiresAt(t *oauth2.Token, requested time.Time) time.Time {
	var secs float64
	switch v := t.Extra("access_token_expires_at").(type) {
	case float64:
		secs = v
	case json.Number:
		secs, _ = v.Float64()
	case string:
		secs, _ = strconv.ParseFloat(v, 64)
	}
	if secs <= 0 {
		return requested.Add(defaultLifetime)
	}
	return time.Unix(int64(secs), 0)
}
