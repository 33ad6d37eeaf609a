package signing

// APIShapes answers the JSON values the signing service and its control routes
// answer, by the name the OpenAPI description gives them
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description):
// the case file, the outbox, the event log, and the parts of an event's body.
func APIShapes() map[string]any {
	return map[string]any{
		"CaseFile":             CaseFileJSON{},
		"Email":                Email{},
		"Event":                EventJSON{},
		"EventTime":            eventTime{},
		"EventCaseFilePayload": CaseFileRef{},
		"EventSignerPayload":   SignerPayload{},
	}
}

// APIRefinements answers what the description says of the signing
// service's shapes beyond their Go types: shape → property → the schema
// keywords to add. An event log entry's body is an event body (EventBody,
// one schema per event type) and its type an EventType, both made from
// EventShapes; eventTime is written as eventTimeLayout says, always in UTC.
func APIRefinements() map[string]map[string]map[string]any {
	return map[string]map[string]map[string]any{
		"Event": {"eventType": {"$ref": "#/components/schemas/EventType"}, "body": {"$ref": "#/components/schemas/EventBody"}},
		"EventTime": {
			"date":          {"pattern": `^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}$`, "description": "UTC, " + eventTimeLayout + " in Go's notation."},
			"timezone_type": {"enum": []int{3}},
			"timezone":      {"enum": []string{"UTC"}},
		},
		"EventCaseFilePayload": {"status": {"minimum": cfNew, "maximum": cfAnonymized,
			"description": "The case file's status when the event was emitted (0 new … 8 anonymized, docs/platform.md)."}},
	}
}

// EventShape is the body of one event type, as the mock's OpenAPI description
// gives it
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description):
// {"topic","eventType","eventTime","payload"}.
type EventShape struct {
	Type      string // the X-Event-Type, such as sign.casefile.completed
	Topic     string // the body's topic, such as casefile
	EventType string // the body's eventType, such as completed
	// Payload names the component schema of the payload
	// (EventCaseFilePayload, EventSignerPayload), or is empty for a
	// string payload.
	Payload string
	// Status is the case file status a case file event's payload always
	// carries; -1 when it varies.
	Status int
	// Description says when the mock emits it.
	Description string
}

// eventShapes are the event types in the order subscriptions list them
// (the service specification's), each with its body.
var eventShapes = []EventShape{
	caseFileEvent(evCaseFileCompleted, cfCompleted, "Every signer has signed and the signed PDFs are made (status 5)."),
	caseFileEvent(evCaseFileExpired, cfExpired, "A pending case file reached its expireAt (status 7)."),
	caseFileEvent(evCaseFileFailed, cfFailed, "The signed PDFs could not be made, an original not being a readable PDF (status 6)."),
	caseFileEvent(evCaseFileRejected, cfRejected, "A signer rejected (status 2), after sign.signer.rejected."),
	signerEvent(evSignerActivated, "The signer's round started."),
	signerEvent(evSignerRequestSent, "The signing request email went to the signer (a signer with an email)."),
	signerEvent(evSignerReminderSent, "A reminder email went to the signer, every reminderInterval days."),
	signerEvent(evSignerReqOpened, "The signer opened the request email (the control API's request-opened)."),
	signerEvent(evSignerUndeliver, "Emails cannot reach the signer (the control API's undeliverable)."),
	signerEvent(evSignerOpened, "The signer opened the signing page."),
	signerEvent(evSignerRejected, "The signer rejected; sign.casefile.rejected follows."),
	signerEvent(evSignerSigned, "The signer signed."),
	signerEvent(evSignerSignedWithNAP, "The platform's signing with an uploaded image and NAP: the simulation never emits it; "+
		"`signkit-mock trigger` sends a sample."),
	signerEvent(evSignerFinalized, "The case file completed: once per signer who signed, after sign.casefile.completed (status 5)."),
	signerEvent(evSignerDeleted, "The signer was removed (the control API's delete)."),
	signerEvent(evSignerBounce, "The request email bounced temporarily (the control API's bounce)."),
	{Type: evSubscriptionTest, Topic: "subscription", EventType: "test", Status: -1,
		Description: "POST /webhook/api/v1/subscriptions/test: the payload is a sentence, no case file."},
}

func caseFileEvent(typ string, status int, desc string) EventShape {
	topic, short := topicAndType(typ)
	return EventShape{Type: typ, Topic: topic, EventType: short, Payload: "EventCaseFilePayload", Status: status, Description: desc}
}

func signerEvent(typ, desc string) EventShape {
	topic, short := topicAndType(typ)
	return EventShape{Type: typ, Topic: topic, EventType: short, Payload: "EventSignerPayload", Status: -1, Description: desc}
}

// EventShapes answers every event type's body, in the order subscriptions
// list the types.
func EventShapes() []EventShape {
	out := make([]EventShape, len(eventShapes))
	copy(out, eventShapes)
	return out
}
