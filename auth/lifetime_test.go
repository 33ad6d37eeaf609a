package auth

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLifetime(t *testing.T) {
	sent := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, body string
		want       time.Duration
	}{
		{"platform's 600", `{"expires_in":600}`, 10 * time.Minute},
		{"expires_in wins over expires_at", `{"expires_in":600,"access_token_expires_at":1}`, 10 * time.Minute},
		{"float", `{"expires_in":600.0}`, 10 * time.Minute},
		{"fraction", `{"expires_in":90.5}`, 90*time.Second + 500*time.Millisecond},
		{"string", `{"expires_in":"600"}`, 10 * time.Minute},
		{"exponent", `{"expires_in":6e2}`, 10 * time.Minute},
		{"30 is kept", `{"expires_in":30}`, 30 * time.Second},
		{"below the floor", `{"expires_in":1}`, MinTokenLifetime},
		{"absurd: ceiling", `{"expires_in":1e19}`, MaxTokenLifetime},
		{"beyond float64: ceiling", `{"expires_in":1e400}`, MaxTokenLifetime},
		{"huge integer: ceiling", `{"expires_in":99999999999999999999999999}`, MaxTokenLifetime},
		{"two hours: ceiling", `{"expires_in":7200}`, MaxTokenLifetime},
		{"zero: expires_at", `{"expires_in":0,"access_token_expires_at":1795341900}`, 5 * time.Minute},
		{"negative: default", `{"expires_in":-5}`, defaultLifetime},
		{"null: default", `{"expires_in":null}`, defaultLifetime},
		{"bool: default", `{"expires_in":true}`, defaultLifetime},
		{"word: default", `{"expires_in":"soon"}`, defaultLifetime},
		{"NaN string: default", `{"expires_in":"NaN"}`, defaultLifetime},
		{"missing: default", `{}`, defaultLifetime},
		{"expires_at only", `{"access_token_expires_at":1795341900}`, 5 * time.Minute},
		{"expires_at as float", `{"access_token_expires_at":1795341900.0}`, 5 * time.Minute},
		{"expires_at in the past: floor", `{"access_token_expires_at":1000}`, MinTokenLifetime},
		{"expires_at absurd: ceiling", `{"access_token_expires_at":1e300}`, MaxTokenLifetime},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var tr tokenResponse
			require.NoError(t, json.Unmarshal([]byte(tc.body), &tr))
			assert.Equal(t, tc.want, tr.lifetime(sent))
		})
	}
	require.Equal(t, int64(1795341600), sent.Unix(), "the expires_at cases count from sent")
}

func TestRenewalTime(t *testing.T) {
	for _, tc := range []struct {
		life, renewBefore, want time.Duration
	}{
		{10 * time.Minute, time.Minute, 9 * time.Minute},
		{30 * time.Second, time.Minute, 15 * time.Second},
		{time.Minute, time.Minute, 30 * time.Second},
		{MinTokenLifetime, time.Minute, MinTokenLifetime / 2},
		{MaxTokenLifetime, time.Minute, MaxTokenLifetime - time.Minute},
		{10 * time.Minute, 0, 10 * time.Minute},
		{10 * time.Minute, -time.Minute, 10 * time.Minute},
	} {
		assert.Equal(t, tc.want, renewalTime(tc.life, tc.renewBefore), "life %v, renew before %v", tc.life, tc.renewBefore)
	}
}

// An expires_in below the renewal margin, or one no duration can hold, must
// neither make every call fetch a token nor fail.
func TestOddExpiresInIsCachedAndDecodes(t *testing.T) {
	for _, expires := range []string{"30", "60", "1e19", "0", "-1", `"600"`, "1e400"} {
		t.Run(expires, func(t *testing.T) {
			srv := newTokenServer(t)
			srv.expires = expires
			ts := NewTokenSource(srv.URL+"/auth", testCreds)
			start := time.Now()
			for range 10 {
				_, err := ts.Token(context.Background())
				require.NoError(t, err)
				time.Sleep(50 * time.Millisecond)
			}
			require.Less(t, time.Since(start), time.Second+200*time.Millisecond)
			assert.LessOrEqual(t, srv.requests.Load(), int32(2))
		})
	}
}

// Renewal of a short-lived token stays single flight under concurrent
// callers, on a clock that crosses the renewal time.
func TestShortLivedTokenRenewalIsSingleFlight(t *testing.T) {
	srv := newTokenServer(t)
	srv.expires = "30"
	srv.delay = 20 * time.Millisecond
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ts := NewTokenSource(srv.URL+"/auth", testCreds, WithClock(clock))
	run := func() {
		var wg sync.WaitGroup
		for range 50 {
			wg.Go(func() {
				_, err := ts.Token(context.Background())
				assert.NoError(t, err)
			})
		}
		wg.Wait()
	}
	run()
	assert.Equal(t, int32(1), srv.requests.Load())
	mu.Lock()
	now = now.Add(14 * time.Second) // half of 30 s not reached: cached
	mu.Unlock()
	run()
	assert.Equal(t, int32(1), srv.requests.Load())
	mu.Lock()
	now = now.Add(2 * time.Second) // past half its life: one renewal for all
	mu.Unlock()
	run()
	assert.Equal(t, int32(2), srv.requests.Load())
	tok := mustToken(t, ts)
	assert.Equal(t, "tok-2", tok.AccessToken)
	assert.Equal(t, now.Add(30*time.Second), tok.ExpiresAt)
}
