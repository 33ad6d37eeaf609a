// Package subscriptions manages the account's webhook subscriptions on the
// platform's webhook service: create, list, get, update (re-enable),
// delete, and ask for a test event. Receiving the deliveries is the job of
// package webhooks (Verifier, Handler, AsyncHandler), which also defines
// the event types a subscription lists; this package imports it, never the
// other way round, so a receiver builds without the service client.
//
// Get a Client as the Subscriptions field of a signkit.Client:
//
//	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
//		Endpoint:   "https://example.com/hooks/signkit",
//		EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted},
//	})
//	if err != nil { ... }
//	v, err := webhooks.NewVerifier(sub.Secret) // store the secret
//
// Create and Update check a Request before sending it (Request.Validate): the
// endpoint is an absolute https URL, or http on a loopback host (127.0.0.0/8,
// ::1, localhost); there is at least one event type, none empty or listed
// twice. Whether each type exists is the service's to answer: an event type
// this SDK does not know is sent, since the platform may add types, and one the
// service does not accept comes back as a *signkit.Error matching
// signkit.ErrValidation
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#subscriptions).
// A refused request is a *signkit.ValidationError that lists every problem, and
// nothing is sent.
//
// The service replaces a whole subscription on update and clears what a request
// omits; Update therefore fills the fields a Request leaves unset from the
// current subscription. Create is re-sent after a lost answer: a re-sent copy
// that meets the platform's 409 for the same endpoint returns the subscription
// that exists
// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md).
//
// A Subscription prints and logs its secret as [redacted] (every fmt verb,
// slog's handlers); its JSON encoding keeps it, since you store it.
package subscriptions
