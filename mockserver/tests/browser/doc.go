// Package browser holds the mock's tests in headless Chromium (chromedp): its
// public form pages, signing pages and dashboard as a person uses them, on a
// desktop's screen and a phone's, and pages of other origins that try to
// drive it. It has no code of its own: the tests live in a module of their
// own so that the mock's module requires no browser driver
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#layout).
package browser
