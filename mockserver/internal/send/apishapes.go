package send

// APIShapes answers the JSON values the Send service answers and reads, by
// the name the OpenAPI description gives them (docs/mockserver.md,
// "OpenAPI description").
func APIShapes() map[string]any {
	return map[string]any{
		"QueueJob":       queueStatusJSON{},
		"SendDefinition": definition{},
	}
}
