package hardening

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/testkit/fakeclock"
)

// loginServer answers every token request with a fresh 10-minute token
// (on clock's time) and counts the requests.
func loginServer(tb testing.TB, clock *fakeclock.Clock, requests *atomic.Int64) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": fmt.Sprintf("token-%d", n), "token_type": "Bearer",
			"expires_in": 600, "access_token_expires_at": clock.Now().Add(10 * time.Minute).Unix()})
	}))
	tb.Cleanup(srv.Close)
	return srv
}

// BenchmarkTokenSingleFlight: each op expires the cached token, then g
// goroutines ask for a token at once. Single flight means one token request
// per op whatever g is; the floor is g=1, one caller and one request.
func BenchmarkTokenSingleFlight(b *testing.B) {
	for _, g := range []int{1, 64} {
		b.Run(fmt.Sprintf("goroutines=%d", g), func(b *testing.B) {
			clock := fakeclock.New(time.Now())
			var requests atomic.Int64
			srv := loginServer(b, clock, &requests)
			ts := auth.NewTokenSource(srv.URL, auth.Credentials{ClientID: "id", ClientSecret: "cs", APIKey: "key", APISecret: "as"},
				auth.WithClock(clock.Now))
			ctx := context.Background()
			if _, err := ts.Token(ctx); err != nil {
				b.Fatal(err)
			}
			requests.Store(0)
			var failures atomic.Int64
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				clock.Advance(11 * time.Minute) // the cached token has expired
				var wg sync.WaitGroup
				start := make(chan struct{})
				for range g {
					wg.Add(1)
					go func() {
						defer wg.Done()
						<-start
						if _, err := ts.Token(ctx); err != nil {
							failures.Add(1)
						}
					}()
				}
				close(start)
				wg.Wait()
			}
			b.StopTimer()
			if failures.Load() > 0 {
				b.Fatalf("%d Token calls failed", failures.Load())
			}
			perOp := float64(requests.Load()) / float64(b.N)
			b.ReportMetric(perOp, "token-requests/op")
			if perOp != 1 {
				b.Errorf("%.3f token requests per op, want exactly 1", perOp)
			}
		})
	}
}

// TestTokenSingleFlight is the benchmark's claim as a test: 64 goroutines
// asking at once with an expired token make one token request.
func TestTokenSingleFlight(t *testing.T) {
	t.Parallel()
	clock := fakeclock.New(time.Now())
	var requests atomic.Int64
	srv := loginServer(t, clock, &requests)
	ts := auth.NewTokenSource(srv.URL, auth.Credentials{ClientID: "id", ClientSecret: "cs", APIKey: "key", APISecret: "as"},
		auth.WithClock(clock.Now))
	for round := 1; round <= 5; round++ {
		clock.Advance(11 * time.Minute)
		var wg sync.WaitGroup
		for range 64 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := ts.Token(context.Background()); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if got := requests.Load(); got != int64(round) {
			t.Fatalf("round %d: %d token requests in all, want %d", round, got, round)
		}
	}
}
