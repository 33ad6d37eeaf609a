// Package auth implements the platform's API Keys Grant: it exchanges an OAuth
// client and an API key for a 10-minute access token, caches the token, renews
// it shortly before it expires, and lets only one token request run at a time.
//
// Most programs never use it directly: signkit.NewClient builds a TokenSource
// from Config.Credentials and places the token the way each service expects
// (a bearer token for the forms, signing and webhook services, X-Auth-Token
// for case file creation; see docs/platform.md, "Authentication").
//
// # Credentials
//
// Credentials hold the four values of an account: the OAuth client (ClientID,
// ClientSecret; creating one needs Admin access) and an API key with its
// secret. String and GoString redact the secrets, so printing or logging
// Credentials is safe; MissingFields names the empty ones.
//
// # Tokens
//
// A TokenSource asks the login service (POST {Auth}/oauth/token) for a token
// with a fresh nonce, a created_at timestamp and the Digest of both with the
// API secret. Token answers the cached token until shortly before it expires
// (WithRenewBefore, default one minute), then renews it; concurrent callers
// share one renewal. When a service refuses the token (a 401, or the case
// file creation service's 400 "Invalid JWT token"), Invalidate forgets the stale
// token (unless a newer one already replaced it) so that the next Token call
// renews it:
//
//	ts := auth.NewTokenSource(signkit.Sandbox.Auth, creds)
//	tok, err := ts.Token(ctx) // tok.AccessToken, tok.ExpiresAt
//
// Token requests are retried only where no effect can have happened
// (connection refused, 429, 503), and neither the credentials nor the token
// are ever logged.
package auth
