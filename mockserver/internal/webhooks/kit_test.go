package webhooks_test

import (
	"regexp"

	"github.com/signkit/signkit-go/mockserver/internal/testkit"
	"github.com/signkit/signkit-go/mockserver/internal/testkit/mocktest"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
)

// The names the service's tests use for the kit's helpers and the service's
// constants.
const (
	subsPath      = testkit.SubscriptionsPath
	testEventType = webhooks.TestEventType
)

var (
	sdkCall         = testkit.SDKCall
	subscribe       = testkit.Subscribe
	sendTestEvent   = testkit.SendTestEvent
	newReceiver     = testkit.NewReceiver
	verifySignature = testkit.VerifySignature
	webhookRequest  = testkit.WebhookRequest
	uuidRE          = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
)

type subscriptionJSON = testkit.Subscription

// The kit's mock starters under the names these tests use.
var (
	newServer  = mocktest.Manual
	login      = mocktest.Login
	adminToken = mocktest.AdminToken
	addUser    = mocktest.AddUser
)
