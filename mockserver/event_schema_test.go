package mockserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver/internal/apidoc"
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
	if st, b := call(t, s, http.MethodGet, "/mock/events", "", nil, &log); st != http.StatusOK {
		t.Fatalf("GET /mock/events: %d %s", st, b)
	}
	for _, ev := range log.Items {
		check("event log", ev.EventType, ev.Body)
	}
	// The simulation never emits signedWithImageUploadAndNAP; the description
	// test checks its sample (apidoc.TestEveryEventTypeHasItsBodySchema).
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
// type it emits, delivered to a receiver subscribed to every type, and
// answers both once every delivery is in.
func emitEveryEvent(t *testing.T) (*Server, *receiver) {
	t.Helper()
	s, tok, pdf := sndServer(t)
	rc := newReceiver(t, http.StatusNoContent)
	whSubscribe(t, s, tok, rc.URL(), webhooks.EventTypes()...)
	act := func(cf int64, signer, action string) {
		t.Helper()
		if err := s.SignerAction(cf, sndSignerID(t, s, cf, signer), action); err != nil {
			t.Fatalf("%s of %s: %v", action, signer, err)
		}
	}
	// Every email event, then signing: completed and finalized.
	a, _ := sndRun(t, s, tok, sndCase("Ann:ann@example.com"), pdf)
	for _, action := range []string{ActionRequestOpened, ActionOpen, ActionBounce, ActionUndeliverable, ActionSign} {
		act(a, "Ann", action)
	}
	// A signer deleted before their round, then a rejection.
	b, _ := sndRun(t, s, tok, sndCase("Ann:ann@example.com", "Bob:bob@example.com:1"), pdf)
	act(b, "Bob", ActionDelete)
	act(b, "Ann", ActionReject)
	// A reminder, then expiry.
	c := sndCase("Cy:cy@example.com")
	c["signers"].([]any)[0].(map[string]any)["reminderInterval"] = 1
	c["expireAt"] = s.Now().Add(36 * time.Hour).UTC().Format(time.RFC3339)
	sndRun(t, s, tok, c, pdf)
	s.Advance(48 * time.Hour)
	tok = login(t, s, s.DefaultCredentials()) // the first one has expired
	// An original that is not a readable PDF: the signed PDFs cannot be made.
	d, _ := sndRun(t, s, tok, sndCase("Dee:dee@example.com"), sndFile("doc.pdf", []byte("%PDF-1.4 and nothing else")))
	act(d, "Dee", ActionSign)
	whTestEvent(t, s, tok)
	s.Advance(0)
	return s, rc
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// loadDescription fetches GET /mock/openapi.json and loads it.
func loadDescription(t *testing.T, s *Server) *openapi3.T {
	t.Helper()
	st, raw := call(t, s, http.MethodGet, "/mock/openapi.json", "", nil, nil)
	if st != http.StatusOK {
		t.Fatalf("GET /mock/openapi.json: %d", st)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
