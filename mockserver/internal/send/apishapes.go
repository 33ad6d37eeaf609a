package send

// APIShapes answers the JSON values the Send service answers and reads, by the
// name the OpenAPI description gives them
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func APIShapes() map[string]any {
	return map[string]any{
		"QueueJob":       queueStatusJSON{},
		"SendDefinition": definition{},
		// The JSON route's body: the same, each document with its pdf.
		"SendDefinitionBase64": base64Definition{},
	}
}

// base64Definition is the body of the JSON create route, for the
// description only: the reader takes the documents' pdf out as it streams
// (jsonbody.go) and decodes the rest as a definition.
type base64Definition struct {
	CaseFile *base64CaseFile `json:"caseFile"`
}

// base64CaseFile is a CaseFile whose documents carry their content.
type base64CaseFile struct {
	CaseFile
	Documents []base64Document `json:"documents"`
}

// base64Document is a Document with its PDF, base64-encoded.
type base64Document struct {
	Document
	PDF []byte `json:"pdf"`
}

// OpenAPISchema says what a FlexTime reads (apidoc.Describer): integer unix
// seconds, as the platform documents them, or an RFC 3339 string, which the
// mock also takes; null is no time
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
// The mock never writes a FlexTime: the case file's details give the times back
// as integer unix seconds.
func (FlexTime) OpenAPISchema() map[string]any {
	return map[string]any{
		"nullable": true,
		"description": "A time: integer unix seconds (the platform's form), or an RFC 3339 string " +
			"(which the mock also takes); null or absent: none.",
		"oneOf": []map[string]any{
			{"type": "integer", "format": "int64", "minimum": 1, "description": "Unix seconds."},
			{"type": "string", "format": "date-time", "description": "RFC 3339, such as 2026-01-02T15:04:05Z."},
		},
	}
}

// APIRefinements answers what the description says of the Send shapes beyond
// their Go types: shape → property (a dotted path through objects and arrays'
// items) → the schema keywords to add. The units of numbers are in their
// descriptions
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1).
func APIRefinements() map[string]map[string]map[string]any {
	out := map[string]map[string]map[string]any{}
	for _, shape := range []string{"SendDefinition", "SendDefinitionBase64"} {
		out[shape] = map[string]map[string]any{
			"caseFile.sendAt":   {"description": "When the case file is sent to its signers: integer unix seconds, or RFC 3339 (the mock also takes it); null or absent: at once."},
			"caseFile.expireAt": {"description": "When the case file expires if not completed: integer unix seconds, or RFC 3339 (the mock also takes it); after sendAt."},
			"caseFile.signers.activeAt": {"description": "When the signer's signing request becomes active: " +
				"integer unix seconds, or RFC 3339 (the mock also takes it)."},
			"caseFile.signers.expireAt": {"description": "When the signer's signing request expires: " +
				"integer unix seconds, or RFC 3339 (the mock also takes it); after activeAt."},
			"caseFile.signers.reminderInterval": {"minimum": 1,
				"description": "Days between reminder emails to the signer while they have not signed (at least 1)."},
		}
	}
	// The queue status answers the data part as it was sent (on the JSON
	// route without the documents' pdf): its times as the client gave them.
	out["QueueJob"] = map[string]map[string]any{"payload": {"$ref": "#/components/schemas/SendDefinition"}}
	return out
}
