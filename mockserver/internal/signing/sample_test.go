package signing

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

func TestSampleEventOfEveryType(t *testing.T) {
	at := time.Date(2026, 11, 25, 8, 30, 0, 123456000, time.UTC)
	for _, typ := range webhooks.EventTypes() {
		b, err := SampleEvent(typ, at)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		var body struct {
			Topic, EventType string
			EventTime        struct{ Date string }
			Payload          json.RawMessage
		}
		if err := json.Unmarshal(b, &body); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		parts := strings.Split(typ, ".")
		if body.Topic != parts[1] || body.EventType != parts[2] || body.EventTime.Date != "2026-11-25 08:30:00.123456" || len(body.Payload) == 0 {
			t.Errorf("%s: body %s", typ, b)
		}
	}
	if _, err := SampleEvent("sign.casefile.archived", at); err == nil {
		t.Error("an unknown type has a sample")
	}
}
