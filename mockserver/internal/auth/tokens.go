package auth

import (
	"context"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// Token rules
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
const (
	tokenLifetime  = 10 * time.Minute // on mock time
	createdAtSkew  = 5 * time.Minute  // against the wall clock
	nonceRetention = 2 * createdAtSkew
)

// tokenStore holds issued access tokens and recently used nonces.
type tokenStore struct {
	mu     sync.Mutex
	tokens map[string]issuedToken
	nonces map[string]time.Time // nonce → wall time first used
	issued int
}

type issuedToken struct {
	userID  int64
	expires time.Time // mock time
}

func newTokenStore() *tokenStore {
	return &tokenStore{tokens: map[string]issuedToken{}, nonces: map[string]time.Time{}}
}

func (t *tokenStore) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens, t.nonces, t.issued = map[string]issuedToken{}, map[string]time.Time{}, 0
}

// useNonce records a nonce and reports false when it was used before. Nonces
// older than the created_at window are forgotten (a replay of them fails the
// created_at check anyway).
func (t *tokenStore) useNonce(nonce string, wall time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, seen := t.nonces[nonce]; seen {
		return false
	}
	t.nonces[nonce] = wall
	return true
}

// issue stores a new token for the user, pruning expired ones now and then.
func (t *tokenStore) issue(userID int64, now time.Time, wall time.Time) (string, time.Time) {
	tok := base64.RawURLEncoding.EncodeToString([]byte(ids.Hex(24)))
	exp := now.Add(tokenLifetime)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tokens[tok] = issuedToken{userID: userID, expires: exp}
	t.issued++
	if t.issued%256 == 0 {
		for k, v := range t.tokens {
			if !now.Before(v.expires) {
				delete(t.tokens, k)
			}
		}
		for k, v := range t.nonces {
			if wall.Sub(v) > nonceRetention {
				delete(t.nonces, k)
			}
		}
	}
	return tok, exp
}

// lookup answers the user of a token that has not expired at now.
func (t *tokenStore) lookup(tok string, now time.Time) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	it, ok := t.tokens[tok]
	if !ok || !now.Before(it.expires) {
		return 0, false
	}
	return it.userID, true
}

// tokenRequest is the body of POST {Auth}/oauth/token.
type tokenRequest struct {
	GrantType    string `json:"grant_type"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	Key          string `json:"key"`
	Nonce        string `json:"nonce"`
	CreatedAt    string `json:"created_at"`
	Digest       string `json:"digest"`
}

// oauthError is an error of the token endpoint: {"error","error_description"},
// plus the common fields so that either decoder reads it.
func writeOAuthError(w http.ResponseWriter, status int, code, desc string) {
	wire.WriteJSON(w, status, map[string]any{"error": code, "error_description": desc,
		"statusCode": status, "message": desc, "details": []wire.FieldError{}})
}

// HandleToken is POST {Auth}/oauth/token, the API Keys Grant.
func (svc *Service) HandleToken(w http.ResponseWriter, r *http.Request) error {
	var req tokenRequest
	if err := wire.DecodeJSON(w, r, svc.cfg.MaxBodyBytes, &req); err != nil {
		status, desc := http.StatusBadRequest, "the body must be a JSON object"
		var apiErr *wire.Error
		if errors.As(err, &apiErr) && apiErr.Status != http.StatusBadRequest {
			status, desc = apiErr.Status, apiErr.Message // 413 too large, 415 not JSON
		}
		writeOAuthError(w, status, "invalid_request", desc)
		return nil
	}
	u, status, code, desc := svc.checkTokenRequest(&req, time.Now())
	if u == nil {
		writeOAuthError(w, status, code, desc)
		return nil
	}
	tok, exp := svc.tokens.issue(u.ID, svc.cfg.Clock.Now(), time.Now())
	w.Header().Set("Cache-Control", "no-store")
	wire.WriteJSON(w, http.StatusOK, map[string]any{"access_token": tok, "token_type": "Bearer",
		"expires_in": int(tokenLifetime / time.Second), "access_token_expires_at": exp.Unix()})
	return nil
}

// checkTokenRequest answers the user a valid token request is for, or the
// status, OAuth error code and description of the first problem. wall is the
// wall clock, which created_at is checked against.
func (svc *Service) checkTokenRequest(req *tokenRequest, wall time.Time) (*User, int, string, string) {
	if req.GrantType != "api_keys" {
		return nil, http.StatusBadRequest, "unsupported_grant_type", `grant_type must be "api_keys"`
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"client_id", req.ClientID}, {"client_secret", req.ClientSecret},
		{"key", req.Key}, {"nonce", req.Nonce}, {"created_at", req.CreatedAt}, {"digest", req.Digest}} {
		if f.v == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return nil, http.StatusBadRequest, "invalid_request", "missing " + strings.Join(missing, ", ")
	}
	if svc.users.byClient(req.ClientID, req.ClientSecret) == nil {
		return nil, http.StatusUnauthorized, "invalid_client", "unknown client_id or wrong client_secret"
	}
	u := svc.users.byAPIKey(req.Key)
	if u == nil {
		return nil, http.StatusUnauthorized, "invalid_client", "unknown API key"
	}
	nonce, err := base64.StdEncoding.DecodeString(req.Nonce)
	if err != nil || len(nonce) == 0 {
		return nil, http.StatusBadRequest, "invalid_request", "nonce must be standard base64 of random bytes"
	}
	created, ok := parseCreatedAt(req.CreatedAt)
	if !ok {
		return nil, http.StatusBadRequest, "invalid_request",
			`created_at must be an RFC 3339 time or in the form "Tue Nov 24 2026 07:26:27 GMT+0000"`
	}
	if d := wall.Sub(created); d > createdAtSkew || d < -createdAtSkew {
		return nil, http.StatusUnauthorized, "invalid_grant", "created_at is more than 5 minutes away from the server's clock"
	}
	if !digestMatches(nonce, req.CreatedAt, u.Creds.APISecret, req.Digest) {
		return nil, http.StatusUnauthorized, "invalid_grant", "digest does not match"
	}
	if !svc.tokens.useNonce(req.Nonce, wall) {
		return nil, http.StatusUnauthorized, "invalid_grant", "nonce was already used"
	}
	return u, 0, "", ""
}

// digestMatches checks base64(SHA-1(nonce ‖ created_at ‖ api secret)). This is
// the mock's own implementation, deliberately not the SDK's auth.Digest.
func digestMatches(nonce []byte, createdAt, secret, digest string) bool {
	h := sha1.New()
	h.Write(nonce)
	h.Write([]byte(createdAt))
	h.Write([]byte(secret))
	want := base64.StdEncoding.EncodeToString(h.Sum(nil))
	return subtle.ConstantTimeCompare([]byte(want), []byte(digest)) == 1
}

// phpCreatedAt is the created_at form of the platform's PHP SDK: PHP's "D M j Y
// H:i:s \G\M\TO", day not zero-padded
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
const phpCreatedAt = "Mon Jan 2 2006 15:04:05 GMT-0700"

// parseCreatedAt reads created_at as RFC 3339 (fractional seconds allowed)
// or in the PHP SDK's form.
func parseCreatedAt(v string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, phpCreatedAt} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// Placement says where a service takes its access token
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
type Placement int

const (
	// BearerOrAuthToken: "Authorization: Bearer T" or "X-Auth-Token: T"
	// (Forms and Sign).
	BearerOrAuthToken Placement = iota
	// AuthTokenOnly: "X-Auth-Token: T" alone, and a token the service
	// cannot parse is a 400 "Invalid JWT token" (Send).
	AuthTokenOnly
	// BearerJWTOrAuthToken: "Authorization: Bearer T", "Authorization:
	// JWT T" or "X-Auth-Token: T" (Webhook).
	BearerJWTOrAuthToken
)

// tokenFrom extracts the access token where the placement says: "X-Auth-Token:
// T" everywhere (alone or beside a bare "Authorization: JWT"), and the
// Authorization schemes the placement takes. The second answer says where to
// send it, for the 401.
func tokenFrom(r *http.Request, p Placement) (string, string) {
	scheme, tok, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	tok = strings.TrimSpace(tok)
	x := strings.TrimSpace(r.Header.Get("X-Auth-Token"))
	switch p {
	case AuthTokenOnly:
		return x, "an X-Auth-Token header"
	case BearerJWTOrAuthToken:
		if (strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "JWT")) && tok != "" {
			return tok, ""
		}
		return x, "an Authorization (Bearer or JWT) or X-Auth-Token header"
	}
	if strings.EqualFold(scheme, "Bearer") && tok != "" {
		return tok, ""
	}
	return x, "an Authorization: Bearer or X-Auth-Token header"
}

// wellFormedToken reports whether tok has the form of the mock's tokens
// (see tokenStore.issue): unpadded base64url of 48 hex digits. Anything
// else is a token the mock cannot have issued nor parse.
func wellFormedToken(tok string) bool {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || len(b) != 48 {
		return false
	}
	_, err = hex.DecodeString(string(b))
	return err == nil
}

// errInvalidJWT is the Send service's answer to a token it cannot parse: a 400
// in the platform's exact shape
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
func errInvalidJWT() *wire.Error {
	return &wire.Error{Status: http.StatusBadRequest, Code: wire.PlatformBadRequest,
		Message: "Invalid JWT token: Invalid token format", Bare: true}
}

// Authenticate answers the user of the request's token, or the error to
// answer: 401 for a missing, unknown or expired token, except that a
// malformed one is a 400 "Invalid JWT token" where the placement is
// AuthTokenOnly (the Send service).
func (svc *Service) Authenticate(r *http.Request, p Placement) (*User, error) {
	tok, want := tokenFrom(r, p)
	if tok == "" {
		return nil, wire.Unauthorized("missing access token: send it in " + want)
	}
	if p == AuthTokenOnly && !wellFormedToken(tok) {
		return nil, errInvalidJWT()
	}
	id, ok := svc.tokens.lookup(tok, svc.cfg.Clock.Now())
	if !ok {
		return nil, wire.Unauthorized("access token is expired or invalid; request a new one")
	}
	u := svc.users.byID(id)
	if u == nil {
		return nil, wire.Unauthorized("access token is expired or invalid; request a new one")
	}
	return u, nil
}

type userKey struct{}

// With answers ctx carrying u, the authenticated caller.
func With(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// From answers the authenticated caller that With put in ctx, or nil.
func From(ctx context.Context) *User {
	u, _ := ctx.Value(userKey{}).(*User)
	return u
}
