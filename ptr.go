package signkit

// Ptr returns a pointer to v, for the optional fields of the SDK's
// requests, whose nil means "leave the platform's default":
//
//	casefiles.Document{Name: "terms.pdf", Title: "Terms", Signable: signkit.Ptr(false)}
//	subscriptions.Request{Endpoint: url, EventTypes: types, IsActive: signkit.Ptr(false)}
func Ptr[T any](v T) *T { return &v }
