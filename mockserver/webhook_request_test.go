package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/testkit"

// The kit's webhook request helpers under the names the façade's own tests
// (faults, limits, stats) use; the subscription tests that defined them
// moved beside the webhook service (mockserver/internal/webhooks).
const subsPath = testkit.SubscriptionsPath

var newWebhookRequest = testkit.WebhookRequest
