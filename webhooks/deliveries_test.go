package webhooks_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks"
)

// deliveryFixture is what a fixture under testdata/deliveries says, decoded
// with encoding/json independently of the package's own decoder.
type deliveryFixture struct {
	Topic     string `json:"topic"`
	EventType string `json:"eventType"`
	EventTime struct {
		Date     string `json:"date"`
		Timezone string `json:"timezone"`
	} `json:"eventTime"`
	Payload json.RawMessage `json:"payload"`
}

// TestVerifyEveryEventType verifies one delivery of each of the 17 event types,
// written in the shapes the platform documents
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#delivery-to-the-integrator),
// and checks every field an Event carries against an independent decoding of
// the same body.
func TestVerifyEveryEventType(t *testing.T) {
	t.Parallel()
	const secret = "fixture-secret"
	now := time.Date(2026, 11, 24, 13, 2, 0, 0, time.UTC)
	for _, et := range webhooks.AllEventTypes() {
		t.Run(string(et), func(t *testing.T) {
			t.Parallel()
			body, err := os.ReadFile(filepath.Join("testdata", "deliveries", string(et)+".json"))
			if err != nil {
				t.Fatalf("every event type needs a fixture: %v", err)
			}
			var fx deliveryFixture
			if err := json.Unmarshal(body, &fx); err != nil {
				t.Fatal(err)
			}
			if fx.Topic != et.Topic() {
				t.Fatalf("fixture topic %q, want %q", fx.Topic, et.Topic())
			}
			v, err := webhooks.NewVerifier(secret, webhooks.WithClock(func() time.Time { return now }))
			if err != nil {
				t.Fatal(err)
			}
			h := http.Header{}
			h.Set("Content-Type", "application/json")
			h.Set(webhooks.EventIDHeader, uid(string(et)))
			h.Set(webhooks.EventTypeHeader, string(et))
			h.Set(webhooks.SignatureHeader, webhooks.Sign(secret, now, h, body))
			ev, err := v.Verify(t.Context(), h, body)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			wantTime, err := time.Parse("2006-01-02 15:04:05.999999", fx.EventTime.Date)
			if err != nil {
				t.Fatal(err)
			}
			if ev.ID != uid(string(et)) || ev.Type != et || ev.Topic != fx.Topic || ev.EventType != fx.EventType ||
				!ev.Time.Equal(wantTime) || ev.Time.Location().String() != fx.EventTime.Timezone {
				t.Fatalf("event %+v, fixture %+v", ev, fx)
			}
			checkPayload(t, ev, fx)
		})
	}
}

// checkPayload compares the Event's payload fields with the fixture's.
func checkPayload(t *testing.T, ev *webhooks.Event, fx deliveryFixture) {
	t.Helper()
	switch fx.Topic {
	case webhooks.TopicCaseFile:
		var p webhooks.CaseFileRef
		if err := json.Unmarshal(fx.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if ev.CaseFile == nil || *ev.CaseFile != p || ev.Signer != nil || p.ID == 0 {
			t.Fatalf("case file %+v signer %+v, want %+v", ev.CaseFile, ev.Signer, p)
		}
	case webhooks.TopicSigner:
		var p struct {
			ID       int64                `json:"id"`
			CaseFile webhooks.CaseFileRef `json:"caseFile"`
		}
		if err := json.Unmarshal(fx.Payload, &p); err != nil {
			t.Fatal(err)
		}
		if ev.Signer == nil || ev.Signer.ID != p.ID || ev.CaseFile == nil || *ev.CaseFile != p.CaseFile || p.ID == 0 {
			t.Fatalf("signer %+v case file %+v, want %+v", ev.Signer, ev.CaseFile, p)
		}
	case webhooks.TopicSubscription:
		var msg string
		if err := json.Unmarshal(fx.Payload, &msg); err != nil {
			t.Fatal(err)
		}
		if ev.Message != msg || msg == "" || ev.CaseFile != nil || ev.Signer != nil {
			t.Fatalf("message %q, want %q", ev.Message, msg)
		}
	default:
		t.Fatalf("fixture with unknown topic %q", fx.Topic)
	}
}
