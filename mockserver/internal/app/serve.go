package app

import (
	"net/http"
	"path"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/auth"
	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// service names one of the areas the single listener serves. Its prefix follows
// signkit.LocalEndpoints; its token placement follows
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication
// (see placementOf).
type service int

const (
	svcAuth    service = iota // {Auth} = /auth: the token endpoint, no token
	svcForms                  // {Forms} = /collect/api: Bearer or X-Auth-Token
	svcSign                   // {Sign} = "": /api/...: Bearer or X-Auth-Token
	svcSend                   // {Send} = /send: X-Auth-Token
	svcWebhook                // {Webhook} = /webhook: Bearer, JWT or X-Auth-Token
	svcPublic                 // public pages (forms, signing): no token
	svcControl                // control API under /mock: no token
)

// placementOf answers where a service takes its access token
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
func placementOf(svc service) auth.Placement {
	switch svc {
	case svcSend:
		return auth.AuthTokenOnly
	case svcWebhook:
		return auth.BearerJWTOrAuthToken
	}
	return auth.BearerOrAuthToken
}

func (s service) needsToken() bool {
	return s == svcForms || s == svcSign || s == svcSend || s == svcWebhook
}

// serviceOfPath tells which token-protected service a path belongs to, so an
// unknown path of a protected service still answers 401 to a bad token.
func serviceOfPath(p string) (service, bool) {
	switch {
	case strings.HasPrefix(p, "/collect/api/"):
		return svcForms, true
	case strings.HasPrefix(p, "/send/api/"):
		return svcSend, true
	case strings.HasPrefix(p, "/webhook/api/"):
		return svcWebhook, true
	case strings.HasPrefix(p, "/api/"):
		return svcSign, true
	}
	return 0, false
}

// handlerFunc serves one route. A returned error is written with wire.WriteError;
// the handler must not have written anything then.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// serve adapts a route's handler: where the service needs a token (and
// guard is set) it authenticates first and puts the caller in the context
// (userFrom); an error the handler returns is written as the JSON error.
func (a *App) serve(svc service, guard bool, h handlerFunc) http.Handler {
	return &endpoint{a: a, svc: svc, guard: guard && svc.needsToken(), h: h}
}

// endpoint is one route's handler as serve adapts it. A type rather than a
// closure, so that it adds one small frame to the request's stack
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#stack-depth).
type endpoint struct {
	a     *App
	svc   service
	guard bool // authenticate before h
	h     handlerFunc
}

func (e *endpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.guard {
		u, err := e.a.Auth.Authenticate(r, placementOf(e.svc))
		if err != nil {
			wire.WriteError(w, err)
			return
		}
		r = r.WithContext(auth.With(r.Context(), u))
	}
	if err := e.h(w, r); err != nil {
		wire.WriteError(w, err)
	}
}

// fallback serves the routes of mux, whose catch-all "/" (noRoute) answers
// what matches no route in the platform's JSON error shape: 405 with Allow
// when the path has routes for other methods, 401 to a bad token on a
// protected service's path, else 404. Under /public/ and /mock/ui a
// browser gets an HTML page instead.
type fallback struct {
	a   *App
	mux *http.ServeMux
}

// methods are those fallback offers in Allow (HEAD goes with GET).
var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch}

func (f *fallback) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !isClean(r.URL.Path) { // the mux would redirect; the platform's paths are clean
		wire.WriteError(w, wire.NotFound("no such resource: %s", r.URL.Path))
		return
	}
	f.mux.ServeHTTP(w, r)
}

// isClean reports whether p is in the canonical form the mux matches
// without redirecting: no empty, "." or ".." segments (a trailing slash is
// kept as is).
func isClean(p string) bool {
	if !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
		return true
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c == p
}

// noRoute answers a request that matches no route.
func (f *fallback) noRoute(w http.ResponseWriter, r *http.Request) {
	var allowed []string
	for _, m := range methods {
		probe := *r
		probe.Method = m
		if _, pattern := f.mux.Handler(&probe); pattern != "/" {
			allowed = append(allowed, m)
		}
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		e := &wire.Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
			Message: "method " + r.Method + " is not allowed here; allowed: " + strings.Join(allowed, ", ")}
		if isDashboardPath(r.URL.Path) {
			f.a.refuse(w, r, e) // a page to a browser, as every answer of the dashboard
			return
		}
		wire.WriteError(w, e)
		return
	}
	if svc, ok := serviceOfPath(r.URL.Path); ok {
		if _, err := f.a.Auth.Authenticate(r, placementOf(svc)); err != nil {
			wire.WriteError(w, err)
			return
		}
	}
	if isDashboardPath(r.URL.Path) && f.a.ui != nil && !wire.WantsJSON(r) {
		// A person in the dashboard followed a link: the dashboard's page.
		_ = f.a.ui.WriteError(w, http.StatusNotFound, "There is no page of the dashboard at "+r.URL.Path+".")
		return
	}
	if strings.HasPrefix(r.URL.Path, "/public/") && !wire.WantsJSON(r) {
		// A person followed a link: an HTML page, as every public page is.
		lang, t := pages.Language("")
		_ = pages.WriteMessage(w, http.StatusNotFound, pages.Message{Lang: lang, Title: t.PageNotFoundTitle, Message: t.PageNotFound})
		return
	}
	wire.WriteError(w, wire.NotFound("no such resource: %s", r.URL.Path))
}
