package openapi_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/apidoc"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// TestDeliveredEventsMatchTheirSchemas drives the simulation through every
// event type it emits and checks each body a receiver got, and each entry of
// GET /mock/events, against the schema the OpenAPI description gives that type
// (and against EventBody): a payload that changes shape for one type, or an
// event type without its schema, fails here
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func TestDeliveredEventsMatchTheirSchemas(t *testing.T) {
	t.Parallel()
	s, rc := emitEveryEvent(t)

	doc := loadDescription(t, s)
	union := doc.Components.Schemas["EventBody"].Value
	check := func(where, typ string, body []byte) {
		t.Helper()
		leaf := doc.Components.Schemas[apidoc.EventSchemaName(typ)]
		if leaf == nil {
			t.Errorf("%s: %s has no schema", where, typ)
			return
		}
		var v any
		if err := json.Unmarshal(body, &v); err != nil {
			t.Fatalf("%s: %s: %v", where, body, err)
		}
		if err := leaf.Value.VisitJSON(v); err != nil {
			t.Errorf("%s: %s fails the schema of %s: %v", where, body, typ, err)
		}
		if err := union.VisitJSON(v); err != nil {
			t.Errorf("%s: %s fails EventBody: %v", where, body, err)
		}
	}
	var delivered []string
	for _, r := range rc.Requests() {
		typ := r.Header.Get("X-Event-Type")
		check("delivery", typ, r.Body)
		delivered = append(delivered, typ)
	}
	var log struct {
		Items []struct {
			EventType string          `json:"eventType"`
			Body      json.RawMessage `json:"body"`
		} `json:"items"`
	}
	if st, b := testkit.Call(t, s, http.MethodGet, "/mock/events", "", nil, &log); st != http.StatusOK {
		t.Fatalf("GET /mock/events: %d %s", st, b)
	}
	for _, ev := range log.Items {
		check("event log", ev.EventType, ev.Body)
	}
	// The simulation never emits signedWithImageUploadAndNAP; the description
	// test checks its sample (TestEveryEventTypeHasItsBodySchema).
	want := slices.DeleteFunc(webhooks.EventTypes(), func(typ string) bool { return typ == "sign.signer.signedWithImageUploadAndNAP" })
	slices.Sort(delivered)
	if delivered = slices.Compact(delivered); !slices.Equal(delivered, sorted(want)) {
		t.Errorf("delivered types %v, want %v", delivered, sorted(want))
	}
	if len(log.Items) != len(rc.Requests()) {
		t.Errorf("%d events in the log, %d delivered", len(log.Items), len(rc.Requests()))
	}
}

// emitEveryEvent drives a fresh server's simulation through every event
// type it emits (testkit.EmitEveryEvent) and answers it with the receiver.
func emitEveryEvent(t *testing.T) (*mockserver.Server, *testkit.Receiver) {
	t.Helper()
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	return s, testkit.EmitEveryEvent(t, s, testkit.Credentials(s.DefaultCredentials()))
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// loadDescription fetches GET /mock/openapi.json and loads it.
func loadDescription(t *testing.T, s *mockserver.Server) *openapi3.T {
	t.Helper()
	st, raw := testkit.Call(t, s, http.MethodGet, "/mock/openapi.json", "", nil, nil)
	if st != http.StatusOK {
		t.Fatalf("GET /mock/openapi.json: %d", st)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
