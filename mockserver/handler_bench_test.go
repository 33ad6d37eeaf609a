package mockserver

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/ids"
)

// BenchmarkPublicFormHandler splits what GET of a public page costs the
// mock in process, without sockets, in interleaved rounds: the bare handler
// of BenchmarkPublicFormLoad; the same bare handler behind an
// http.ServeMux holding the mock's route table (the floor that the table
// itself sets); and the mock's handler. It reports ns per request of each
// and their ratios to bare.
func BenchmarkPublicFormHandler(b *testing.B) {
	s := New()
	defer s.Close()
	tok := login(b, s, s.DefaultCredentials())
	f := activeForm(b, s, tok, sampleForm())
	req := httptest.NewRequest(http.MethodGet, strings.TrimPrefix(f.PublicURL, s.URL()), nil)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET %s: %d", req.URL, rec.Code)
	}
	page := rec.Body.Bytes()
	bare := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(page)))
		w.Header().Set("X-Penneo-Request-Id", ids.UUID())
		_, _ = w.Write(page)
	})
	table := http.NewServeMux()
	for _, p := range s.core.Patterns {
		table.Handle(p, bare)
	}
	handlers := []http.Handler{bare, table, s.Handler()}
	const round = 2000
	var spent [3]time.Duration
	for i := 0; b.Loop(); i++ {
		for k := range handlers {
			h := handlers[(k+i)%len(handlers)]
			start := time.Now()
			for range round {
				h.ServeHTTP(&discardWriter{h: http.Header{}}, req)
			}
			spent[(k+i)%len(handlers)] += time.Since(start)
		}
	}
	n := float64(b.N * round)
	b.ReportMetric(float64(spent[0])/n, "bare-ns/req")
	b.ReportMetric(float64(spent[1])/n, "table-ns/req")
	b.ReportMetric(float64(spent[2])/n, "mock-ns/req")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "table/bare-time")
	b.ReportMetric(float64(spent[2])/float64(spent[0]), "mock/bare-time")
}

// discardWriter is a ResponseWriter that keeps nothing.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}
