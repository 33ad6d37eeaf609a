package casefiles_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
)

// BenchmarkUpload uploads a sparse file of 64 MiB and of 1 GiB with Create
// to a loopback server that discards the body, and compares it with a raw
// upload of the same file to the same server. Run it with
//
//	go test -run '^$' -bench Upload -benchtime 1x ./casefiles/
//
// Each op runs at least three rounds of one Create, one raw and one sendfile
// upload; ns/op covers the Create uploads. Metrics per size:
//   - MB/s: Create's throughput (best of the rounds);
//   - x-raw: that throughput divided by a plain POST whose body is the file
//     behind an io.Reader (an io.Copy through user space, as Create's body
//     must be); x-sendfile: divided by a POST of the *os.File itself, which
//     net/http sends with sendfile(2);
//   - peak-RSS-MiB: VmHWM of the whole test process (the go test binary,
//     the in-process server and both uploads) while the Create uploads run,
//     after the peak was reset through /proc/self/clear_refs; base-RSS-MiB
//     is VmRSS just before, i.e. go test's own overhead;
//   - peak-heap-MiB: the largest Go heap (live and unswept objects) sampled
//     every millisecond during the Create uploads.
func BenchmarkUpload(b *testing.B) {
	srv := httptest.NewServer(tokenOr(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, createJSON)
	}))
	b.Cleanup(srv.Close)
	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(srv.URL + "/base"),
		Credentials: auth.Credentials{ClientID: "c", ClientSecret: "s", APIKey: "k", APISecret: "a"},
		HTTPClient:  srv.Client(),
		MaxRetries:  -1,
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int64{64 << 20, 1 << 30} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			benchUpload(b, client, srv, size)
		})
	}
}

func benchUpload(b *testing.B, client *signkit.Client, srv *httptest.Server, size int64) {
	path := filepath.Join(b.TempDir(), "big.pdf")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := errorsJoin(f.Truncate(size), f.Close()); err != nil { // sparse
		b.Fatal(err)
	}
	up, err := casefiles.FileUpload(path)
	if err != nil {
		b.Fatal(err)
	}
	cf := &casefiles.CaseFile{Title: "Big", Signers: []casefiles.Signer{{Name: "A"}}, Documents: []casefiles.Document{{Name: "big.pdf", Title: "Big"}}}
	create := func() {
		if _, err := client.CaseFiles.Create(b.Context(), cf, up); err != nil {
			b.Fatal(err)
		}
	}
	raw := func(hide bool) func() {
		return func() {
			if err := rawUpload(b.Context(), srv, path, size, hide); err != nil {
				b.Fatal(err)
			}
		}
	}
	rounds := max(3, b.N)
	runtime.GC()
	debug.FreeOSMemory()
	resetPeakRSS(b)
	baseRSS := procStatus("VmRSS")
	heap := startHeapSampler()
	b.ResetTimer()
	var best, bestRaw, bestSendfile time.Duration
	for range rounds {
		best = fastest(best, timed(create))
		b.StopTimer()
		bestRaw = fastest(bestRaw, timed(raw(true)))
		bestSendfile = fastest(bestSendfile, timed(raw(false)))
		b.StartTimer()
	}
	b.StopTimer()
	peakHeap := heap()
	peakRSS := procStatus("VmHWM")
	mbps := func(d time.Duration) float64 { return float64(size) / 1e6 / d.Seconds() }
	b.ReportMetric(mbps(best), "MB/s")
	b.ReportMetric(mbps(best)/mbps(bestRaw), "x-raw")
	b.ReportMetric(mbps(best)/mbps(bestSendfile), "x-sendfile")
	b.ReportMetric(float64(peakRSS)/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(baseRSS)/(1<<20), "base-RSS-MiB")
	b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MiB")
	b.Logf("size %d MiB: Create %.0f MB/s, raw io.Copy %.0f MB/s, sendfile %.0f MB/s; peak RSS %.1f MiB (base %.1f), peak heap %.1f MiB",
		size>>20, mbps(best), mbps(bestRaw), mbps(bestSendfile),
		float64(peakRSS)/(1<<20), float64(baseRSS)/(1<<20), float64(peakHeap)/(1<<20))
}

func timed(fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}

func fastest(a, b time.Duration) time.Duration {
	if a == 0 || b < a {
		return b
	}
	return a
}

func errorsJoin(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rawUpload POSTs the file as the whole body; hide puts it behind a plain
// io.Reader, so that it is copied through user space as Create's body is.
func rawUpload(ctx context.Context, srv *httptest.Server, path string, size int64, hide bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var body io.Reader = f
	if hide {
		body = struct{ io.Reader }{f}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/raw", body)
	if err != nil {
		return err
	}
	req.ContentLength = size
	resp, err := srv.Client().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, err = io.Copy(io.Discard, resp.Body)
	return err
}

// resetPeakRSS resets VmHWM to the current RSS (Linux 4.0 and later).
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("cannot reset the peak RSS (%v): peak-RSS-MiB is the process's peak so far", err)
	}
}

// procStatus returns a "kB" field of /proc/self/status in bytes (0 when
// unavailable).
func procStatus(field string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || name != field {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// startHeapSampler samples the heap's object bytes every millisecond until
// the returned function is called, which returns the peak.
func startHeapSampler() func() uint64 {
	const name = "/memory/classes/heap/objects:bytes"
	done := make(chan struct{})
	var wg sync.WaitGroup
	var peak uint64
	wg.Go(func() {
		s := []metrics.Sample{{Name: name}}
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			peak = max(peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return peak
	}
}
