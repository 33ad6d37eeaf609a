package retry

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// ErrRedirect is returned when a request was redirected too often.
var ErrRedirect = errors.New("signkit: stopped after 10 redirects")

// credentialHeaders are the headers that carry the access token
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication):
// net/http drops Authorization only when the host changes to one outside the
// original domain, and never drops a custom header such as X-Auth-Token.
var credentialHeaders = []string{"Authorization", "X-Auth-Token"}

// StripAuthOnRedirect returns a copy of hc whose redirects carry neither
// Authorization nor X-Auth-Token once the chain has left the origin of the
// first request: a hop whose scheme, host or port differs from the first
// request's (an https→http downgrade on the same host included) drops them,
// and so does every later hop, even one that comes back. hc's own
// CheckRedirect, if any, still runs after.
func StripAuthOnRedirect(hc *http.Client) *http.Client {
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return ErrRedirect
		}
		if leftOrigin(req, via) {
			for _, h := range credentialHeaders {
				req.Header.Del(h)
			}
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &c
}

// leftOrigin reports whether req or any hop before it (via[1:]) has another
// origin than via[0]. net/http copies the first request's headers onto every
// hop, so a chain that came back to the origin must still be stripped.
func leftOrigin(req *http.Request, via []*http.Request) bool {
	if len(via) == 0 {
		return false
	}
	origin := via[0].URL
	if !sameOrigin(origin, req.URL) {
		return true
	}
	for _, r := range via[1:] {
		if !sameOrigin(origin, r.URL) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether a and b have the same scheme, host and port
// (an omitted port being the scheme's default), compared case-insensitively.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

// port is u's port, or its scheme's default.
func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

// NoRedirects returns a copy of hc that never follows a redirect: the
// redirect answer itself is returned. The token request uses it, since its
// body carries the credentials.
func NoRedirects(hc *http.Client) *http.Client {
	c := *hc
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}
