// Package auth implements the platform's API Keys Grant: it exchanges an OAuth
// client and an API key for a 10-minute access token, caches the token, renews
// it shortly before it expires, and lets only one token request run at a time.
// It also defines [TokenProvider], through which a client takes its tokens from
// that grant or from a source of your own.
//
// Most programs never use it directly: signkit.NewClient builds a [TokenSource]
// from Config.Credentials and places the token the way each service expects (a
// bearer token for the forms, signing and webhook services, X-Auth-Token for
// case file creation; see
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
//
// # Tokens of your own
//
// TokenProvider is what a client takes its tokens from: Token(ctx), called
// concurrently, answers a token valid now; Invalidate(stale) says the
// platform refused stale, which the provider forgets unless a newer token
// already replaced it. [*TokenSource] is one. A program that obtains tokens
// otherwise (the OAuth authorization code grant with refresh tokens, say:
// see examples/oauth2-authcode) sets signkit.Config.TokenSource to its own
// TokenProvider and leaves Config.Credentials empty; setting both is
// refused. The client treats it as it treats a TokenSource: the token placed
// per service, and after a refusal Invalidate with the refused token, one
// more Token call and one replay of the request.
//
// # Credentials
//
// Credentials hold the four values of an account: the OAuth client (ClientID,
// ClientSecret; creating one needs Admin access) and an API key with its
// secret. [Credentials.MissingFields] names the empty ones.
//
// # Secrets are never printed
//
// Credentials, Token and *TokenSource implement String, GoString,
// fmt.Formatter and slog.LogValuer: every fmt verb (%v, %+v, %#v, %s, %q,
// %x, ...) and every slog handler, JSON included, shows "[redacted]" in
// place of the client secret, the API secret and the access token, while
// the client id, the API key and the token URL still show. (A Format method
// is promoted through embedding: a struct that embeds Credentials or Token
// prints as the embedded value; name the field instead.)
//
// # Tokens
//
// A TokenSource asks the login service (POST {Auth}/oauth/token) for a token
// with a fresh nonce, a created_at timestamp and the Digest of both with the
// API secret. Token answers the cached token until shortly before it expires
// (WithRenewBefore, default one minute, but never later than half its
// lifetime), then renews it; concurrent callers share one renewal.
//
// The lifetime is the answer's expires_in (any JSON number, or a string
// holding one; else access_token_expires_at; else the platform's ten
// minutes) clamped to [MinTokenLifetime, MaxTokenLifetime] = [20 s, 1 h], so
// that no answer makes every call fetch a token (expires_in 30 is cached for
// 15 s, 60 for 30 s) or fails to decode (1e19 is cached for 59 minutes).
//
// When a service refuses the token (a 401, or the case file creation
// service's 400 "Invalid JWT token"), Invalidate forgets the stale token
// (unless a newer one already replaced it) so that the next Token call
// renews it:
//
//	ts := auth.NewTokenSource(signkit.Sandbox.Auth, creds)
//	tok, err := ts.Token(ctx) // tok.AccessToken, tok.ExpiresAt
//
// A token request changes nothing, so it is re-sent after a connection error,
// 429, 502, 503 or 504, each time with a fresh nonce
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md); neither
// the credentials nor the token are ever logged or formatted.
package auth
