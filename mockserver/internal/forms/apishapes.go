package forms

// APIShapes answers the JSON values the forms service answers and reads, by the
// name the OpenAPI description gives them
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description):
// the description reads their types.
func APIShapes() map[string]any {
	return map[string]any{
		"Form":           formJSON{},
		"FormDefinition": formJSON{},
		"Answers":        answersJSON{},
		"Submission":     submissionJSON{},
		"UploadedFile":   fileJSON{},
		"PrefillV1":      prefillV1{},
		"PrefillV2":      prefillV2{},
		// Named types whose schema says more than their Go type: every
		// shape that holds one refers to its component.
		"FieldType":             fieldType(""),
		"MapTarget":             mapTarget(""),
		"CaseFileTitleTemplate": titleTemplate(""),
	}
}

// titleTemplatePattern matches the caseFileTitleTemplate values that
// validateForm accepts: text in which every {{...}} that a }} closes holds
// one of titleMergeFields, spaces around it allowed (an unclosed {{ is
// text). It is a regular expression that ECMA-262 and Go's RE2 read alike
// (no lookaround), since the description's readers use either.
const titleTemplatePattern = `^(?:[^{]|\{[^{]|\{\{[\t\n\v\f\r ]*(?:formName|primarySigner\.name|primarySigner\.email)[\t\n\v\f\r ]*\}\})*` +
	`(?:\{|\{\{(?:[^}]|\}[^}])*\}?)?$`

// OpenAPISchema describes a field's type, for the mock's OpenAPI description:
// an open string (the vendor's form builder has types the platform does not
// publish,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1)
// whose description lists the known ones.
func (fieldType) OpenAPISchema() map[string]any {
	return map[string]any{"type": "string", "minLength": 1,
		"description": "The known types: TEXT, EMAIL, PHONE, NUMBER, DATE, CHOICE (with options), HTML (content " +
			"shown, with {{field}} merge fields; takes no answer), FILE (an upload). Any other type (the vendor's form builder has more, such as a personal id or a business id, whose API " +
			"names are not published) is stored and given back as sent, shown on the public page as a text input and " +
			"answered as text."}
}

// OpenAPISchema lists the mapTo targets, for the mock's OpenAPI description.
func (mapTarget) OpenAPISchema() map[string]any {
	return map[string]any{"type": "string", "enum": mapTargets,
		"description": "Makes the field's answer the primary signer's name, or email (an EMAIL field), of the case file " +
			"a submission creates; at most one field per target. Left out: none."}
}

// OpenAPISchema gives the merge fields of a title template, for the mock's
// OpenAPI description.
func (titleTemplate) OpenAPISchema() map[string]any {
	return map[string]any{"type": "string", "pattern": titleTemplatePattern,
		"description": "The title of the case file a submission creates. Each {{...}} is a merge field: " +
			"{{formName}} (the form's name), {{primarySigner.name}} or {{primarySigner.email}} (the answers of the " +
			"fields mapped to them); spaces inside the braces are allowed, any other name is refused (422). " +
			"Empty: {{formName}}."}
}

// APIRefinements answers what the description says of the forms service's
// shapes beyond their Go types: the units of their numbers.
func APIRefinements() map[string]map[string]map[string]any {
	return map[string]map[string]map[string]any{
		"UploadedFile": {"size": {"description": "The file's size in bytes."}},
	}
}
