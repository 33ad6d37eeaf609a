package retry

import (
	"errors"
	"net/http"
)

// ErrRedirect is returned when a request was redirected too often.
var ErrRedirect = errors.New("signkit: stopped after 10 redirects")

// StripAuthOnRedirect returns a copy of hc whose redirects to another host
// carry neither Authorization nor X-Auth-Token (net/http keeps custom headers
// on every redirect). hc's own CheckRedirect, if any, still runs after.
func StripAuthOnRedirect(hc *http.Client) *http.Client {
	c := *hc
	next := hc.CheckRedirect
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return ErrRedirect
		}
		if req.URL.Host != via[0].URL.Host {
			req.Header.Del("Authorization")
			req.Header.Del("X-Auth-Token")
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &c
}

// NoRedirects returns a copy of hc that never follows a redirect: the
// redirect answer itself is returned. The token request uses it, since its
// body carries the credentials.
func NoRedirects(hc *http.Client) *http.Client {
	c := *hc
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}
