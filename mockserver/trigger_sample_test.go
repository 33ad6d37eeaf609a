package mockserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// TestTriggerSamplesEqualTheSimulation sends, with TriggerEvent (what
// `signkit-mock trigger` does), a sample of every event type, and compares
// each with every delivery of that type that the simulation made when
// driven through every event it emits (testkit.EmitEveryEvent): the same members
// at every level, the same JSON types, and the same fixed values (topic,
// eventType, statuses, the time zone, the test event's message). Only ids
// and eventTime.date may differ. The platform's
// sign.signer.signedWithImageUploadAndNAP, which the simulation never
// emits, must look as sign.signer.signed does.
func TestTriggerSamplesEqualTheSimulation(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	sim := testkit.EmitEveryEvent(t, s, testkit.Credentials(s.DefaultCredentials()))
	emitted := map[string][]string{} // type -> skeleton of each delivery
	for _, r := range sim.Requests() {
		typ := r.Header.Get("X-Event-Type")
		emitted[typ] = append(emitted[typ], eventSkeleton(t, r.Body))
	}

	trig := newReceiver(t, http.StatusNoContent)
	samples := map[string]string{}
	for _, typ := range EventTypes() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := TriggerEvent(ctx, nil, trig.URL(), "whsec-sample", typ)
		cancel()
		if err != nil {
			t.Fatalf("trigger %s: %v", typ, err)
		}
		resp.Body.Close()
		reqs := trig.Requests()
		got := reqs[len(reqs)-1]
		if h := got.Header.Get("X-Event-Type"); h != typ {
			t.Fatalf("trigger %s delivered X-Event-Type %q", typ, h)
		}
		samples[typ] = eventSkeleton(t, got.Body)
	}

	const nap, signed = "sign.signer.signedWithImageUploadAndNAP", "sign.signer.signed"
	for _, typ := range EventTypes() {
		if typ == nap {
			continue
		}
		if len(emitted[typ]) == 0 {
			t.Errorf("the simulation emitted no %s: testkit.EmitEveryEvent misses it", typ)
		}
		for i, sk := range emitted[typ] {
			if sk != samples[typ] {
				t.Errorf("%s: the sample differs from the simulation's delivery %d\nsample:     %s\nsimulation: %s",
					typ, i+1, samples[typ], sk)
			}
		}
	}
	if want := regexp.MustCompile(`"eventType":"signed"`).ReplaceAllString(samples[signed],
		`"eventType":"signedWithImageUploadAndNAP"`); samples[nap] != want {
		t.Errorf("%s sample %s, want the shape of %s: %s", nap, samples[nap], signed, want)
	}
}

// eventDate is eventTime.date's layout in an event body.
var eventDate = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$`)

// eventSkeleton answers an event body in canonical JSON with every member
// "id" (at any depth) replaced by its JSON type and eventTime.date, once
// checked against its layout, by "<date>": what is left is the shape and
// the fixed values.
func eventSkeleton(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("event body %s: %v", body, err)
	}
	var walk func(v any) any
	walk = func(v any) any {
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := map[string]any{}
		for k, x := range m {
			out[k] = walk(x)
			if k == "id" {
				out[k] = fmt.Sprintf("<%T>", x)
			}
		}
		return out
	}
	sk := walk(v).(map[string]any)
	if et, ok := sk["eventTime"].(map[string]any); ok {
		if d, _ := et["date"].(string); !eventDate.MatchString(d) {
			t.Errorf("eventTime.date %q in %s", d, body)
		}
		et["date"] = "<date>"
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sk); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(b.String())
}
