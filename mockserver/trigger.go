package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// ErrUnknownEventType is returned by TriggerEvent for a type the platform
// does not have.
var ErrUnknownEventType = errors.New("mockserver: unknown event type")

// EventTypes answers the platform's 17 webhook event types, the ones a
// subscription may list and TriggerEvent sends.
func EventTypes() []string { return webhooks.EventTypes() }

// TriggerEvent sends one webhook event of eventType to url, as the mock's
// delivery engine does: a fresh X-Event-Id, a sample payload like the
// simulation's (case file 1042, signer 2087), and an X-Event-Signature made
// with secret at the current time. It answers the receiver's response,
// whose body the caller closes. client nil means http.DefaultClient. The
// secret is never part of an error. `signkit-mock trigger` uses it.
func TriggerEvent(ctx context.Context, client *http.Client, url, secret, eventType string) (*http.Response, error) {
	if !slices.Contains(EventTypes(), eventType) {
		return nil, fmt.Errorf("%w: %q", ErrUnknownEventType, eventType)
	}
	now := time.Now()
	body, err := signing.SampleEvent(eventType, now)
	if err != nil {
		return nil, fmt.Errorf("mockserver: %w", err)
	}
	req, err := webhooks.NewDeliveryRequest(ctx, url, secret, ids.UUID(), eventType, body, now)
	if err != nil {
		return nil, fmt.Errorf("mockserver: %w", err)
	}
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("mockserver: deliver %s: %w", eventType, err)
	}
	return resp, nil
}
