// Package forms holds no code, only tests: it checks package forms (forms,
// their public pages, submissions and answers) end to end, through the
// SDK's exported API against the bundled mock server (package mockserver,
// in process), and fuzzes Form.Validate against the mock (FuzzFormValidate).
// The tests live here, not beside the SDK's code, so that the SDK's own
// packages never need the mock to be tested.
package forms
