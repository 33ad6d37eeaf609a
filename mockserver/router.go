package mockserver

import (
	"net/http"
	"slices"
	"strings"
)

// service names one of the areas the single listener serves. Its prefix
// follows signkit.LocalEndpoints; its token placement follows
// docs/platform.md, "Authentication" (see tokenFrom).
type service int

const (
	svcAuth    service = iota // {Auth} = /auth: the token endpoint, no token
	svcForms                  // {Forms} = /collect/api: Bearer or X-Auth-Token
	svcSign                   // {Sign} = "": /api/...: Bearer or X-Auth-Token
	svcSend                   // {Send} = /send: X-Auth-Token
	svcWebhook                // {Webhook} = /webhook: Bearer, JWT or X-Auth-Token
	svcPublic                 // public pages (forms, later signing): no token
	svcControl                // control API under /mock: no token
)

// prefix is the path under which the service's routes live.
func (s service) prefix() string {
	switch s {
	case svcAuth:
		return "/auth"
	case svcForms:
		return "/collect/api"
	case svcSend:
		return "/send"
	case svcWebhook:
		return "/webhook"
	case svcControl:
		return "/mock"
	}
	return ""
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

// handlerFunc serves one route. A returned error is written with writeError;
// the handler must not have written anything then.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// route is one method and path pattern. Pattern segments written {name}
// match any one segment, readable with r.PathValue(name).
type route struct {
	method string
	segs   []string
	svc    service
	public bool // no token even though the service normally needs one
	h      handlerFunc
}

// router dispatches by method and path and answers JSON 404 and 405 itself.
type router struct {
	s      *Server
	routes []route
}

// handle adds a route of a token-protected service (or of an open one: auth,
// public, control). The handler of a protected route finds the caller with
// userFrom(r).
func (rt *router) handle(svc service, method, pattern string, h handlerFunc) {
	rt.routes = append(rt.routes, route{method: method, segs: splitPath(svc.prefix() + pattern), svc: svc, h: h})
}

// handleOpen adds a route that needs no token inside a protected service
// (such as the Send queue status check).
func (rt *router) handleOpen(svc service, method, pattern string, h handlerFunc) {
	rt.routes = append(rt.routes, route{method: method, segs: splitPath(svc.prefix() + pattern), svc: svc, public: true, h: h})
}

func splitPath(p string) []string { return strings.Split(strings.TrimPrefix(p, "/"), "/") }

func (rt *router) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	segs := splitPath(r.URL.Path)
	var allowed []string
	for i := range rt.routes {
		rr := &rt.routes[i]
		if !matchSegs(rr.segs, segs) {
			continue
		}
		if rr.method != r.Method && (rr.method != http.MethodGet || r.Method != http.MethodHead) {
			allowed = append(allowed, rr.method)
			continue
		}
		for j, seg := range rr.segs {
			if isParam(seg) {
				r.SetPathValue(seg[1:len(seg)-1], segs[j])
			}
		}
		rt.serve(w, r, rr)
		return
	}
	if len(allowed) > 0 {
		slices.Sort(allowed)
		allowed = slices.Compact(allowed)
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		writeError(w, &apiError{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
			Message: "method " + r.Method + " is not allowed here; allowed: " + strings.Join(allowed, ", ")})
		return
	}
	if svc, ok := serviceOfPath(r.URL.Path); ok {
		if _, err := rt.s.authenticate(r, svc); err != nil {
			writeError(w, err)
			return
		}
	}
	writeError(w, errNotFound("no such resource: %s", r.URL.Path))
}

// serve runs the matched route, authenticating first where the service
// needs a token.
func (rt *router) serve(w http.ResponseWriter, r *http.Request, rr *route) {
	if rr.svc.needsToken() && !rr.public {
		u, err := rt.s.authenticate(r, rr.svc)
		if err != nil {
			writeError(w, err)
			return
		}
		r = r.WithContext(withUser(r.Context(), u))
	}
	if err := rr.h(w, r); err != nil {
		writeError(w, err)
	}
}

func (s service) needsToken() bool {
	return s == svcForms || s == svcSign || s == svcSend || s == svcWebhook
}

func isParam(seg string) bool {
	return len(seg) > 2 && seg[0] == '{' && seg[len(seg)-1] == '}'
}

func matchSegs(pattern, segs []string) bool {
	if len(pattern) != len(segs) {
		return false
	}
	for i, p := range pattern {
		if isParam(p) {
			if segs[i] == "" {
				return false
			}
			continue
		}
		if p != segs[i] {
			return false
		}
	}
	return true
}
