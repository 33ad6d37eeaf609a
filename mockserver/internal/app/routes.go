package app

import "net/http"

// SendCreatePath is the Send create endpoint under {Send}, with the platform's
// fixed version segment
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const SendCreatePath = "/api/v1/casefiles/20251022/create"

// SendCreateJSONPath is the JSON create endpoint under {Send}, whose documents
// carry base64 PDFs
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const SendCreateJSONPath = "/api/v1/casefiles/json/20251022/create-production-base64"

// SendCreateSandboxJSONPath is the route the vendor's sandbox connector posts
// the same JSON body to; the mock serves it as SendCreateJSONPath
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
const SendCreateSandboxJSONPath = "/api/v1/casefiles/json/20251022/create-sandbox-base64"

// routes answers the handler of every route of the mock: the five services
// under their LocalEndpoints prefixes, the public pages and the control
// API. This table, routes with serviceRoutes and controlRoutes below, is
// the mock's table of contents: each pattern appears in this file once,
// with the service that guards it and the handler that serves it. Patterns are http.ServeMux patterns ("METHOD /path/{wildcard}"); a GET
// route answers HEAD too.
func (a *App) routes() http.Handler {
	mux := http.NewServeMux()
	add := func(svc service, guard bool, pattern string, h handlerFunc) {
		a.Patterns = append(a.Patterns, pattern)
		mux.Handle(pattern, a.serve(svc, guard, h))
	}
	// route registers a route; protected services check the token first.
	route := func(svc service, pattern string, h handlerFunc) { add(svc, true, pattern, h) }
	// open registers a route of a protected service that needs no token.
	open := func(svc service, pattern string, h handlerFunc) { add(svc, false, pattern, h) }
	a.serviceRoutes(route, open)
	if a.Cfg.Control {
		a.controlRoutes(route)
	}
	f := &fallback{a: a, mux: mux}
	mux.Handle("/", http.HandlerFunc(f.noRoute))
	return f
}

// register adds one route to the table that routes builds.
type register func(svc service, pattern string, h handlerFunc)

// serviceRoutes registers the routes of the five services and the public
// pages, the first part of the table.
func (a *App) serviceRoutes(route, open register) {
	// Auth, {Auth} = /auth: the API Keys Grant token endpoint.
	route(svcAuth, "POST /auth/oauth/token", a.Auth.HandleToken)

	// Forms service, {Forms} = /collect/api.
	route(svcForms, "POST /collect/api/v1/forms", a.Forms.HandleCreateForm)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}", a.Forms.HandleGetForm)
	route(svcForms, "PUT /collect/api/v1/forms/{externalId}", a.Forms.HandleUpdateForm)
	route(svcForms, "POST /collect/api/v1/forms/{externalId}/publish", a.Forms.HandlePublishForm)
	route(svcForms, "POST /collect/api/v1/forms/{externalId}/archive", a.Forms.HandleArchiveForm)
	route(svcForms, "POST /collect/api/v1/forms/{externalId}/requests", a.Forms.HandleCreateRequest)
	route(svcForms, "POST /collect/api/v2/forms/{externalId}/requests", a.Forms.HandleCreateRequestV2)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}/requests/{requestId}/answers", a.Forms.HandleRequestAnswers)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}/submissions", a.Forms.HandleListSubmissions)
	route(svcForms, "GET /collect/api/v1/forms/{externalId}/submissions/{submissionId}/answers", a.Forms.HandleAnswers)
	route(svcForms, "GET /collect/api/v1/casefiles/{casefileId}/files", a.Forms.HandleListFiles)
	route(svcForms, "GET /collect/api/v1/casefiles/{casefileId}/files/{fileId}", a.Forms.HandleDownloadFile)

	// Send service, {Send} = /send: simple case file creation and its queue.
	route(svcSend, "POST /send"+SendCreatePath, a.Send.HandleCreate)
	route(svcSend, "POST /send"+SendCreateJSONPath, a.Send.HandleCreateJSON)
	route(svcSend, "POST /send"+SendCreateSandboxJSONPath, a.Send.HandleCreateJSON)
	open(svcSend, "POST /send/api/v1/queue/public/status", a.Send.HandleStatus)

	// Signing service, {Sign} = "": case files and documents.
	route(svcSign, "GET /api/v1/casefiles", a.Signing.HandleListCaseFiles)
	route(svcSign, "GET /api/v1/casefiles/{casefileId}", a.Signing.HandleGetCaseFile)
	route(svcSign, "DELETE /api/v1/casefiles/{casefileId}", a.Signing.HandleDeleteCaseFile)
	route(svcSign, "GET /api/v1/casefiles/{casefileId}/errors", a.Signing.HandleCaseFileErrors)
	route(svcSign, "GET /api/v3/casefiles/{casefileId}", a.Signing.HandleGetCaseFile)
	route(svcSign, "GET /api/v3/documents/{documentId}/content", a.Signing.HandleDocumentContent)
	route(svcSign, "GET /api/v1/documents/{documentId}/content", a.Signing.HandleDocumentContent)
	// Signing requests: a signer's request changed, its email sent again, its link.
	route(svcSign, "PUT /api/v1/signingrequests/{id}", a.Signing.HandleUpdateSigningRequest)
	route(svcSign, "PATCH /api/v1/signingrequests/{id}/send", a.Signing.HandleResendSigningRequest)
	route(svcSign, "GET /api/v1/signingrequests/{id}/link", a.Signing.HandleSigningRequestLink)

	// Webhook service, {Webhook} = /webhook: subscriptions.
	route(svcWebhook, "POST /webhook/api/v1/subscriptions/test", a.Webhooks.HandleTest)
	route(svcWebhook, "POST /webhook/api/v1/subscriptions", a.Webhooks.HandleCreate)
	route(svcWebhook, "GET /webhook/api/v1/subscriptions", a.Webhooks.HandleList)
	route(svcWebhook, "GET /webhook/api/v1/subscriptions/{id}", a.Webhooks.HandleGet)
	route(svcWebhook, "PUT /webhook/api/v1/subscriptions/{id}", a.Webhooks.HandleReplace)
	route(svcWebhook, "DELETE /webhook/api/v1/subscriptions/{id}", a.Webhooks.HandleDelete)

	// Public pages, no token: forms to fill in, and signing pages.
	route(svcPublic, "GET /public/forms/{externalId}", a.Forms.HandlePublicPage)
	route(svcPublic, "POST /public/forms/{externalId}", a.Forms.HandlePublicSubmit)
	route(svcPublic, "GET /public/forms/{externalId}/requests/{requestId}", a.Forms.HandlePublicPage)
	route(svcPublic, "POST /public/forms/{externalId}/requests/{requestId}", a.Forms.HandlePublicSubmit)
	route(svcPublic, "GET /public/sign/{token}", a.Signing.Pages.HandleSigningPage)
	route(svcPublic, "POST /public/sign/{token}", a.Signing.Pages.HandleSigningPost)
	route(svcPublic, "GET /public/sign/{token}/documents/{documentId}", a.Signing.Pages.HandleSigningDocument)
}

// controlRoutes registers the control API and the dashboard, the last part
// of the table: under /mock, no token; off with WithControlAPI(false).
func (a *App) controlRoutes(route register) {
	ctl := control{a}
	route(svcControl, "GET /mock/health", ctl.health)
	route(svcControl, "GET /mock/credentials", ctl.credentials)
	route(svcControl, "POST /mock/users", ctl.addUser)
	route(svcControl, "POST /mock/token", a.Auth.HandleMockToken) // mock only: a token without the grant
	route(svcControl, "GET /mock/clock", ctl.clock)
	route(svcControl, "POST /mock/clock/advance", ctl.advance)
	route(svcControl, "GET /mock/requests", ctl.requests)
	route(svcControl, "GET /mock/stats", ctl.stats)
	route(svcControl, "POST /mock/reset", ctl.reset)
	route(svcControl, "POST /mock/casefiles/{casefileId}/signers/{signerId}/{action}", a.Signing.Control.CtlSignerAction)
	route(svcControl, "POST /mock/casefiles/{casefileId}/shared-folder", a.Signing.Control.CtlSharedFolder)
	route(svcControl, "POST /mock/casefiles/{casefileId}/expiry", a.Signing.Control.CtlExpiry)
	route(svcControl, "POST /mock/casefiles/{casefileId}/anonymize", a.Signing.Control.CtlAnonymize)
	route(svcControl, "POST /mock/casefiles/{casefileId}/fail", a.Signing.Control.CtlFail)
	route(svcControl, "GET /mock/emails", a.Signing.Control.CtlEmails)
	route(svcControl, "GET /mock/events", a.Signing.Control.CtlEvents)
	route(svcControl, "GET /mock/deliveries", a.Webhooks.CtlDeliveries)
	route(svcControl, "POST /mock/deliveries/replay", a.Webhooks.CtlReplay) // the dashboard's Replay, for code
	route(svcControl, "GET /mock/faults", a.Faults.HandleList)
	route(svcControl, "POST /mock/faults", a.Faults.HandleAdd)
	route(svcControl, "DELETE /mock/faults", a.Faults.HandleClear)
	route(svcControl, "GET /mock/openapi.json", ctl.openAPI) // this table as OpenAPI 3.0.3

	// The dashboard: server-rendered pages over the control API.
	ui := a.dashboard()
	a.ui = ui
	route(svcControl, "GET /mock/ui", ui.HandleInbox)
	route(svcControl, "GET /mock/ui/emails", ui.HandleInbox)
	route(svcControl, "GET /mock/ui/casefiles", ui.HandleCaseFiles)
	route(svcControl, "POST /mock/ui/casefiles/{id}/signers/{signerId}/{action}", ui.HandleSignerAction)
	route(svcControl, "POST /mock/ui/casefiles/{id}/signers/{signerId}/request/email", ui.HandleChangeEmail)
	route(svcControl, "POST /mock/ui/casefiles/{id}/signers/{signerId}/request/resend", ui.HandleResend)
	route(svcControl, "GET /mock/ui/webhooks", ui.HandleWebhooks)
	route(svcControl, "POST /mock/ui/webhooks/replay", ui.HandleReplay)
	route(svcControl, "GET /mock/ui/clock", ui.HandleClock)
	route(svcControl, "POST /mock/ui/clock", ui.HandleAdvance)
}
