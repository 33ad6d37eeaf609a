package app

import (
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/inproc"
	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// guard keeps the mock to the people who run it
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#who-may-drive-the-control-api).
// Before anything else it refuses:
//
//   - 421, on every route, a request that came over a connection naming a
//     Host that is neither a loopback name, the base URL's host nor one of
//     the allowed hosts: a page whose name was rebound to the mock's
//     address (DNS rebinding) must read nothing, the services' data no more
//     than the credentials. Requests served in process have no connection
//     and pass;
//   - 403, a state-changing request (not GET, HEAD or OPTIONS) under
//     /mock/ whose Origin, or without one whose Referer, is another origin
//     than the mock's (a Host without a port taking the base URL's
//     scheme's default port): another page open in the same browser must
//     not drive the control API or the dashboard's forms; and a post to a
//     dashboard form with neither, which its own page always sends (every
//     other route takes such requests: curl, SDKs, test code);
//   - 415, such a request to the control API (not the dashboard) whose
//     body is not JSON, so that no browser can send it without a preflight.
//
// A small type rather than a closure: it adds one small frame to every
// request's stack
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
type guard struct {
	a    *App
	next http.Handler
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !g.a.hostAllowed(r) {
		g.a.refuse(w, r, misdirected(r.Host))
		return
	}
	if g.a.Cfg.Control && isControlPath(r.URL.Path) && !safeMethod(r.Method) {
		if err := g.a.checkControl(r); err != nil {
			g.a.refuse(w, r, err)
			return
		}
	}
	g.next.ServeHTTP(w, r)
}

// isControlPath reports whether p is under the control API, the dashboard
// included.
func isControlPath(p string) bool { return strings.HasPrefix(p, "/mock/") || p == "/mock" }

// isDashboardPath reports whether p is the dashboard's.
func isDashboardPath(p string) bool { return strings.HasPrefix(p, "/mock/ui/") || p == "/mock/ui" }

// safeMethod reports whether a request of method changes nothing.
func safeMethod(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// hostAllowed reports whether r may be served as far as its Host goes: a
// request served in process, one without a Host (no browser sends that),
// or one that names a loopback name, the base URL's host or an allowed
// host.
func (a *App) hostAllowed(r *http.Request) bool {
	if r.Context().Value(http.LocalAddrContextKey) == nil || inproc.Served(r) || r.Host == "" {
		return true
	}
	h := HostName(r.Host)
	if isLoopbackName(h) || h == a.baseHost {
		return true
	}
	for _, allowed := range a.Cfg.AllowedHosts {
		if h == HostName(allowed) {
			return true
		}
	}
	return false
}

// HostName answers the name of a Host header value or of an allowed host
// as the Host rule compares them: without the port or the brackets of an
// IPv6 address, in lower case, without a final dot.
func HostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// isLoopbackName reports whether h (as HostName answers it) names this
// machine: localhost, a name under .localhost, 127.0.0.0/8 or ::1.
func isLoopbackName(h string) bool {
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// misdirected is the 421 of a Host the mock does not answer to.
func misdirected(host string) *wire.Error {
	return &wire.Error{Status: http.StatusMisdirectedRequest, Code: "misdirected_request",
		Message: "the mock does not answer to the host " + quote(HostName(host)) + ": it answers to localhost, " +
			"127.0.0.1, [::1] and the host of its base URL, so that a web page cannot reach it under a name of " +
			"its own (DNS rebinding); admit this name with -allow-host " + HostName(host) +
			" (mockserver.WithAllowedHosts)"}
}

// quote quotes s for a message, as %q does.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// checkControl answers why a state-changing request under /mock/ is
// refused, or nil: 403 when it comes from another origin, 415 when it is
// a control API request (not the dashboard's) with a body that is not
// JSON.
func (a *App) checkControl(r *http.Request) *wire.Error {
	if from, ok := foreignOrigin(r, a.baseOrigin); ok {
		return wire.Forbidden("the control API and the dashboard take requests from the mock's own pages "+
			"and from tools without a browser only, not from a page of %s; open the dashboard at %s/mock/ui "+
			"or call the control API from your test code", from, wire.BaseURL(r))
	}
	if isDashboardPath(r.URL.Path) {
		// Only browsers use the dashboard, and they send an Origin with a
		// POST: one with neither Origin nor Referer is not the dashboard's.
		if r.Header.Get("Origin") == "" && r.Header.Get("Referer") == "" {
			return wire.Forbidden("the dashboard's forms are posted by its own pages, which send an Origin or a Referer; "+
				"from code, call %s instead", codeRoute(r.URL.Path))
		}
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" && r.ContentLength == 0 {
		return nil // no body: POST /mock/reset, a signer action, DELETE /mock/faults
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
		return nil
	}
	msg := "the control API takes a JSON body or none: send Content-Type: application/json"
	if ct != "" {
		msg += ", not " + quote(ct)
	}
	return &wire.Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type", Message: msg}
}

// codeRoute answers the route code calls for what the dashboard's form at path
// does
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
func codeRoute(path string) string {
	rest, _ := strings.CutPrefix(path, "/mock/ui/")
	switch {
	case rest == "webhooks/replay":
		return `POST /mock/deliveries/replay with {"subscriptionId","eventId"}`
	case rest == "clock":
		return `POST /mock/clock/advance with {"seconds":n}`
	case strings.HasSuffix(rest, "/request/email"):
		return "the Signing service's PUT /api/v1/signingrequests/{id} with the new email"
	case strings.HasSuffix(rest, "/request/resend"):
		return "the Signing service's PATCH /api/v1/signingrequests/{id}/send"
	case strings.HasPrefix(rest, "casefiles/"):
		return "POST /mock/" + rest
	}
	return "the control API under /mock/"
}

// foreignOrigin answers the origin r comes from when it is not the mock's:
// its Origin header, or without one its Referer's origin. "null" (a
// sandboxed or opaque origin) is foreign; no Origin and no Referer (curl,
// the SDK, test code) is not.
func foreignOrigin(r *http.Request, base string) (string, bool) {
	from := r.Header.Get("Origin")
	if from == "" {
		ref := r.Header.Get("Referer")
		if ref == "" {
			return "", false
		}
		from = ref
	}
	o, ok := originOf(from)
	if !ok {
		return quote(from), true
	}
	own := ownOrigin(r, base)
	// The base URL's origin counts as the mock's own only when the request
	// reached the mock under the base URL's host and port (a TLS proxy in
	// front changes the scheme, not those): a mock published on another
	// port than its base URL's must not take the pages of whatever app
	// serves the base URL's port.
	if o == own || o == base && hostPart(o) == hostPart(own) {
		return "", false
	}
	return o, true
}

// ownOrigin answers the origin r reached the mock at, as originOf writes it:
// its scheme, and its Host's name and port. A Host without a port (what a proxy
// on its scheme's default port forwards) takes the default port of the base
// URL's scheme, or without a base URL of the request's own
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#who-may-drive-the-control-api).
func ownOrigin(r *http.Request, base string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	port := ""
	if _, p, err := net.SplitHostPort(host); err == nil {
		port = p
	}
	if port == "" {
		portScheme := scheme
		if s, _, ok := strings.Cut(base, "://"); ok {
			portScheme = s
		}
		port = defaultPorts[portScheme]
	}
	return scheme + "://" + net.JoinHostPort(HostName(host), port)
}

// defaultPorts are the ports a URL or a Host without one means, by scheme.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// hostPart is the host and port of an origin: what follows "://".
func hostPart(origin string) string {
	_, hp, _ := strings.Cut(origin, "://")
	return hp
}

// originOf answers the origin of a URL (scheme://host:port, in lower case,
// the default port written out) and whether it has one.
func originOf(s string) (string, bool) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = defaultPorts[scheme]
	}
	return scheme + "://" + net.JoinHostPort(HostName(u.Host), port), true
}

// refuse answers a request the guard refuses: the dashboard's HTML page to
// a browser on the dashboard, a plain HTML page on the public pages, else
// the platform's JSON error.
func (a *App) refuse(w http.ResponseWriter, r *http.Request, e *wire.Error) {
	switch {
	case wire.WantsJSON(r):
	case isDashboardPath(r.URL.Path) && a.ui != nil:
		if a.ui.WriteError(w, e.Status, e.Message) == nil {
			return
		}
	case strings.HasPrefix(r.URL.Path, "/public/"):
		if pages.WriteMessage(w, e.Status, pages.Message{Lang: "en", Title: http.StatusText(e.Status), Message: e.Message}) == nil {
			return
		}
	}
	wire.WriteError(w, e)
}
