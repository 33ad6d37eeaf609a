package send

// APIShapes answers the JSON values the Send service answers and reads, by
// the name the OpenAPI description gives them (docs/mockserver.md,
// "OpenAPI description").
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
