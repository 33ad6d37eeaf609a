package send_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/send"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// fakeWall is a wall clock a test moves by hand.
type fakeWall struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeWall) now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.t
}

func (f *fakeWall) add(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.t = f.t.Add(d)
}

// statusRaw calls the queue status check and answers the status and the
// Retry-After header.
func statusRaw(t *testing.T, s *mockserver.Server, uuid, hash string) (int, string, []byte) {
	t.Helper()
	req := testkit.JSONRequest(t, s, "POST", "/send/api/v1/queue/public/status", map[string]string{"uuid": uuid, "payloadHash": hash})
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body json.RawMessage
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), body
}

func TestQueueStatusRateLimit(t *testing.T) {
	t.Parallel()
	s, tok, file := sendServer(t)
	wall := &fakeWall{t: time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)}
	testkit.Core(s).Send.SetWallClock(wall.now)
	_, _, a := testkit.SendCreate(t, s, tok, testkit.DataPart(t, testkit.TitledCase("A", nil)), file)
	_, _, b := testkit.SendCreate(t, s, tok, testkit.DataPart(t, testkit.TitledCase("B", nil)), file)
	for i := range send.StatusLimit {
		if st, _, body := statusRaw(t, s, a.UUID, a.PayloadHash); st != 200 {
			t.Fatalf("check %d: %d %s", i+1, st, body)
		}
		wall.add(time.Second)
	}
	// 20 checks over 20 s: the first leaves the window at 60 s, 40 s from now.
	st, retry, body := statusRaw(t, s, a.UUID, a.PayloadHash)
	var e testkit.APIError
	_ = json.Unmarshal(body, &e)
	if st != http.StatusTooManyRequests || retry != "40" || e.StatusCode != 429 {
		t.Fatalf("check 21: %d, Retry-After %q, %s; want 429 with Retry-After 40", st, retry, body)
	}
	s.Advance(10 * time.Minute) // mock time does not count
	if st, _, _ := statusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusTooManyRequests {
		t.Fatalf("after moving the mock clock: %d, want 429 still", st)
	}
	if st, _, _ := statusRaw(t, s, b.UUID, b.PayloadHash); st != 200 {
		t.Fatalf("another job: %d, want 200", st)
	}
	wall.add(39 * time.Second)
	if st, retry, _ := statusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusTooManyRequests || retry != "1" {
		t.Fatalf("1 s before the window moves: %d, Retry-After %q", st, retry)
	}
	wall.add(time.Second)
	if st, _, body := statusRaw(t, s, a.UUID, a.PayloadHash); st != 200 {
		t.Fatalf("once the first check left the window: %d %s", st, body)
	}
	if st, _, _ := statusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusTooManyRequests {
		t.Fatalf("the window holds 20 again: %d", st)
	}
	for i := range send.StatusLimit + 1 {
		st, _, _ := statusRaw(t, s, "00000000-0000-4000-8000-000000000000", "ab")
		if want := map[bool]int{true: 429, false: 404}[i == send.StatusLimit]; st != want {
			t.Fatalf("unknown pair, check %d: %d, want %d", i+1, st, want)
		}
	}
	s.Reset()
	if st, _, _ := statusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusNotFound {
		t.Fatalf("after reset: %d, want 404 (the limit is forgotten with the job)", st)
	}
}
