package apidoc

// handMade answers the component schemas of answers the handlers build
// from maps rather than types.
func handMade() map[string]any {
	details := Schema{"type": "array", "items": obj(Schema{"field": str, "message": str})}
	return map[string]any{
		"Error": Schema{"type": "object", "required": []string{"statusCode", "error", "message"},
			"description": "The platform's error body; OAuth errors of the token endpoint add error_description.",
			"properties": Schema{"statusCode": integer, "error": str, "message": str, "details": details,
				"error_description": str}, "additionalProperties": false},
		"Token": obj(Schema{"access_token": str, "token_type": str, "expires_in": expiresIn, "access_token_expires_at": expiresAt}),
		"MockToken": obj(Schema{"access_token": str, "token_type": str, "expires_in": expiresIn,
			"access_token_expires_at": expiresAt, "mock_only": str}),
		"PrefillLink": obj(Schema{"requestUrl": str, "requestId": str}),
		"SubmissionPage": obj(Schema{"items": Schema{"type": "array", "items": ref("Submission")},
			"limit": integer, "offset": integer, "total": integer}),
		"Submitted": obj(Schema{"submissionId": integer, "casefileId": integer}),
		"SendJob": obj(Schema{"uuid": str, "payloadHash": str, "status": str, "message": str,
			"jobs": Schema{"type": "array", "items": obj(Schema{"uuid": str, "payloadHash": str,
				"createdAt": Schema{"type": "string", "format": "date-time"}})}}),
		"JobNotFound":     obj(Schema{"message": str, "statusCode": integer}),
		"DocumentContent": obj(Schema{"content": Schema{"type": "string", "format": "byte"}, "signed": boolean}),
		"Clock":           obj(Schema{"now": Schema{"type": "string", "format": "date-time"}}),
	}
}

// The token's lifetime and end, with their units.
var (
	expiresIn = Schema{"type": "integer", "description": "Seconds the token is valid for, from now."}
	expiresAt = Schema{"type": "integer", "description": "Integer unix seconds: when the token expires."}
)
