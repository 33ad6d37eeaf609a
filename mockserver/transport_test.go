package mockserver

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// TestTransportInsideSynctest drives the server without sockets inside a
// synctest bubble: with the real clock, an hour of (fake) time passes at once
// and the token expires.
func TestTransportInsideSynctest(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := New()
		defer s.Close()
		tok := login(t, s, s.DefaultCredentials())
		if st, _ := call(t, s, "GET", "/collect/api/v1/forms/x", tok, nil, nil); st != 404 {
			t.Fatalf("fresh token: %d", st)
		}
		ran := false
		s.core.Clock.After(30*time.Minute, func() { ran = true })
		time.Sleep(time.Hour)
		synctest.Wait()
		if !ran {
			t.Fatal("the real-clock scheduler did not run a task due in fake time")
		}
		if st, _ := call(t, s, "GET", "/collect/api/v1/forms/x", tok, nil, nil); st != 401 {
			t.Fatalf("token after an hour: %d, want 401", st)
		}
	})
}

func TestTransportStreamsAndCancels(t *testing.T) {
	t.Parallel()
	s := newManual(t)
	resp, err := (&http.Client{Transport: s.Transport()}).Get("http://any.host/mock/health")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" || !strings.Contains(string(b), `"ok"`) {
		t.Fatalf("health in process: %d %s", resp.StatusCode, b)
	}
}
