package signing

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// TestEventMessage is the payload of the webhook.subscription.test event.
const TestEventMessage = "This is a test event from the signkit mock server."

// Sample case file and signer ids of SampleEvent's payloads.
const (
	SampleCaseFileID int64 = 1042
	SampleSignerID   int64 = 2087
)

// SampleEvent answers the JSON body of an event of type typ, dated at, as
// the simulation emits it (the same body type and eventTime), about case
// file SampleCaseFileID and signer SampleSignerID, with the case file
// status the event implies. `signkit-mock trigger` sends it. An unknown
// type is an error.
func SampleEvent(typ string, at time.Time) ([]byte, error) {
	var payload any
	switch {
	case typ == evSubscriptionTest:
		payload = TestEventMessage
	case strings.HasPrefix(typ, "sign.casefile."):
		status := map[string]int{evCaseFileCompleted: cfCompleted, evCaseFileExpired: cfExpired,
			evCaseFileFailed: cfFailed, evCaseFileRejected: cfRejected}[typ]
		if status == 0 {
			return nil, fmt.Errorf("unknown event type %q", typ)
		}
		payload = CaseFileRef{ID: SampleCaseFileID, Status: status}
	case strings.HasPrefix(typ, "sign.signer."):
		// Every signer event but finalized comes while the case file is
		// pending: sign.signer.rejected too, the case file turning rejected
		// (status 2) with sign.casefile.rejected just after it.
		status := cfPending
		if typ == evSignerFinalized {
			status = cfCompleted
		}
		payload = SignerPayload{ID: SampleSignerID, CaseFile: CaseFileRef{ID: SampleCaseFileID, Status: status}}
	default:
		return nil, fmt.Errorf("unknown event type %q", typ)
	}
	topic, short := topicAndType(typ)
	body, err := json.Marshal(eventBody{Topic: topic, EventType: short, EventTime: newEventTime(at), Payload: payload})
	if err != nil {
		return nil, fmt.Errorf("sample event %s: %w", typ, err)
	}
	return body, nil
}
