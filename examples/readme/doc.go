// Package readme holds the Go code of the repository's
// https://github.com/signkit/signkit-go/blob/main/README.md as compiled
// examples and tests (in its _test.go files), so that the README cannot show
// code that does not compile or no longer works. A test checks that every Go
// block of https://github.com/signkit/signkit-go/blob/main/README.md appears in
// them.
package readme
