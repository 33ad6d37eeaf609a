package mockserver

import (
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestRing(t *testing.T) {
	t.Parallel()
	r := newRing[int](4)
	if got := r.list(); got == nil || len(got) != 0 {
		t.Fatalf("empty list = %#v", got)
	}
	for i := 1; i <= 3; i++ {
		r.add(i)
	}
	if got := r.list(); !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("before full: %v", got)
	}
	for i := 4; i <= 10; i++ {
		r.add(i)
	}
	if got := r.list(); !slices.Equal(got, []int{7, 8, 9, 10}) {
		t.Fatalf("after wrapping: %v", got)
	}
	for _, tt := range []struct {
		after int
		want  []int
	}{{0, []int{7, 8, 9, 10}}, {8, []int{9, 10}}, {10, []int{}}, {6, []int{7, 8, 9, 10}}} {
		if got := r.after(func(v int) bool { return v > tt.after }); !slices.Equal(got, tt.want) {
			t.Errorf("after %d: %v, want %v", tt.after, got, tt.want)
		}
	}
	r.reset()
	if got := r.list(); len(got) != 0 || cap(r.entries) != 0 {
		t.Fatalf("after reset: %v (cap %d)", got, cap(r.entries))
	}
	r.add(11)
	if got := r.list(); !slices.Equal(got, []int{11}) {
		t.Fatalf("after reset and add: %v", got)
	}
}

// An append to a full ring costs the same as to an empty one: no copy of
// the journal.
func BenchmarkRingAppendFull(b *testing.B) {
	for _, fill := range []int{0, maxEvents} {
		b.Run(map[int]string{0: "empty", maxEvents: "full"}[fill], func(b *testing.B) {
			r := newRing[*event](maxEvents)
			for range fill {
				r.add(&event{})
			}
			ev := &event{}
			b.ReportAllocs()
			for b.Loop() {
				r.add(ev)
			}
		})
	}
}

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
				s.sign.events.emit(DefaultCustomerID, 1, "sign.casefile.completed", s.Now(), caseFileRef{ID: 1, Status: 5})
			}
			for range maxEmails {
				s.sendEmail("a@example.com", "subject", "text", "")
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
			if _, err := sub.s.submit(sub.id, "", &submissionInput{values: validAnswers()}); err != nil {
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
