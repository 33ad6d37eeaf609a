package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
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

// sndStatusRaw calls the queue status check and answers the status and the
// Retry-After header.
func sndStatusRaw(t *testing.T, s *Server, uuid, hash string) (int, string, []byte) {
	t.Helper()
	req := jsonRequest(t, s, "POST", "/send/api/v1/queue/public/status", map[string]string{"uuid": uuid, "payloadHash": hash})
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
	s, tok, file := sndServer(t)
	wall := &fakeWall{t: time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)}
	s.sign.polls.mu.Lock()
	s.sign.polls.now = wall.now
	s.sign.polls.mu.Unlock()
	_, _, a := sndCreate(t, s, tok, sndData(t, cfTitled("A", nil)), file)
	_, _, b := sndCreate(t, s, tok, sndData(t, cfTitled("B", nil)), file)
	for i := range queueStatusLimit {
		if st, _, body := sndStatusRaw(t, s, a.UUID, a.PayloadHash); st != 200 {
			t.Fatalf("check %d: %d %s", i+1, st, body)
		}
		wall.add(time.Second)
	}
	// 20 checks over 20 s: the first leaves the window at 60 s, 40 s from now.
	st, retry, body := sndStatusRaw(t, s, a.UUID, a.PayloadHash)
	var e apiErr
	_ = json.Unmarshal(body, &e)
	if st != http.StatusTooManyRequests || retry != "40" || e.StatusCode != 429 {
		t.Fatalf("check 21: %d, Retry-After %q, %s; want 429 with Retry-After 40", st, retry, body)
	}
	s.Advance(10 * time.Minute) // mock time does not count
	if st, _, _ := sndStatusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusTooManyRequests {
		t.Fatalf("after moving the mock clock: %d, want 429 still", st)
	}
	if st, _, _ := sndStatusRaw(t, s, b.UUID, b.PayloadHash); st != 200 {
		t.Fatalf("another job: %d, want 200", st)
	}
	wall.add(39 * time.Second)
	if st, retry, _ := sndStatusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusTooManyRequests || retry != "1" {
		t.Fatalf("1 s before the window moves: %d, Retry-After %q", st, retry)
	}
	wall.add(time.Second)
	if st, _, body := sndStatusRaw(t, s, a.UUID, a.PayloadHash); st != 200 {
		t.Fatalf("once the first check left the window: %d %s", st, body)
	}
	if st, _, _ := sndStatusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusTooManyRequests {
		t.Fatalf("the window holds 20 again: %d", st)
	}
	for i := range queueStatusLimit + 1 {
		st, _, _ := sndStatusRaw(t, s, "00000000-0000-4000-8000-000000000000", "ab")
		if want := map[bool]int{true: 429, false: 404}[i == queueStatusLimit]; st != want {
			t.Fatalf("unknown pair, check %d: %d, want %d", i+1, st, want)
		}
	}
	s.Reset()
	if st, _, _ := sndStatusRaw(t, s, a.UUID, a.PayloadHash); st != http.StatusNotFound {
		t.Fatalf("after reset: %d, want 404 (the limit is forgotten with the job)", st)
	}
}

func TestRateLimiterStaysBounded(t *testing.T) {
	t.Parallel()
	wall := &fakeWall{t: time.Unix(0, 0)}
	l := newRateLimiter(2, time.Minute, wall.now)
	for i := range maxLimitKeys {
		if ok, _ := l.allow(strconv.Itoa(i)); !ok {
			t.Fatalf("key %d refused", i)
		}
	}
	if ok, _ := l.allow("0"); !ok {
		t.Fatal("the second event of a key is refused")
	}
	if ok, wait := l.allow("0"); ok || wait != time.Minute {
		t.Fatalf("the third event: %v, wait %v; want refused for a minute", ok, wait)
	}
	wall.add(time.Minute)
	if ok, _ := l.allow("new"); !ok || len(l.hits) > maxLimitKeys {
		t.Fatalf("a new key past the bound: %v with %d keys", ok, len(l.hits))
	}
	if n := len(l.hits); n != 1 {
		t.Fatalf("%d keys after pruning, want only the new one (the others left the window)", n)
	}
	wall.add(-time.Minute + time.Second) // every key in its window: pruning drops arbitrary ones
	l2 := newRateLimiter(1, time.Minute, wall.now)
	for i := range maxLimitKeys + 1 {
		l2.allow(fmt.Sprint(i))
	}
	if n := len(l2.hits); n > maxLimitKeys || n < maxLimitKeys/2 {
		t.Fatalf("%d keys, want at most %d", n, maxLimitKeys)
	}
}
