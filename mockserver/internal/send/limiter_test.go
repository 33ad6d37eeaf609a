package send

import (
	"fmt"
	"strconv"
	"testing"
	"time"
)

// manualWall is a wall clock the test moves by hand.
type manualWall struct{ t time.Time }

func (w *manualWall) now() time.Time      { return w.t }
func (w *manualWall) add(d time.Duration) { w.t = w.t.Add(d) }

func TestRateLimiterStaysBounded(t *testing.T) {
	t.Parallel()
	wall := &manualWall{t: time.Unix(0, 0)}
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
