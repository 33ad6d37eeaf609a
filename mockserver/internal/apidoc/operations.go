package apidoc

import "github.com/signkit/signkit-go/mockserver/internal/signing"

// operations answers every route of the mock, in the order of routes.go
// (its table of contents), as the description tells it. A test checks that
// the two list the same routes.
func operations() []operation {
	var ops []operation
	ops = append(ops, authAndForms()...)
	ops = append(ops, sendAndSigning()...)
	ops = append(ops, signingRequests()...)
	ops = append(ops, webhooksAndPages()...)
	ops = append(ops, control()...)
	ops = append(ops, dashboard()...)
	return ops
}

// formQuery is ?publish=true of a form create or update.
var formQuery = []param{{"publish", boolean, "true publishes the form in the same call; empty: false"}}

// urlEncoded is a form post of a person's browser, named fields only.
func urlEncoded(props Schema) Schema {
	s := Schema{"schema": Schema{"type": "object", "properties": props}}
	return Schema{"application/x-www-form-urlencoded": s, "multipart/form-data": s}
}

// submissionInputs says how a public form's inputs are named.
const submissionInputs = "The form's answers, one input per field that takes one, named after the field's name: " +
	"<field> in a section without multipleEntries; <field>[i] in instance i (from 0) of a section with " +
	"multipleEntries (a plain <field> is read as instance 0); <field>[], repeated once per value, for a field with " +
	"multipleEntries. A FILE field's file is a part of a multipart/form-data body named like any other input " +
	"(<field>, or <field>[i] in a multi-entry section), with its filename and Content-Type. A CHOICE answers an " +
	"option's value. The names are the form's own, so the properties are not listed: every input is a string, or " +
	"for a repeated name a list of strings, or in a multipart body a file."

// submission is the request body of a public form's POST: its inputs are named
// after the form's fields
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1,
// "Field names").
func submission() Schema {
	text := Schema{"type": "string"}
	texts := Schema{"type": "array", "items": text}
	return Schema{
		"application/x-www-form-urlencoded": Schema{"schema": Schema{"type": "object", "description": submissionInputs,
			"additionalProperties": Schema{"anyOf": []Schema{text, texts}}}},
		"multipart/form-data": Schema{"schema": Schema{"type": "object", "description": submissionInputs,
			"additionalProperties": Schema{"anyOf": []Schema{text, binary, texts}}}},
	}
}

func authAndForms() []operation {
	const forms = "/collect/api/v1/forms/{externalId}"
	form := ok("200", "The form.", ref("Form"))
	answers := ok("200", "The answers.", ref("Answers"))
	prefill := ok("200", "The prefilled link.", ref("PrefillLink"))
	return []operation{
		{method: "POST", path: "/auth/oauth/token", tag: "Auth", summary: "API Keys Grant: an access token",
			body: jsonBody(ref("TokenRequest")), answers: ok("200", "The token.", ref("Token"))},
		{method: "POST", path: "/collect/api/v1/forms", tag: "Forms", summary: "Create a form (a draft, or published with ?publish=true)",
			auth: true, query: formQuery, body: jsonBody(ref("FormDefinition")), answers: ok("201", "The form created.", ref("Form"))},
		{method: "GET", path: forms, tag: "Forms", summary: "Get a form", auth: true, answers: form},
		{method: "PUT", path: forms, tag: "Forms", summary: "Update a form (a new version)", auth: true, query: formQuery,
			body: jsonBody(ref("FormDefinition")), answers: form},
		{method: "POST", path: forms + "/publish", tag: "Forms", summary: "Publish a form's draft", auth: true, answers: form},
		{method: "POST", path: forms + "/archive", tag: "Forms", summary: "Archive a form", auth: true, answers: form},
		{method: "POST", path: forms + "/requests", tag: "Forms", summary: "A prefilled link (one value per field)", auth: true,
			body: jsonBody(ref("PrefillV1")), answers: prefill},
		{method: "POST", path: "/collect/api/v2/forms/{externalId}/requests", tag: "Forms",
			summary: "A prefilled link (values per instance of multi-entry sections)", auth: true,
			body: jsonBody(ref("PrefillV2")), answers: prefill},
		{method: "GET", path: forms + "/requests/{requestId}/answers", tag: "Forms", summary: "The answers of a prefilled link's submission",
			auth: true, answers: answers},
		{method: "GET", path: forms + "/submissions", tag: "Forms", summary: "List a form's submissions", auth: true,
			query: []param{{"limit", integer, "1 to 1000, default 10"}, {"offset", integer, "at least 0"},
				{"completedAfter", Schema{"type": "string", "format": "date-time"}, "RFC 3339"},
				{"completedBefore", Schema{"type": "string", "format": "date-time"}, "RFC 3339"}},
			answers: ok("200", "One page of submissions.", ref("SubmissionPage"))},
		{method: "GET", path: forms + "/submissions/{submissionId}/answers", tag: "Forms", summary: "A submission's answers",
			auth: true, answers: answers},
		{method: "GET", path: "/collect/api/v1/casefiles/{casefileId}/files", tag: "Forms", summary: "The files a submission uploaded",
			auth: true, answers: ok("200", "The files.", Schema{"type": "array", "items": ref("UploadedFile")})},
		{method: "GET", path: "/collect/api/v1/casefiles/{casefileId}/files/{fileId}", tag: "Forms", summary: "One uploaded file's bytes",
			auth: true, answers: Schema{"200": answer("The file, with the Content-Type it was uploaded with.",
				Schema{"*/*": Schema{"schema": binary}})}},
	}
}

func sendAndSigning() []operation {
	caseFile := ok("200", "The case file.", ref("CaseFile"))
	content := Schema{"200": answer("The document: a PDF, or with Accept: application/json its content in base64.",
		Schema{"application/pdf": Schema{"schema": binary}, "application/json": Schema{"schema": ref("DocumentContent")}})}
	contentQuery := []param{{"signed", boolean, "false: the original, not the signed PDF"}}
	sendAnswers := Schema{"200": answer("The job, queued.", jsonBody(ref("SendJob"))),
		"400": answer("The input is refused (a broken rule, a malformed body): the platform's "+
			`{"error":"Bad Request","message","statusCode":400}, with the mock's details beside them; `+
			"also a malformed token (message \"Invalid JWT token: ...\").", jsonBody(ref("Error")))}
	return []operation{
		{method: "POST", path: "/send/api/v1/casefiles/20251022/create", tag: "Send",
			summary: "Create a case file in one multipart request: a data field and one files part per document",
			auth:    true, scheme: sendScheme,
			body: Schema{"multipart/form-data": Schema{
				"schema": Schema{"type": "object", "required": []string{"data"},
					"properties": Schema{"data": ref("SendDefinition"), "files": Schema{"type": "array", "items": binary}}},
				"encoding": Schema{"data": Schema{"contentType": "application/json"}}}},
			answers: sendAnswers},
		{method: "POST", path: "/send/api/v1/casefiles/json/20251022/create-production-base64", tag: "Send",
			summary: "Create a case file from JSON: each document carries its PDF, base64-encoded, in pdf",
			auth:    true, scheme: sendScheme, body: jsonBody(ref("SendDefinitionBase64")), answers: sendAnswers},
		{method: "POST", path: "/send/api/v1/casefiles/json/20251022/create-sandbox-base64", tag: "Send",
			summary: "The sandbox connector's JSON create: the same body, rules and answer as create-production-base64",
			auth:    true, scheme: sendScheme, body: jsonBody(ref("SendDefinitionBase64")), answers: sendAnswers},
		{method: "POST", path: "/send/api/v1/queue/public/status", tag: "Send", summary: "A Send job's state (no token)",
			body: jsonBody(obj(Schema{"uuid": str, "payloadHash": str})),
			answers: Schema{"200": answer("The job.", jsonBody(ref("QueueJob"))),
				"404": answer("No such job.", jsonBody(ref("JobNotFound")))}},
		{method: "GET", path: "/api/v1/casefiles", tag: "Signing", summary: "List the case files the user may read", auth: true,
			query: []param{{"status", str, "statuses 0 to 8, comma-separated"}, {"title", str, ""}, {"metaData", str, ""},
				{"reference", str, ""}, {"ids", str, "ids, comma-separated"}, {"createdAfter", str, "unix seconds or RFC 3339"},
				{"createdBefore", str, "unix seconds or RFC 3339"},
				{"completedAfter", str, "unix seconds or RFC 3339; never-completed case files do not match"},
				{"completedBefore", str, "unix seconds or RFC 3339; never-completed case files do not match"},
				{"activatedAfter", str, "unix seconds or RFC 3339; never-activated case files do not match"},
				{"activatedBefore", str, "unix seconds or RFC 3339; never-activated case files do not match"},
				{"expiresAfter", str, "expireAt, unix seconds or RFC 3339; case files without one do not match"},
				{"expiresBefore", str, "expireAt, unix seconds or RFC 3339; case files without one do not match"},
				{"updatedAfter", str, "unix seconds or RFC 3339"}, {"updatedBefore", str, "unix seconds or RFC 3339"},
				{"folderIds", str, "folder ids, comma-separated"}, {"sort", str, "fields, comma-separated, each - for descending: created, id, title, status, updated, " +
					"completed, activated, expireAt, sendAt (case files without that time last, either way; ties by id)"},
				{"order", Schema{"type": "string", "enum": []string{"asc", "desc", "ASC", "DESC"}}, ""},
				{"page", integer, "with x-paginate: true"}, {"perPage", integer, ""}, {"per_page", integer, ""},
				{"limit", integer, ""}, {"offset", integer, ""}},
			header:  []param{{"x-paginate", str, "true: one page, and a Link header to the next"}},
			answers: ok("200", "The case files.", Schema{"type": "array", "items": ref("CaseFile")})},
		{method: "GET", path: "/api/v1/casefiles/{casefileId}", tag: "Signing", summary: "Get a case file", auth: true, answers: caseFile},
		{method: "DELETE", path: "/api/v1/casefiles/{casefileId}", tag: "Signing", summary: "Delete a case file that is not completed",
			auth: true, answers: caseFile},
		{method: "GET", path: "/api/v1/casefiles/{casefileId}/errors", tag: "Signing",
			summary: "Why a case file failed: its reasons; [] unless it failed", auth: true,
			answers: ok("200", "The reasons, oldest first.", Schema{"type": "array", "items": str})},
		{method: "GET", path: "/api/v3/casefiles/{casefileId}", tag: "Signing", summary: "Get a case file", auth: true, answers: caseFile},
		{method: "GET", path: "/api/v3/documents/{documentId}/content", tag: "Signing", summary: "A document's content",
			auth: true, query: contentQuery, answers: content},
		{method: "GET", path: "/api/v1/documents/{documentId}/content", tag: "Signing", summary: "A document's content",
			auth: true, query: contentQuery, answers: content},
	}
}

func webhooksAndPages() []operation {
	const subs = "/webhook/api/v1/subscriptions"
	sub := ok("200", "The subscription.", ref("Subscription"))
	none := Schema{"204": answer("Done.", nil)}
	page := Schema{"200": answer("The page.", html)}
	submit := submission()
	submitted := Schema{"201": answer("The submission is taken: with Accept: application/json its ids "+
		"{submissionId, casefileId}, else the thank-you page (HTML).",
		Schema{"text/html": html["text/html"], "application/json": Schema{"schema": ref("Submitted")}}),
		"422": answer("The answers are refused: with Accept: application/json the platform's error body, "+
			"one detail per problem naming the input (<field>, <field>[i], or the section's slug for too many "+
			"entries); else the form again (HTML), each problem at its field.",
			Schema{"text/html": html["text/html"], "application/json": Schema{"schema": ref("Error")}})}
	return []operation{
		{method: "POST", path: subs + "/test", tag: "Webhooks", summary: "Send a test event to the subscriptions", auth: true,
			body: jsonBody(Schema{"type": "object", "additionalProperties": true,
				"description": "{} (the platform's body) or none; any other member is ignored."}), bodyOptional: true, answers: none},
		{method: "POST", path: subs, tag: "Webhooks", summary: "Subscribe", auth: true, callbacks: true,
			body: jsonBody(ref("SubscriptionRequest")), answers: ok("201", "The subscription.", ref("Subscription"))},
		{method: "GET", path: subs, tag: "Webhooks", summary: "List the subscriptions", auth: true,
			answers: ok("200", "The subscriptions.", items("Subscription"))},
		{method: "GET", path: subs + "/{id}", tag: "Webhooks", summary: "Get a subscription", auth: true, answers: sub},
		{method: "PUT", path: subs + "/{id}", tag: "Webhooks", summary: "Replace a subscription", auth: true, callbacks: true,
			body: jsonBody(ref("SubscriptionRequest")), answers: sub},
		{method: "DELETE", path: subs + "/{id}", tag: "Webhooks", summary: "Delete a subscription", auth: true, answers: none},

		{method: "GET", path: "/public/forms/{externalId}", tag: "Public pages", summary: "A published form's page",
			answers: page, htmlErrors: true},
		{method: "POST", path: "/public/forms/{externalId}", tag: "Public pages",
			summary: "Submit the form: inputs named by field name (field[i] in instance i, field[] for each value)",
			body:    submit, answers: submitted, htmlErrors: true},
		{method: "GET", path: "/public/forms/{externalId}/requests/{requestId}", tag: "Public pages", summary: "A prefilled link's page",
			answers: page, htmlErrors: true},
		{method: "POST", path: "/public/forms/{externalId}/requests/{requestId}", tag: "Public pages",
			summary: "Submit a prefilled link's form", body: submit, answers: submitted, htmlErrors: true},
		{method: "GET", path: "/public/sign/{token}", tag: "Public pages", summary: "A signer's signing page",
			query:   []param{{"confirm", str, "reject: ask to confirm a rejection"}, {"done", str, "what was just done"}},
			answers: page, htmlErrors: true},
		{method: "POST", path: "/public/sign/{token}", tag: "Public pages", summary: "Sign or reject",
			body: urlEncoded(Schema{"action": Schema{"type": "string", "enum": []string{"sign", "reject"}}, "confirm": str,
				"reason": Schema{"type": "string", "maxLength": signing.MaxReasonChars,
					"description": "A reject's reason, the signer's rejectReason (optional; only with reject)"}}),
			answers: Schema{"200": answer("With Accept: application/json, the case file.", jsonBody(ref("CaseFile"))),
				"303": answer("Back to the signing page (or to the rejection's confirmation).", nil)},
			htmlErrors: true},
		{method: "GET", path: "/public/sign/{token}/documents/{documentId}", tag: "Public pages", summary: "A document, as the signer sees it",
			answers: Schema{"200": answer("The PDF.", Schema{"application/pdf": Schema{"schema": binary}})}, htmlErrors: true},
	}
}

func control() []operation {
	const cf = "/mock/casefiles/{casefileId}"
	caseFile := ok("200", "The case file, after the change.", ref("CaseFile"))
	c := func(method, path, summary string, body Schema, answers Schema) operation {
		op := operation{method: method, path: path, tag: "Control (mock only)", summary: summary, answers: answers}
		if body != nil {
			op.body = jsonBody(body)
		}
		return op
	}
	return []operation{
		c("GET", "/mock/health", "Health and the mock's time", nil, ok("200", "Up.", obj(Schema{"status": str, "now": str}))),
		c("GET", "/mock/credentials", "The default admin user's ids and credentials", nil, ok("200", "The user.", ref("Identity"))),
		c("POST", "/mock/users", "Add a user", ref("UserSpec"), ok("201", "The user.", ref("Identity"))),
		{method: "POST", path: "/mock/token", tag: "Control (mock only)", summary: "A token without the grant (not on the platform)",
			body: jsonBody(loose(obj(Schema{"userId": integer}))), bodyOptional: true, answers: ok("200", "The token.", ref("MockToken"))},
		c("GET", "/mock/clock", "The mock's time", nil, ok("200", "Now.", ref("Clock"))),
		c("POST", "/mock/clock/advance", "Move the clock and run what falls due", obj(Schema{"seconds": Schema{"type": "number",
			"description": "How far to move the clock, in seconds (a fraction allowed)."}}),
			ok("200", "Now.", ref("Clock"))),
		journal(c("GET", "/mock/requests", "The last requests", nil, ok("200", "Oldest first.", items("Request"))), false),
		c("GET", "/mock/stats", "What the mock holds", nil, ok("200", "The counts.", ref("Stats"))),
		c("POST", "/mock/reset", "Drop everything", nil, Schema{"204": answer("Reset.", nil)}),
		{method: "POST", path: cf + "/signers/{signerId}/{action}", tag: "Control (mock only)",
			summary: "A signer's action (sign, reject, open, …); a reject may give a reason", bodyOptional: true,
			pathParams: signerActionParams(),
			body: jsonBody(loose(obj(Schema{"reason": Schema{"type": "string", "maxLength": signing.MaxReasonChars,
				"description": "Only with reject: the signer's rejectReason"}}))), answers: caseFile},
		c("POST", cf+"/shared-folder", "Put a case file in the shared folder or take it out",
			loose(obj(Schema{"shared": boolean})), caseFile),
		c("POST", cf+"/expiry", "Set when a case file expires", loose(obj(Schema{"expireAt": Schema{"type": "string", "format": "date-time",
			"description": "RFC 3339, in the future."}})), caseFile),
		c("POST", cf+"/anonymize", "Anonymize a finished case file", nil, caseFile),
		{method: "POST", path: cf + "/fail", tag: "Control (mock only)",
			summary:      "Fail a case file that is not final: status 6, sign.casefile.failed, the reason in its errors",
			bodyOptional: true, body: jsonBody(loose(obj(Schema{"reason": Schema{"type": "string", "maxLength": signing.MaxReasonChars,
				"description": "Why it failed; empty or absent: a default reason"}}))), answers: caseFile},
		journal(c("GET", "/mock/emails", "The outbox", nil, ok("200", "Oldest first.", items("Email"))), false),
		journal(c("GET", "/mock/events", "The event log", nil, ok("200", "Oldest first.", items("Event"))), true,
			param{"customerId", count, "Only this customer's events; empty or 0: every customer's."},
			param{"after", count, "Only the events after this sequence number (the seq of the last event read); " +
				"empty or 0: from the oldest the log keeps."}),
		journal(c("GET", "/mock/deliveries", "Every webhook delivery attempt",
			nil, ok("200", "In the order the attempts started, oldest first; an attempt that newer ones pushed out of the journal while it was in flight comes back, complete, as the newest.", items("Delivery"))), true,
			param{"subscriptionId", str, "Only the attempts to this subscription."},
			param{"eventId", str, "Only the attempts of this event (its X-Event-Id)."},
			param{"eventType", ref("EventType"),
				"Only the attempts of this event type, as X-Event-Type names it."}),
		{method: "POST", path: "/mock/deliveries/replay", tag: "Control (mock only)",
			summary: "Deliver an event to a subscription again, from the start (the dashboard's Replay, for code)",
			body: jsonBody(Schema{"type": "object", "required": []string{"subscriptionId", "eventId"},
				"properties": Schema{"subscriptionId": Schema{"type": "string", "minLength": 1}, "eventId": eventIDDesc}}),
			answers: Schema{"202": answer("A new series of attempts of the same body with the same X-Event-Id is under way, "+
				"numbered from 1 (GET /mock/deliveries lists them, marked replay).", jsonBody(obj(Schema{"subscriptionId": str, "eventId": str}))),
				"400": answer("The body is not one JSON object, or an id is not a string.", jsonBody(ref("Error"))),
				"422": answer("An id is missing or empty: the platform's error body, its details naming each.", jsonBody(ref("Error"))),
				"404": answer("The deliveries journal holds no delivery of that event to that subscription.", jsonBody(ref("Error"))),
				"409": answer("The subscription is gone, inactive or no longer lists the event's type.", jsonBody(ref("Error"))),
				"415": answer("The body is not sent as Content-Type: application/json.", jsonBody(ref("Error")))}},
		c("GET", "/mock/faults", "The injected faults", nil, ok("200", "The faults.", items("Fault"))),
		c("POST", "/mock/faults", "Inject a fault", ref("FaultSpec"), ok("201", "The fault.", ref("Fault"))),
		c("DELETE", "/mock/faults", "Clear the faults", nil, Schema{"204": answer("Cleared.", nil)}),
		c("GET", "/mock/openapi.json", "This description", nil, ok("200", "OpenAPI "+Version+".",
			Schema{"type": "object", "additionalProperties": true, "description": "An OpenAPI " + Version + " document."})),
	}
}

// signerActionParams are the wildcards of the control API's signer action
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func signerActionParams() []param {
	id := Schema{"type": "integer", "format": "int64", "minimum": 1}
	return []param{
		{"casefileId", id, "The case file's id."},
		{"signerId", id, "The signer's id: signers[].id of the case file, not the signing request's id " +
			"(signers[].signingRequest.id). The mock gives a signer's signing request the signer's own id, so " +
			"the two are equal there and a wrong choice does not show; the case file's details give them as two fields, " +
			"and code should not rely on their being equal."},
		{"action", Schema{"type": "string", "enum": signing.SignerActions()},
			"What the signer does: request-opened (opened the request email), open (opened the signing page), sign, " +
				"reject, bounce (the request email bounced temporarily), undeliverable (emails cannot reach the signer), " +
				"delete (removed before their round)."},
	}
}

// eventIDDesc is an event's id as a replay takes it.
var eventIDDesc = Schema{"type": "string", "minLength": 1, "description": "The event's id: the X-Event-Id of its deliveries, " +
	"eventId in GET /mock/deliveries."}

// withForm gives a dashboard form its fields, all strings.
func withForm(op operation, fields Schema) operation {
	op.body = urlEncoded(fields)
	return op
}

// count is a query parameter's non-negative integer.
var count = Schema{"type": "integer", "format": "int64", "minimum": 0}

// journal gives a journal's route its query parameters and the answer (400) to
// a parameter the route does not take and, when a value can be malformed, to
// one that does not parse: the journals refuse both rather than list everything
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#journals).
func journal(op operation, values bool, query ...param) operation {
	op.query = query
	msg := "A query parameter the route does not take: the platform's error body, its details naming each such parameter."
	if values {
		msg = "A query parameter the route does not take, or a value that does not parse or is not allowed: " +
			"the platform's error body, its details naming each such parameter."
	}
	op.answers["400"] = answer(msg, jsonBody(ref("Error")))
	return op
}

func dashboard() []operation {
	page := Schema{"200": answer("The page.", html)}
	back := Schema{"303": answer("Back to the page, with a note.", nil)}
	d := func(method, path, summary string, answers Schema) operation {
		op := operation{method: method, path: path, tag: "Dashboard (mock only)", summary: summary, answers: answers, htmlErrors: true}
		if method == "POST" {
			op.body = urlEncoded(Schema{})
			op.bodyOptional = true
		}
		return op
	}
	return []operation{
		d("GET", "/mock/ui", "The dashboard: the inbox", page),
		d("GET", "/mock/ui/emails", "The inbox", page),
		d("GET", "/mock/ui/casefiles", "Case files and their signers", page),
		d("POST", "/mock/ui/casefiles/{id}/signers/{signerId}/{action}", "A signer's action", back),
		withForm(d("POST", "/mock/ui/casefiles/{id}/signers/{signerId}/request/email", "Change a signer's email", back),
			Schema{"email": Schema{"type": "string", "description": "The signer's new email address."}}),
		d("POST", "/mock/ui/casefiles/{id}/signers/{signerId}/request/resend", "Send a signer's request email again", back),
		d("GET", "/mock/ui/webhooks", "Subscriptions and delivery attempts", page),
		withForm(d("POST", "/mock/ui/webhooks/replay", "Replay an event", back),
			Schema{"subscriptionId": str, "eventId": eventIDDesc}),
		d("GET", "/mock/ui/clock", "The clock", page),
		withForm(d("POST", "/mock/ui/clock", "Advance the clock", back), Schema{
			"amount": Schema{"type": "string", "description": "How far to move mock time, a positive number (fractions taken) of unit; " +
				"at most 100 years in all."},
			"unit": Schema{"type": "string", "enum": []string{"seconds", "minutes", "hours", "days"}}}),
	}
}
