package mockserver

import (
	"slices"
	"sync"
	"testing"
	"time"
)

func TestManualClockRunsTasksInTimeOrder(t *testing.T) {
	t.Parallel()
	c := newClock(true, epoch)
	defer c.close()
	var mu sync.Mutex
	var got []string
	rec := func(name string) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, name+"@"+c.now().Sub(epoch).String())
		}
	}
	c.after(3*time.Second, rec("c"))
	c.after(time.Second, func() {
		rec("a")()
		c.after(time.Second, rec("b")) // scheduled by a task, due within the same Advance
		c.go_(func() { time.Sleep(20 * time.Millisecond); rec("bg")() })
	})
	cancelled := c.after(2*time.Second, rec("cancelled"))
	if !c.cancel(cancelled) || c.cancel(cancelled) {
		t.Fatal("cancel should succeed once")
	}
	c.after(10*time.Second, rec("late"))
	c.advance(5 * time.Second)
	want := []string{"a@1s", "bg@1s", "b@2s", "c@3s"}
	if !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if !c.now().Equal(epoch.Add(5 * time.Second)) {
		t.Fatalf("now %v", c.now())
	}
	c.advance(5 * time.Second)
	if got[len(got)-1] != "late@10s" {
		t.Fatalf("late task: %v", got)
	}
}

func TestManualClockPastTaskRunsAtOnce(t *testing.T) {
	t.Parallel()
	c := newClock(true, epoch)
	defer c.close()
	done := make(chan struct{})
	c.at(epoch.Add(-time.Second), func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("past task did not run")
	}
}

func TestRealClockRunsTasksAndAdvanceJumps(t *testing.T) {
	t.Parallel()
	c := newClock(false, time.Time{})
	defer c.close()
	ran := make(chan time.Time, 2)
	c.after(30*time.Millisecond, func() { ran <- time.Now() })
	start := time.Now()
	select {
	case at := <-ran:
		if at.Sub(start) < 25*time.Millisecond {
			t.Fatalf("task ran early: %v", at.Sub(start))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("real-clock task did not run")
	}
	var hourRan bool
	c.after(time.Hour, func() { hourRan = true })
	before := c.now()
	c.advance(time.Hour + time.Second)
	if !hourRan { // advance waited for it, so no race
		t.Fatal("Advance did not run the task due within the hour")
	}
	if d := c.now().Sub(before); d < time.Hour {
		t.Fatalf("mock time moved %v", d)
	}
}
