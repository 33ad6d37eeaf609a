package collect

// APIShapes answers the JSON values the forms service answers and reads,
// by the name the OpenAPI description gives them (docs/mockserver.md,
// "OpenAPI description"): the description reads their types.
func APIShapes() map[string]any {
	return map[string]any{
		"Form":           formJSON{},
		"FormDefinition": formJSON{},
		"Answers":        answersJSON{},
		"Submission":     submissionJSON{},
		"UploadedFile":   fileJSON{},
		"PrefillV1":      prefillV1{},
		"PrefillV2":      prefillV2{},
	}
}
