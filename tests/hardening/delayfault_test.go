package hardening

import (
	"context"
	"net/http"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
)

// TestDelayedFaultSparesALeftRequest: a fault that delays a request before
// its operation ("or until the client gives up", Fault.DelayMs) does not run
// the operation once the client gave up, also for a request with a body
// (net/http notices a closed connection only once the body was read: the
// hardening work found the operation running late; fixed in ea59da7).
func TestDelayedFaultSparesALeftRequest(t *testing.T) {
	t.Parallel()
	srv := mockserver.Start(t)
	cfg := srv.Config()
	cfg.HTTPClient = &http.Client{Timeout: 300 * time.Millisecond}
	cfg.MaxRetries = -1
	client, err := signkit.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Subscriptions.List(context.Background()); err != nil { // token
		t.Fatal(err)
	}
	if err := srv.InjectFault(mockserver.Fault{Method: "POST", Path: "/collect/api/v1/forms", DelayMs: 1000, Times: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Forms.Create(context.Background(), onboardingForm("late")); err == nil {
		t.Fatal("the create did not time out")
	}
	time.Sleep(1500 * time.Millisecond) // past the delay
	if n := srv.Stats().Forms; n != 0 {
		t.Errorf("%d forms: the operation ran after the client gave up", n)
	}
}
