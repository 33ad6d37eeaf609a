package apidoc

import (
	"fmt"
	"strings"
)

// The bodies of webhook events
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#delivery-to-the-integrator):
// {"topic","eventType","eventTime","payload"}, one component schema per event
// type (EventSignCaseFileCompleted, …), grouped by topic under EventBody. The
// body's eventType alone does not tell the type (casefile and signer both have
// rejected): topic does, then eventType, so EventBody is a oneOf discriminated
// by topic, and a topic with several types is a oneOf of its own discriminated
// by eventType (EventCaseFile, EventSigner). The event log (GET /mock/events)
// answers bodies of EventBody, and the deliveries are described as a callback
// of the subscription routes: OpenAPI 3.0 has no webhooks object, and a
// callback is where 3.0 puts requests the server makes to a URL the client
// gave.

// deliveryCallback is the name of the delivery callback's component.
const deliveryCallback = "EventDelivery"

// eventSchemas adds the event bodies' component schemas to schemas, and
// EventType, the enum of the types in the order of events.
func eventSchemas(schemas map[string]any, events []Event) error {
	if len(events) == 0 {
		return fmt.Errorf("apidoc: no event types")
	}
	var types []string
	byTopic := map[string][]Event{}
	var topics []string
	for _, ev := range events {
		if _, seen := byTopic[ev.Topic]; !seen {
			topics = append(topics, ev.Topic)
		}
		byTopic[ev.Topic] = append(byTopic[ev.Topic], ev)
		types = append(types, ev.Type)
		name := EventSchemaName(ev.Type)
		if _, dup := schemas[name]; dup {
			return fmt.Errorf("apidoc: event type %s: schema %s is given twice", ev.Type, name)
		}
		schemas[name] = eventBody(ev)
	}
	var union []Schema
	mapping := Schema{}
	for _, topic := range topics {
		evs := byTopic[topic]
		name := EventSchemaName(evs[0].Type)
		if len(evs) > 1 {
			name = "Event" + pascal(topic)
			if _, dup := schemas[name]; dup {
				return fmt.Errorf("apidoc: topic %s: schema %s is given twice", topic, name)
			}
			var members []Schema
			byType := Schema{}
			for _, ev := range evs {
				if _, dup := byType[ev.EventType]; dup {
					return fmt.Errorf("apidoc: topic %s has eventType %s twice", topic, ev.EventType)
				}
				members = append(members, ref(EventSchemaName(ev.Type)))
				byType[ev.EventType] = "#/components/schemas/" + EventSchemaName(ev.Type)
			}
			// An object schema, its topic fixed, beside the oneOf: a
			// mapping of EventBody's discriminator must name an object
			// schema (or an allOf), which a bare oneOf is not to
			// generators (openapi-typescript refuses it).
			schemas[name] = Schema{"type": "object", "required": []string{"topic", "eventType"},
				"properties": Schema{"topic": Schema{"type": "string", "enum": []string{topic}}},
				"oneOf":      members, "discriminator": Schema{"propertyName": "eventType", "mapping": byType},
				"description": "The body of an event of topic " + topic + ", told apart by eventType."}
		}
		union = append(union, ref(name))
		mapping[topic] = "#/components/schemas/" + name
	}
	schemas["EventType"] = Schema{"type": "string", "enum": types,
		"description": "An event type, as X-Event-Type names it and subscriptions list it."}
	schemas["EventBody"] = Schema{"oneOf": union, "discriminator": Schema{"propertyName": "topic", "mapping": mapping},
		"description": "The JSON body of an event, as the event log lists it and a delivery posts it: " +
			"{topic, eventType, eventTime, payload}. topic, then eventType, tell the type (X-Event-Type is " +
			"sign.<topic>.<eventType>, webhook.subscription.test for the test event); each type has a schema of its own."}
	return nil
}

// eventBody answers the schema of one event type's body.
func eventBody(ev Event) Schema {
	payload := Schema{"type": "string"}
	switch {
	case ev.Payload != "" && ev.Status >= 0:
		payload = Schema{"allOf": []Schema{ref(ev.Payload),
			{"type": "object", "properties": Schema{"status": Schema{"type": "integer", "enum": []int{ev.Status}}}}}}
	case ev.Payload != "":
		payload = ref(ev.Payload)
	}
	return Schema{"type": "object", "additionalProperties": false,
		"required":     []string{"topic", "eventType", "eventTime", "payload"},
		"description":  ev.Type + ": " + ev.Description,
		"x-event-type": ev.Type,
		"properties": Schema{
			"topic":     Schema{"type": "string", "enum": []string{ev.Topic}},
			"eventType": Schema{"type": "string", "enum": []string{ev.EventType}},
			"eventTime": ref("EventTime"),
			"payload":   payload,
		}}
}

// EventSchemaName answers the component schema of an event type's body:
// sign.casefile.completed → EventSignCaseFileCompleted.
func EventSchemaName(typ string) string {
	var b strings.Builder
	b.WriteString("Event")
	for part := range strings.SplitSeq(typ, ".") {
		b.WriteString(pascal(part))
	}
	return b.String()
}

// pascal capitalizes a part of an event type; casefile is two words.
func pascal(part string) string {
	if part == "casefile" {
		return "CaseFile"
	}
	if part == "" {
		return ""
	}
	return strings.ToUpper(part[:1]) + part[1:]
}

// eventDelivery is the callback of the subscription routes: the POST of
// each event to the endpoint the subscription names.
func eventDelivery() Schema {
	header := func(name, desc string, s Schema) Schema {
		return Schema{"name": name, "in": "header", "required": true, "description": desc, "schema": s}
	}
	post := Schema{
		"operationId": "deliverEvent",
		"summary":     "An event, posted to the subscription's endpoint",
		"description": "Each event of a type the subscription lists is posted to its endpoint, signed. An answer " +
			"other than 2xx, a redirect, no connection within 200 ms or no complete answer within 1 s fails the " +
			"attempt; retries follow 5, 10, 15, 20 and 25 s later, then 30 times an hour apart, and after the 36th " +
			"failed attempt the subscription is disabled. GET /mock/deliveries lists every attempt, pending before " +
			"its request leaves.",
		"tags":     []string{"Webhooks"},
		"security": []Schema{},
		"parameters": []Schema{
			header("X-Event-Id", "The event's id, the same on every attempt of it to this subscription (a UUID).",
				Schema{"type": "string"}),
			header("X-Event-Type", "The event type; the body's topic and eventType name it too.", ref("EventType")),
			header("X-Event-Signature", "t=<unix time of the attempt>,h=content-type x-event-id x-event-type,"+
				"v1=<hex HMAC-SHA256 with the subscription's secret of t \".\" h \".\" the values of those headers "+
				"joined by \".\" \".\" the raw body> (docs/platform.md, \"Delivery to the integrator\").",
				Schema{"type": "string", "pattern": `^t=[0-9]+,h=content-type x-event-id x-event-type,v1=[0-9a-f]{64}$`}),
		},
		"requestBody": Schema{"required": true, "content": jsonBody(ref("EventBody"))},
		"responses": Schema{
			"2XX":     answer("Acknowledged: the attempt is delivered.", nil),
			"default": answer("Any other answer: the attempt failed, and is retried.", nil),
		},
	}
	return Schema{"{$request.body#/endpoint}": Schema{"post": post}}
}

// callbacks is the callbacks object of the subscription routes.
func callbacks() Schema {
	return Schema{"event": Schema{"$ref": "#/components/callbacks/" + deliveryCallback}}
}
