// Package signkit holds no code, only tests: it checks the root package
// signkit (the client, its token sources, the request id of its errors)
// end to end, through the SDK's exported API against the bundled mock
// server (package mockserver, in process). The tests live here, not beside
// the SDK's code, so that the SDK's own packages never need the mock to be
// tested.
package signkit
