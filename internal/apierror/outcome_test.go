package apierror

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRetryAfterAndOutcome(t *testing.T) {
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0}, {"0", 0}, {"7", 7 * time.Second}, {"-3", 0}, {"soon", 0},
		{now.Add(45 * time.Second).Format(http.TimeFormat), 45 * time.Second},
		// Past the SDK's longest wait, or past what a time.Duration holds:
		// the longest wait, as internal/retry waits it.
		{"3600", time.Minute}, {"9223372037", time.Minute}, {"18446744073", time.Minute},
		{"99999999999999999999", time.Minute}, {now.Add(90 * time.Second).Format(http.TimeFormat), time.Minute},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
	} {
		assert.Equal(t, tt.want, retryAfter(tt.in, now), "%q", tt.in)
	}

	e := FromResponse(response(http.StatusTooManyRequests, `{"message":"slow down"}`, http.Header{"Retry-After": {"12"}}))
	assert.Equal(t, 12*time.Second, e.RetryAfter)
	assert.True(t, errors.Is(e, ErrRateLimited))
	assert.False(t, errors.Is(e, ErrOutcomeUnknown))
	assert.Contains(t, e.Error(), "retry after 12s")

	e = FromResponse(response(http.StatusServiceUnavailable, `{"message":"down"}`, nil))
	assert.False(t, errors.Is(e, ErrOutcomeUnknown), "only the transport knows whether the request changes something")
	e.OutcomeUnknown = true
	assert.True(t, errors.Is(e, ErrOutcomeUnknown))
	assert.Contains(t, e.Error(), "list or get")
}
