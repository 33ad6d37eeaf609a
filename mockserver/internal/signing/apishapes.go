package signing

// APIShapes answers the JSON values the signing service and its control
// routes answer, by the name the OpenAPI description gives them
// (docs/mockserver.md, "OpenAPI description").
func APIShapes() map[string]any {
	return map[string]any{
		"CaseFile": CaseFileJSON{},
		"Email":    Email{},
		"Event":    EventJSON{},
	}
}
