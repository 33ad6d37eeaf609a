package webhooks

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"testing"
)

func TestDescribeDeliveryError(t *testing.T) {
	t.Parallel()
	dialTimeout := &net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}}
	tests := []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Post", URL: "https://x.test", Err: dialTimeout}, "connection took longer than 200ms"},
		{&url.Error{Op: "Post", URL: "https://x.test", Err: context.DeadlineExceeded}, "no complete response within 1s"},
		{errors.New("boom"), "delivery failed: boom"},
	}
	for _, tc := range tests {
		got := describeDeliveryError(tc.err)
		if !strings.Contains(got.Error(), tc.want) || !errors.Is(got, tc.err) {
			t.Errorf("describeDeliveryError(%v) = %v, want it to say %q and wrap the cause", tc.err, got, tc.want)
		}
	}
}

// timeoutError is a net.Error that timed out.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }
