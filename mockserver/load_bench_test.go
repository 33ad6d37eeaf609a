package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// The throughput benchmarks compare the mock with a bare net/http handler
// that does the same decode and insert (or serves the same bytes), served
// with the same http.Server settings (timeouts) as the mock's listener, over
// loopback HTTP with 64 concurrent clients, in interleaved rounds: each
// round runs a batch against one, then the other, in an order drawn at
// random. (A strict alternation let a periodic cost, such as a garbage
// collection every few rounds, fall on one side more than the other for a
// whole run.)
// They report medians over the rounds of the throughput ratio
// (mock/bare, goal ≥ 0.8 for POST /v1/forms and ≥ 0.95 for GET of a public
// page) and of the p99 latency ratio (mock/bare, goal ≤ 1.5), and the CPU
// the mock's rounds took per bare round's CPU (no goal: it tells where the
// time goes).

const (
	loadClients = 64
	loadBatch   = 640 // requests per side per round
)

// loadRound sends loadBatch requests made by req from loadClients
// goroutines and answers the time it took and every request's latency.
func loadRound(b *testing.B, client *http.Client, req func() *http.Request, want int) (time.Duration, []time.Duration) {
	lat := make([]time.Duration, loadBatch)
	next := make(chan int, loadBatch)
	for i := range loadBatch {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	start := time.Now()
	for range loadClients {
		wg.Go(func() {
			for i := range next {
				t0 := time.Now()
				resp, err := client.Do(req())
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				lat[i] = time.Since(t0)
				if resp.StatusCode != want {
					b.Errorf("%s: %d, want %d", resp.Request.URL, resp.StatusCode, want)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start), lat
}

func p99(lat []time.Duration) time.Duration {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[len(s)*99/100]
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// bareServer serves h like the mock's listener serves the mock: the same
// header and idle timeouts, so that only the handlers differ.
func bareServer(s *Server, h http.Handler) *httptest.Server {
	ts := httptest.NewUnstartedServer(h)
	like := s.HTTPServer()
	ts.Config.ReadHeaderTimeout, ts.Config.IdleTimeout = like.ReadHeaderTimeout, like.IdleTimeout
	ts.Start()
	return ts
}

// compareLoad runs interleaved rounds of mock and bare requests and reports
// the medians of the throughput and p99 ratios, and the ratio of the
// process CPU time the mock's rounds took to the bare rounds' (client and
// server together; a steadier figure than time, where the platform can
// measure it).
func compareLoad(b *testing.B, mock, bare func() *http.Request, want int) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: loadClients, MaxConnsPerHost: loadClients}}
	defer client.CloseIdleConnections()
	loadRound(b, client, mock, want) // warm the connections
	loadRound(b, client, bare, want)
	var thr, tail []float64
	var mockCPU, bareCPU time.Duration
	round := func(req func() *http.Request, cpu *time.Duration) (time.Duration, []time.Duration) {
		c0 := processCPU()
		d, lat := loadRound(b, client, req, want)
		*cpu += processCPU() - c0
		return d, lat
	}
	for b.Loop() {
		var md, bd time.Duration
		var ml, bl []time.Duration
		if rand.IntN(2) == 0 {
			md, ml = round(mock, &mockCPU)
			bd, bl = round(bare, &bareCPU)
		} else {
			bd, bl = round(bare, &bareCPU)
			md, ml = round(mock, &mockCPU)
		}
		thr = append(thr, float64(bd)/float64(md))
		tail = append(tail, float64(p99(ml))/float64(p99(bl)))
	}
	b.ReportMetric(median(thr), "mock/bare-throughput")
	b.ReportMetric(median(tail), "mock/bare-p99")
	if bareCPU > 0 {
		b.ReportMetric(float64(mockCPU)/float64(bareCPU), "mock/bare-cpu")
	}
	b.ReportMetric(float64(len(thr)), "rounds")
}

// BenchmarkCreateFormLoad: POST /v1/forms against a bare handler that
// decodes the same body into the same type, stores it in a map and answers
// it with a fresh X-Penneo-Request-Id, as the mock does.
func BenchmarkCreateFormLoad(b *testing.B) {
	s := Start(b, WithLimits(Limits{Forms: -1}))
	tok := login(b, s, s.DefaultCredentials())
	body, err := json.Marshal(sampleForm())
	if err != nil {
		b.Fatal(err)
	}
	var mu sync.Mutex
	stored := map[string]*formJSON{}
	bare := bareServer(s, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var def formJSON
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, DefaultMaxBodyBytes)).Decode(&def); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		def.ExternalID = ids.UUID()
		w.Header().Set("X-Penneo-Request-Id", ids.UUID())
		mu.Lock()
		stored[def.ExternalID] = &def
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(&def)
	}))
	defer bare.Close()
	post := func(url, tok string) func() *http.Request {
		return func() *http.Request {
			r, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			if tok != "" {
				r.Header.Set("Authorization", "Bearer "+tok)
			}
			return r
		}
	}
	compareLoad(b, post(s.URL()+"/collect/api/v1/forms", tok), post(bare.URL, ""), http.StatusCreated)
}

// BenchmarkPublicFormLoad: GET of a public form page against a bare handler
// that gives the same answer: the same page bytes with the same headers,
// including a fresh X-Penneo-Request-Id (the platform gives every answer
// one), to a request for the same path. What the ratio measures is then
// what the mock adds: the route table, the journal and the fault check.
func BenchmarkPublicFormLoad(b *testing.B) {
	s := Start(b)
	tok := login(b, s, s.DefaultCredentials())
	f := activeForm(b, s, tok, sampleForm())
	resp, err := http.Get(f.PublicURL)
	if err != nil {
		b.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	bare := bareServer(s, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		w.Header().Set("X-Penneo-Request-Id", ids.UUID())
		_, _ = w.Write(page)
	}))
	defer bare.Close()
	get := func(url string) func() *http.Request {
		return func() *http.Request { r, _ := http.NewRequest(http.MethodGet, url, nil); return r }
	}
	path := strings.TrimPrefix(f.PublicURL, s.URL())
	compareLoad(b, get(f.PublicURL), get(bare.URL+path), http.StatusOK)
}
