// Package hardening holds the project's cross-package hardening tests: the
// fault matrix (every SDK call against every fault the mock server can
// inject), the load test, bad input to the mock server, the scan for leaked
// secrets, and the token single-flight benchmark. It has no API; everything
// is in its _test.go files.
package hardening
