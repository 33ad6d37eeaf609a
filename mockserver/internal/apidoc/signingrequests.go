package apidoc

// signingRequests describes the signing request routes of the signing service
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-requests--signapiv1signingrequestsid),
// in the order of routes.go.
func signingRequests() []operation {
	const sr = "/api/v1/signingrequests/{id}"
	return []operation{
		{method: "PUT", path: sr, tag: "Signing",
			summary: "Change a signer's signing request: only the fields given change; an email change clears undeliverable",
			auth:    true, body: jsonBody(ref("SigningRequestUpdate")),
			answers: ok("200", "The signing request, after the change.", ref("SigningRequest"))},
		{method: "PATCH", path: sr + "/send", tag: "Signing", summary: "Send the signing request email again",
			auth: true, answers: Schema{"204": answer("Sent.", nil)}},
		{method: "GET", path: sr + "/link", tag: "Signing", summary: "The signer's signing link, as the first item of an array",
			auth: true, answers: ok("200", "The link.", Schema{"type": "array", "minItems": 1, "items": str})},
	}
}
