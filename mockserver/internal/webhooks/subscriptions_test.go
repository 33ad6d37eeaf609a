package webhooks

import (
	"errors"
	"strings"
	"testing"

	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// TestCheckSubscriptionEventTypes: an unknown event type is a 422 whose
// detail, and whose message when it is the only problem, names every
// accepted type; known types pass, and an empty list or a repeated type
// keep their own details.
func TestCheckSubscriptionEventTypes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		types   []string
		field   string // "" = accepted
		message string // the detail says it
	}{
		{"every known type", EventTypes(), "", ""},
		{"unknown type", []string{"sign.signer.signed", "sign.casefile.archived"}, "eventTypes[1]", `unknown event type "sign.casefile.archived"; accepted: `},
		{"short form", []string{"completed"}, "eventTypes[0]", `unknown event type "completed"; accepted: `},
		{"empty string", []string{""}, "eventTypes[0]", `unknown event type ""; accepted: `},
		{"repeated", []string{"sign.signer.signed", "sign.signer.signed"}, "eventTypes[1]", "listed twice"},
		{"empty list", []string{}, "eventTypes", "at least one"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			types := tc.types
			err := checkSubscription(&subscriptionRequest{Endpoint: "https://example.test/h", EventTypes: &types})
			if tc.field == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var e *wire.Error
			if !errors.As(err, &e) || e.Status != 422 || len(e.Details) != 1 || e.Details[0].Field != tc.field ||
				!strings.Contains(e.Details[0].Message, tc.message) {
				t.Fatalf("got %#v, want a 422 with one detail on %s saying %q", err, tc.field, tc.message)
			}
			if !strings.HasPrefix(tc.message, "unknown") {
				return
			}
			for _, typ := range EventTypes() {
				if !strings.Contains(e.Details[0].Message, typ) || !strings.Contains(e.Message, typ) {
					t.Errorf("the detail or the message does not name %s: %q", typ, e.Message)
				}
			}
		})
	}
}
