package openapi_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver/internal/apidoc"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// TestEveryEventTypeHasItsBodySchema: the description's event types are
// the ones subscriptions take, each has a schema of its body, and the body
// `signkit-mock trigger` sends for a type (signing.SampleEvent, built as
// the simulation builds its events) passes that schema, passes EventBody,
// and fails the schema of every other type. The subscription routes carry
// the delivery callback.
func TestEveryEventTypeHasItsBodySchema(t *testing.T) {
	doc, _ := load(t)
	var enum []string
	for _, v := range doc.Components.Schemas["EventType"].Value.Enum {
		enum = append(enum, v.(string))
	}
	if types := webhooks.EventTypes(); !slices.Equal(enum, types) || len(types) != 17 {
		t.Fatalf("EventType enum %v, want the subscriptions' %d types %v", enum, len(types), types)
	}
	union := doc.Components.Schemas["EventBody"].Value
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, typ := range enum {
		leaf := doc.Components.Schemas[apidoc.EventSchemaName(typ)]
		if leaf == nil || leaf.Value.Extensions["x-event-type"] != typ {
			t.Errorf("%s: no schema %s naming it", typ, apidoc.EventSchemaName(typ))
			continue
		}
		body, err := signing.SampleEvent(typ, at)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatal(err)
		}
		if err := leaf.Value.VisitJSON(v); err != nil {
			t.Errorf("%s: %s fails its schema: %v", typ, body, err)
		}
		if err := union.VisitJSON(v); err != nil {
			t.Errorf("%s: %s fails EventBody: %v", typ, body, err)
		}
		for _, other := range enum {
			if other != typ && doc.Components.Schemas[apidoc.EventSchemaName(other)].Value.VisitJSON(v) == nil {
				t.Errorf("%s: %s passes the schema of %s too", typ, body, other)
			}
		}
	}
	for _, op := range []*openapi3.Operation{doc.Paths.Find("/webhook/api/v1/subscriptions").Post,
		doc.Paths.Find("/webhook/api/v1/subscriptions/{id}").Put} {
		cb := op.Callbacks["event"]
		if cb == nil || cb.Value == nil || cb.Value.Value("{$request.body#/endpoint}") == nil {
			t.Errorf("%s: no delivery callback", op.OperationID)
			continue
		}
		post := cb.Value.Value("{$request.body#/endpoint}").Post
		if post == nil || post.RequestBody.Value.Content.Get("application/json").Schema.Ref != "#/components/schemas/EventBody" {
			t.Errorf("%s: the callback does not post an EventBody", op.OperationID)
		}
	}
}
