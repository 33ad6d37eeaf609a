package mockserver

import (
	"runtime"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/forms"
)

// BenchmarkSubmissionJournaled compares, in interleaved rounds, a form
// submission on a mock whose event log and outbox are full (maxEvents
// events, maxEmails emails) with one on a mock whose journals are empty:
// appending to a full journal must not copy it. Goal: ≤ 1.2× the time and
// the allocations.
func BenchmarkSubmissionJournaled(b *testing.B) {
	type subject struct {
		s      *Server
		id     string
		dur    time.Duration
		allocs uint64
	}
	setup := func(fill bool) *subject {
		s := newManual(b)
		tok := login(b, s, s.DefaultCredentials())
		sub := &subject{s: s, id: activeForm(b, s, tok, sampleForm()).ExternalID}
		if fill {
			for range maxEvents {
				s.core.Signing.Emit(DefaultCustomerID, 1, "sign.casefile.completed", s.Now(), caseFileRef{ID: 1, Status: 5})
			}
			for range maxEmails {
				s.core.Signing.SendEmail("a@example.com", "subject", "text", "")
			}
		}
		return sub
	}
	empty, full := setup(false), setup(true)
	const batch = 200
	run := func(sub *subject) {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		start := time.Now()
		for range batch {
			if _, err := sub.s.core.Forms.Submit(sub.id, "", forms.NewSubmissionInput(validAnswers(), nil)); err != nil {
				b.Fatal(err)
			}
		}
		sub.dur += time.Since(start)
		runtime.ReadMemStats(&m1)
		sub.allocs += m1.Mallocs - m0.Mallocs
	}
	b.ResetTimer()
	rounds := 0
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			run(empty)
			run(full)
		} else {
			run(full)
			run(empty)
		}
		rounds++
	}
	n := float64(rounds * batch)
	b.ReportMetric(float64(full.dur.Nanoseconds())/n, "full-ns/op")
	b.ReportMetric(float64(empty.dur.Nanoseconds())/n, "empty-ns/op")
	b.ReportMetric(float64(full.dur)/float64(empty.dur), "time-full/empty")
	b.ReportMetric(float64(full.allocs)/float64(empty.allocs), "allocs-full/empty")
}
