package mockserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkDeliveryLoopback measures signed deliveries per second to local
// receivers that answer 204 over loopback HTTP: events are put in the event
// log back to back, and the clock waits until every delivery has been
// acknowledged. With several subscriptions each event is delivered once per
// subscription, and events/s counts deliveries.
//
//	go test -run '^$' -bench DeliveryLoopback -benchtime 20000x ./mockserver
func BenchmarkDeliveryLoopback(b *testing.B) {
	for _, subs := range []int{1, 5} {
		b.Run(fmt.Sprintf("subscriptions=%d", subs), func(b *testing.B) {
			s := New(WithManualClock(whEpoch))
			defer s.Close()
			var hits atomic.Int64
			recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				hits.Add(1)
				w.WriteHeader(http.StatusNoContent)
			}))
			defer recv.Close()
			tok := whAdminToken(b, s)
			for i := range subs {
				whSubscribe(b, s, tok, fmt.Sprintf("%s/hook/%d", recv.URL, i), "sign.signer.signed")
			}
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			for i := range b.N {
				s.core.Signing.Emit(DefaultCustomerID, int64(i), "sign.signer.signed", whEpoch,
					signerPayload{ID: int64(i), CaseFile: caseFileRef{ID: int64(i), Status: 1}})
			}
			s.Advance(0) // returns once every delivery is done
			elapsed := time.Since(start)
			b.StopTimer()
			if got, want := hits.Load(), int64(b.N*subs); got != want {
				b.Fatalf("receiver got %d deliveries, want %d", got, want)
			}
			b.ReportMetric(float64(b.N*subs)/elapsed.Seconds(), "events/s")
		})
	}
}
