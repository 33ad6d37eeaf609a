// Package signkit is the Go client of the e-signing platform: web forms with
// prefilled links and submissions (package forms), one-call case file creation
// and signed documents (package casefiles), webhook subscriptions (package
// subscriptions), and verified event delivery (package webhooks).
//
// Create one [Client] per account and share it between goroutines:
//
//	client, err := signkit.NewClient(signkit.Config{
//		Endpoints:   signkit.Sandbox,
//		Credentials: auth.Credentials{ClientID: "...", ClientSecret: "...", APIKey: "...", APISecret: "..."},
//	})
//	form, err := client.Forms.Create(ctx, &forms.Form{...})
//	job, err := client.CaseFiles.Create(ctx, &casefiles.CaseFile{...}, uploads...)
//	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{...})
//
// The services share one transport and one token source (package auth): the client obtains its
// 10-minute access token with the API Keys Grant, renews it before it expires or after a 401, and
// places it the way each service expects. A program that obtains tokens otherwise (the OAuth
// authorization code grant, say) sets Config.TokenSource to an [auth.TokenProvider] of its own
// instead of Config.Credentials. It re-sends what is safe to re-send and never silently re-sends a
// POST whose outcome is unknown: such a call fails with [ErrOutcomeUnknown] (or [ErrRateLimited] after
// a 429), whose text says how to check. The rules per request are in
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md. Retry-After is honoured; every
// wait ends with the call's context.
//
// # Timeouts
//
// The default HTTP client bounds each attempt's dial, TLS handshake and wait
// for the answer's headers (Config.DialTimeout, TLSHandshakeTimeout,
// ResponseHeaderTimeout), not the whole request, so a long upload on a slow
// line completes. With any client, an upload that makes no progress for
// Config.UploadProgressTimeout fails with [ErrUploadStalled], and an answer
// that stalls for DownloadProgressTimeout with [ErrDownloadStalled]. ctx is the
// caller's overall deadline.
//
// Config, *Client and the auth types print [redacted] for every secret and
// token, with every fmt verb and slog handler.
//
// # Errors
//
// API failures are [*Error] values with the status, code, message, field
// details, method, URL and request id; errors.Is matches them against
// ErrNotFound, ErrUnauthorized, ErrForbidden, ErrConflict, ErrValidation,
// ErrRateLimited and ErrOutcomeUnknown. A request the SDK refuses before sending (an invalid form,
// case file or subscription) is a [*ValidationError] listing every problem, and
// errors.Is(err, ErrValidation) holds for it too.
//
// # Environments
//
// [Sandbox] and [Production] are the platform's endpoints. [LocalEndpoints] lays
// the services out under one base URL, the way the mock server of package
// mockserver (and the cmd/signkit-mock binary) serves them: tests, examples
// and the quickstart (go run ./examples/quickstart) run against it without an
// account.
package signkit
