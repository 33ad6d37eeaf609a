package mockserver

import (
	"net/http"
	"path"
	"strings"

	"github.com/signkit/signkit-go/mockserver/internal/accounts"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// routes answers the handler of every route of the mock: the five services
// under their LocalEndpoints prefixes, the public pages and the control
// API. This table is the mock's table of contents: each pattern appears
// here once, with the service that guards it and the handler that serves
// it. Patterns are http.ServeMux patterns ("METHOD /path/{wildcard}"); a GET
// route answers HEAD too.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	// route registers a route; protected services check the token first.
	route := func(svc service, pattern string, h handlerFunc) { mux.Handle(pattern, s.serve(svc, true, h)) }
	// open registers a route of a protected service that needs no token.
	open := func(svc service, pattern string, h handlerFunc) { mux.Handle(pattern, s.serve(svc, false, h)) }

	// Auth, {Auth} = /auth: the API Keys Grant token endpoint.
	route(svcAuth, "POST /auth/oauth/token", s.accounts.HandleToken)

	// Forms service, {Forms} = /collect/api.
	route(svcForms, "POST /collect/api/v1/forms", s.collect.HandleCreateForm)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}", s.collect.HandleGetForm)
	route(svcForms, "PUT /collect/api/v1/forms/{externalId}", s.collect.HandleUpdateForm)
	route(svcForms, "POST /collect/api/v1/forms/{externalId}/publish", s.collect.HandlePublishForm)
	route(svcForms, "POST /collect/api/v1/forms/{externalId}/archive", s.collect.HandleArchiveForm)
	route(svcForms, "POST /collect/api/v1/forms/{externalId}/requests", s.collect.HandleCreateRequest)
	route(svcForms, "POST /collect/api/v2/forms/{externalId}/requests", s.collect.HandleCreateRequestV2)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}/requests/{requestId}/answers", s.collect.HandleRequestAnswers)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}/submissions", s.collect.HandleListSubmissions)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}/submissions/{submissionId}/answers", s.collect.HandleAnswers)
	route(svcForms, "GET /collect/api/v1/casefiles/{casefileId}/files", s.collect.HandleListFiles)
	route(svcForms, "GET /collect/api/v1/casefiles/{casefileId}/files/{fileId}", s.collect.HandleDownloadFile)

	// Send service, {Send} = /send: simple case file creation and its queue.
	route(svcSend, "POST /send"+sendCreatePath, s.send.HandleCreate)
	open(svcSend, "POST /send/api/v1/queue/public/status", s.send.HandleStatus)

	// Signing service, {Sign} = "": case files and documents.
	route(svcSign, "GET /api/v1/casefiles", s.signing.HandleListCaseFiles)
	route(svcSign, "GET /api/v1/casefiles/{casefileId}", s.signing.HandleGetCaseFile)
	route(svcSign, "DELETE /api/v1/casefiles/{casefileId}", s.signing.HandleDeleteCaseFile)
	route(svcSign, "GET /api/v3/casefiles/{casefileId}", s.signing.HandleGetCaseFile)
	route(svcSign, "GET /api/v3/documents/{documentId}/content", s.signing.HandleDocumentContent)
	route(svcSign, "GET /api/v1/documents/{documentId}/content", s.signing.HandleDocumentContent)

	// Webhook service, {Webhook} = /webhook: subscriptions.
	route(svcWebhook, "POST /webhook/api/v1/subscriptions/test", s.webhooks.HandleTest)
	route(svcWebhook, "POST /webhook/api/v1/subscriptions", s.webhooks.HandleCreate)
	route(svcWebhook, "GET /webhook/api/v1/subscriptions", s.webhooks.HandleList)
	route(svcWebhook, "GET /webhook/api/v1/subscriptions/{id}", s.webhooks.HandleGet)
	route(svcWebhook, "PUT /webhook/api/v1/subscriptions/{id}", s.webhooks.HandleReplace)
	route(svcWebhook, "DELETE /webhook/api/v1/subscriptions/{id}", s.webhooks.HandleDelete)

	// Public pages, no token: forms to fill in, and signing pages.
	route(svcPublic, "GET /public/forms/{externalId}", s.collect.HandlePublicPage)
	route(svcPublic, "POST /public/forms/{externalId}", s.collect.HandlePublicSubmit)
	route(svcPublic, "GET /public/forms/{externalId}/requests/{requestId}", s.collect.HandlePublicPage)
	route(svcPublic, "POST /public/forms/{externalId}/requests/{requestId}", s.collect.HandlePublicSubmit)
	route(svcPublic, "GET /public/sign/{token}", s.signing.HandleSigningPage)
	route(svcPublic, "POST /public/sign/{token}", s.signing.HandleSigningPost)
	route(svcPublic, "GET /public/sign/{token}/documents/{documentId}", s.signing.HandleSigningDocument)

	// Control API under /mock, no token; off with WithControlAPI(false).
	if s.cfg.control {
		route(svcControl, "GET /mock/health", s.ctlHealth)
		route(svcControl, "GET /mock/credentials", s.ctlCredentials)
		route(svcControl, "POST /mock/users", s.ctlAddUser)
		route(svcControl, "GET /mock/clock", s.ctlClock)
		route(svcControl, "POST /mock/clock/advance", s.ctlAdvance)
		route(svcControl, "GET /mock/requests", s.ctlRequests)
		route(svcControl, "GET /mock/stats", s.ctlStats)
		route(svcControl, "POST /mock/reset", s.ctlReset)
		route(svcControl, "POST /mock/casefiles/{casefileId}/signers/{signerId}/{action}", s.signing.CtlSignerAction)
		route(svcControl, "POST /mock/casefiles/{casefileId}/shared-folder", s.signing.CtlSharedFolder)
		route(svcControl, "POST /mock/casefiles/{casefileId}/expiry", s.signing.CtlExpiry)
		route(svcControl, "POST /mock/casefiles/{casefileId}/anonymize", s.signing.CtlAnonymize)
		route(svcControl, "GET /mock/emails", s.signing.CtlEmails)
		route(svcControl, "GET /mock/events", s.signing.CtlEvents)
		route(svcControl, "GET /mock/deliveries", s.ctlDeliveries)
		route(svcControl, "GET /mock/faults", s.ctlFaults)
		route(svcControl, "POST /mock/faults", s.ctlAddFault)
		route(svcControl, "DELETE /mock/faults", s.ctlClearFaults)
	}
	f := &fallback{s: s, mux: mux}
	mux.Handle("/", http.HandlerFunc(f.noRoute))
	return f
}

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
	svcPublic                 // public pages (forms, signing): no token
	svcControl                // control API under /mock: no token
)

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
func (s *Server) serve(svc service, guard bool, h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if guard && svc.needsToken() {
			u, err := s.authenticate(r, svc)
			if err != nil {
				wire.WriteError(w, err)
				return
			}
			r = r.WithContext(accounts.With(r.Context(), u))
		}
		if err := h(w, r); err != nil {
			wire.WriteError(w, err)
		}
	})
}

// fallback serves the routes of mux, whose catch-all "/" (noRoute) answers
// what matches no route in the platform's JSON error shape: 405 with Allow
// when the path has routes for other methods, 401 to a bad token on a
// protected service's path, else 404.
type fallback struct {
	s   *Server
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
		wire.WriteError(w, &wire.Error{Status: http.StatusMethodNotAllowed, Code: "method_not_allowed",
			Message: "method " + r.Method + " is not allowed here; allowed: " + strings.Join(allowed, ", ")})
		return
	}
	if svc, ok := serviceOfPath(r.URL.Path); ok {
		if _, err := f.s.authenticate(r, svc); err != nil {
			wire.WriteError(w, err)
			return
		}
	}
	wire.WriteError(w, wire.NotFound("no such resource: %s", r.URL.Path))
}
