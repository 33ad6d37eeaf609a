package webhooks

// APIShapes answers the JSON values the webhook service and its control route
// answer and read, by the name the OpenAPI description gives them
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func APIShapes() map[string]any {
	return map[string]any{
		"Subscription":        subscriptionJSON{},
		"SubscriptionRequest": subscriptionRequest{},
		"Delivery":            Delivery{},
	}
}

// APIRefinements answers what the description says of the webhook
// service's shapes beyond their Go types: shape → property → the schema
// keywords to add.
func APIRefinements() map[string]map[string]map[string]any {
	return map[string]map[string]map[string]any{
		"Delivery": {
			"eventType": {"$ref": eventTypeRef},
			"outcome": {"enum": []string{OutcomePending, OutcomeDelivered, OutcomeFailed},
				"description": "pending while the request is on its way (journaled before it leaves), then delivered or failed."},
			"durationMs": {"description": "The real time the attempt took, in milliseconds; 0 while pending."},
		},
		"Subscription":        {"eventTypes": {"items": map[string]any{"$ref": eventTypeRef}}},
		"SubscriptionRequest": {"eventTypes": {"items": map[string]any{"$ref": eventTypeRef}}},
	}
}

// eventTypeRef is the description's enum of the event types, which it
// reads from the signing service's event list; a test checks that it is
// EventTypes.
const eventTypeRef = "#/components/schemas/EventType"
