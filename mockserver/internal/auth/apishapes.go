package auth

// APIShapes answers the JSON values of the control API's users, by the name the
// OpenAPI description gives them
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func APIShapes() map[string]any {
	return map[string]any{
		"Identity":     Identity{},
		"UserSpec":     Spec{},
		"TokenRequest": tokenRequest{},
	}
}
