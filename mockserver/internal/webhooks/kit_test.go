package webhooks_test

import (
	"regexp"
	"testing"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
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

// newServer starts a mock on a manual clock at testkit.Epoch, in process,
// closed when the test ends.
func newServer(t testing.TB, opts ...mockserver.Option) *mockserver.Server {
	t.Helper()
	s := mockserver.New(append([]mockserver.Option{mockserver.WithManualClock(testkit.Epoch)}, opts...)...)
	t.Cleanup(s.Close)
	return s
}

// login answers a fresh access token for the credentials.
func login(t testing.TB, s *mockserver.Server, c mockserver.UserCredentials) string {
	t.Helper()
	return testkit.Login(t, s, testkit.Credentials(c))
}

// adminToken logs in as the default admin.
func adminToken(t testing.TB, s *mockserver.Server) string {
	t.Helper()
	return login(t, s, s.DefaultCredentials())
}

// addUser adds a user to the mock and logs in as it.
func addUser(t testing.TB, s *mockserver.Server, spec mockserver.UserSpec) (mockserver.UserCredentials, string) {
	t.Helper()
	c, err := s.AddUser(spec)
	if err != nil {
		t.Fatalf("add user %q: %v", spec.Name, err)
	}
	return c, login(t, s, c)
}
