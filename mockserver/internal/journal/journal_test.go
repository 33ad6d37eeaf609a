package journal

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestMiddlewareRecordsStatus(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		h    http.HandlerFunc
		want int
	}{
		{"explicit", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusCreated) }, 201},
		{"implicit 200", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("x")) }, 200},
		{"nothing written", func(http.ResponseWriter, *http.Request) {}, 200},
		{"dropped", func(w http.ResponseWriter, _ *http.Request) { w.(interface{ MarkDropped() }).MarkDropped() }, 0},
		{"panic", func(http.ResponseWriter, *http.Request) { panic("boom") }, 500},
	} {
		j := New(4)
		h := Middleware(j, func() time.Time { return at }, tc.h)
		func() {
			defer func() { _ = recover() }() // the panic goes on to net/http
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/a?b=c", nil))
		}()
		got := j.List()
		if len(got) != 1 || got[0] != (Entry{Method: "POST", Path: "/a", Status: tc.want, At: at}) {
			t.Errorf("%s: journal %+v, want status %d", tc.name, got, tc.want)
		}
	}
}

func TestJournalKeepsTheLastEntriesInOrder(t *testing.T) {
	j := New(3)
	if got := j.List(); len(got) != 0 {
		t.Fatalf("new journal lists %v", got)
	}
	for i := range 5 {
		j.Add(Entry{Status: 200 + i})
	}
	got := j.List()
	if len(got) != 3 || got[0].Status != 202 || got[1].Status != 203 || got[2].Status != 204 {
		t.Fatalf("journal of 3 after 5 adds: %v, want statuses 202, 203, 204", got)
	}
	j.Reset()
	j.Add(Entry{Status: 299})
	if got := j.List(); len(got) != 1 || got[0].Status != 299 {
		t.Fatalf("after reset and one add: %v", got)
	}
}

func TestJournalConcurrentAdds(t *testing.T) {
	const writers, each, size = 8, 500, 1000
	j := New(size)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				j.Add(Entry{Status: w*each + i})
				_ = j.List() // readers alongside writers: the race detector watches
			}
		})
	}
	wg.Wait()
	got := j.List()
	if len(got) != size {
		t.Fatalf("%d entries after %d adds, want the last %d", len(got), writers*each, size)
	}
	seen := map[int]bool{}
	for _, e := range got {
		if seen[e.Status] {
			t.Fatalf("entry %d listed twice", e.Status)
		}
		seen[e.Status] = true
	}
}
