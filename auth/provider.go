package auth

import "context"

// TokenProvider is where a client takes its access tokens from. The SDK's own
// *TokenSource (the API Keys Grant) is one; signkit.Config.TokenSource takes
// any other, such as an adapter of an OAuth authorization code grant with
// refresh tokens, so that a program obtains tokens however its account allows
// while the client still places each token the way each service expects
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
//
// The contract:
//
//   - Token may be called from many goroutines at once. It returns a token
//     that the platform accepts now (not one about to expire: renew ahead
//     of expiry), or an error, which the call that asked fails with. It
//     should end when ctx ends.
//   - Invalidate(stale) tells the provider that the platform refused stale
//     (a 401, or the case file creation service's 400 "Invalid JWT
//     token"). The provider forgets stale, unless a newer token already
//     replaced it, so that the next Token call answers another token. The
//     client then calls Token once more and replays the request; a second
//     refusal fails the call with an error matching
//     signkit.ErrUnauthorized. Invalidate must not block for long: it runs
//     on the goroutine of the refused call.
//
// Neither method may put a token or a secret in an error text or a log
// line: the SDK's errors wrap the error Token returns.
type TokenProvider interface {
	Token(ctx context.Context) (Token, error)
	Invalidate(stale Token)
}

// *TokenSource is the SDK's own TokenProvider.
var _ TokenProvider = (*TokenSource)(nil)
