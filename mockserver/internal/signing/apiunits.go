package signing

import "slices"

// unixSeconds is the description of a time the signing service writes:
// integer unix seconds, as the platform's case file details give them
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#signing-service--signapi).
const unixSeconds = "Integer unix seconds"

// UnitRefinements answers the units of the numbers the signing service writes
// and reads, for their descriptions in the OpenAPI description: shape →
// property (a dotted path) → keywords
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func UnitRefinements() map[string]map[string]map[string]any {
	desc := func(s string) map[string]any { return map[string]any{"description": s} }
	reminder := desc("Days between reminder emails to the signer while they have not signed; 0: no reminders.")
	return map[string]map[string]map[string]any{
		"CaseFile": {
			"created":   desc(unixSeconds + ": when the case file was created."),
			"updated":   desc(unixSeconds + ": when the case file last changed."),
			"activated": desc(unixSeconds + ": when the case file was sent to its signers; null before."),
			"completed": desc(unixSeconds + ": when the case file completed; null unless it did."),
			"sendAt":    desc(unixSeconds + ": when the case file is to be sent; null: at once."),
			"expireAt":  desc(unixSeconds + ": when the case file expires if not completed; null: never."),

			"signers.signingRequest.activeAt":         desc(unixSeconds + ": when the signing request becomes active; null: with its round."),
			"signers.signingRequest.expireAt":         desc(unixSeconds + ": when the signing request expires; null: with the case file."),
			"signers.signingRequest.reminderInterval": reminder,

			"documents.created":                    desc(unixSeconds + ": when the document was uploaded."),
			"documents.fileSize":                   desc("The original PDF's size in bytes."),
			"documents.signatureLines.activatedAt": desc(unixSeconds + ": when the signature line's round started; null before."),
			"documents.signatureLines.signedAt":    desc(unixSeconds + ": when the signer signed; null before."),
		},
		"SigningRequest": {
			"activeAt":         desc(unixSeconds + ": when the signing request becomes active; null: with its round."),
			"expireAt":         desc(unixSeconds + ": when the signing request expires; null: with the case file."),
			"reminderInterval": reminder,
		},
		"SigningRequestUpdate": {
			"reminderInterval": {"minimum": 1, "description": "Days between reminder emails to the signer (at least 1)."},
		},
	}
}

// SignerActions answers the actions of POST
// /mock/casefiles/{id}/signers/{signerId}/{action}, in the order the
// dashboard offers them: the enum of the description's action wildcard.
func SignerActions() []string { return slices.Clone(signerActions) }
