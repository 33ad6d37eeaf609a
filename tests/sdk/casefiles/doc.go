// Package casefiles holds no code, only tests: it checks package casefiles
// (case files, their jobs, signers and signing requests) end to end,
// through the SDK's exported API against the bundled mock server (package
// mockserver, in process). The tests live here, not beside the SDK's code,
// so that the SDK's own packages never need the mock to be tested.
package casefiles
