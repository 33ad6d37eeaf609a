// Package bench compares webhooks.Verifier.Verify with the webhook verifiers of
// other libraries on the same event. It is a module of its own so that those
// libraries never enter the SDK's go.sum; see
// https://github.com/signkit/signkit-go/blob/main/BENCHMARKS.md for the command
// and the figures.
package bench
