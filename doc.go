// Package signkit is the Go client of the e-signing platform: web forms with
// prefilled links and submissions (package forms), one-call case file creation
// and signed documents (package casefiles), and webhook subscriptions and
// signed event delivery (package webhooks).
//
// Create one Client per account and share it between goroutines:
//
//	client, err := signkit.NewClient(signkit.Config{
//		Endpoints:   signkit.Sandbox,
//		Credentials: auth.Credentials{ClientID: "...", ClientSecret: "...", APIKey: "...", APISecret: "..."},
//	})
//
// The client obtains and renews its access token itself, retries what is safe
// to retry, and returns API failures as *Error, which errors.Is matches
// against ErrNotFound, ErrUnauthorized, ErrForbidden, ErrConflict,
// ErrValidation and ErrRateLimited.
//
// Tests run against the in-memory mock server of package mockserver instead of
// the real service.
package signkit
