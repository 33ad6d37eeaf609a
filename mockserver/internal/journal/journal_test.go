package journal

import (
	"net/http"
	"net/http/httptest"
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
