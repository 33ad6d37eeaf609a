package webhook

// APIShapes answers the JSON values the webhook service and its control
// route answer and read, by the name the OpenAPI description gives them
// (docs/mockserver.md, "OpenAPI description").
func APIShapes() map[string]any {
	return map[string]any{
		"Subscription":        subscriptionJSON{},
		"SubscriptionRequest": subscriptionRequest{},
		"Delivery":            Delivery{},
	}
}
