package mockserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/forms"
)

// BenchmarkPublicFormGET compares GET of a public form page over loopback
// HTTP with a bare net/http handler that serves the same bytes, alternating
// request by request. It reports both latencies and their ratio
// (bare-ns/mock-ns: the mock's throughput relative to the bare handler;
// goal ≥ 0.5).
func BenchmarkPublicFormGET(b *testing.B) {
	s := Start(b)
	tok := login(b, s, s.DefaultCredentials())
	f := activeForm(b, s, tok, sampleForm())
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	defer client.CloseIdleConnections()
	get := func(url string) []byte {
		resp, err := client.Get(url)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
		}
		return body
	}
	page := get(f.PublicURL)
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	}))
	defer bare.Close()
	get(bare.URL)
	var mockDur, bareDur time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		get(f.PublicURL)
		t1 := time.Now()
		get(bare.URL)
		mockDur += t1.Sub(t0)
		bareDur += time.Since(t1)
	}
	b.StopTimer()
	b.ReportMetric(float64(mockDur.Nanoseconds())/float64(b.N), "mock-ns/op")
	b.ReportMetric(float64(bareDur.Nanoseconds())/float64(b.N), "bare-ns/op")
	b.ReportMetric(float64(bareDur)/float64(mockDur), "mock/bare-throughput")
	b.ReportMetric(float64(len(page)), "page-bytes")
}

// BenchmarkSubmissionMemory stores b.N submissions (no files) and reports
// the heap they retain per submission, with their case files (goal ≤ 2 KiB),
// apart from what their activation adds to the bounded event log and outbox.
func BenchmarkSubmissionMemory(b *testing.B) {
	s := newManual(b)
	tok := login(b, s, s.DefaultCredentials())
	id := activeForm(b, s, tok, sampleForm()).ExternalID
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before) // before the inputs: the answer strings they hold are retained too
	inputs := make([]*forms.SubmissionInput, b.N)
	for i := range inputs {
		vals := validAnswers()
		for k, v := range vals {
			vals[k] = strings.Clone(v) // on the heap, as values read from a request are
		}
		inputs[i] = forms.NewSubmissionInput(vals, nil)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := s.core.Forms.Submit(id, "", inputs[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	inputs = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	withLogs := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	// The activation of each case file adds events to the event log and a
	// request email to the outbox: bounded journals (maxEvents, maxEmails),
	// not the stored submission. Measure them apart.
	s.core.Signing.ResetLogs()
	runtime.GC()
	runtime.ReadMemStats(&after)
	stored := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	b.ReportMetric(float64(stored)/float64(b.N), "heap-B/submission")
	b.ReportMetric(float64(withLogs-stored)/float64(b.N), "journal-B/submission")
	runtime.KeepAlive(s)
	runtime.KeepAlive(inputs)
}
