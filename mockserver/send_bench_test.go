package mockserver

import (
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"
)

// BenchmarkSendUpload200MiB uploads a 200 MiB file (generated on the fly,
// never held in memory) through the Send create endpoint in process and
// reports how much the heap grew: heap-peak-MiB is the highest HeapAlloc
// seen while the upload ran minus the value before it (sampled every
// millisecond), alloc-MiB everything allocated during the upload (an upper
// bound of the growth). The goal is < 32 MiB.
//
//	go test -run '^$' -bench BenchmarkSendUpload200MiB -benchtime 1x ./mockserver/
func BenchmarkSendUpload200MiB(b *testing.B) {
	const size = 200 << 20
	s := New(WithManualClock(epoch))
	b.Cleanup(s.Close)
	data, err := json.Marshal(map[string]any{"caseFile": sndCase("Ann:ann@example.com")})
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{Transport: s.Transport()}
	b.SetBytes(size)
	var peak, alloc float64
	for b.Loop() {
		s.Reset()
		tok := login(b, s, s.DefaultCredentials())
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		stop, maxHeap := sampleHeap()
		resp, err := client.Do(bigUploadRequest(b, s, tok, data, size))
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		stop()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if resp.StatusCode != http.StatusCreated {
			b.Fatalf("upload: %d", resp.StatusCode)
		}
		peak = max(peak, float64(*maxHeap-min(*maxHeap, before.HeapAlloc))/(1<<20))
		alloc = max(alloc, float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
	}
	b.ReportMetric(peak, "heap-peak-MiB")
	b.ReportMetric(alloc, "alloc-MiB")
	s.Reset()
}

// sampleHeap records the highest HeapAlloc until stop is called.
func sampleHeap() (stop func(), peak *uint64) {
	peak = new(uint64)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			*peak = max(*peak, m.HeapAlloc)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }, peak
}

// bigUploadRequest is a Send create request whose body a goroutine writes
// through a pipe: the data part, then one PDF-looking file of size bytes
// made of a repeated 64 KiB block.
func bigUploadRequest(b *testing.B, s *Server, tok string, data []byte, size int) *http.Request {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			if err := mw.WriteField("data", string(data)); err != nil {
				return err
			}
			w, err := mw.CreateFormFile("files", "doc.pdf")
			if err != nil {
				return err
			}
			block := make([]byte, 64<<10)
			copy(block, "%PDF-1.4\n")
			for n := 0; n < size; n += len(block) {
				if _, err := w.Write(block[:min(len(block), size-n)]); err != nil {
					return err
				}
				clear(block[:9])
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequest("POST", s.URL()+"/send"+sendCreatePath, pr)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-Auth-Token", tok)
	return req
}
