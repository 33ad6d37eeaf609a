package clock

import (
	"slices"
	"sync"
	"testing"
	"time"
)

var epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestManualClockRunsTasksInTimeOrder(t *testing.T) {
	t.Parallel()
	c := New(true, epoch)
	defer c.Close()
	var mu sync.Mutex
	var got []string
	rec := func(name string) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, name+"@"+c.Now().Sub(epoch).String())
		}
	}
	c.After(3*time.Second, rec("c"))
	c.After(time.Second, func() {
		rec("a")()
		c.After(time.Second, rec("b")) // scheduled by a Task, due within the same Advance
		c.Go(func() { time.Sleep(20 * time.Millisecond); rec("bg")() })
	})
	cancelled := c.After(2*time.Second, rec("cancelled"))
	if !c.Cancel(cancelled) || c.Cancel(cancelled) {
		t.Fatal("cancel should succeed once")
	}
	c.After(10*time.Second, rec("late"))
	c.Advance(5 * time.Second)
	want := []string{"a@1s", "bg@1s", "b@2s", "c@3s"}
	if !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if !c.Now().Equal(epoch.Add(5 * time.Second)) {
		t.Fatalf("now %v", c.Now())
	}
	c.Advance(5 * time.Second)
	if got[len(got)-1] != "late@10s" {
		t.Fatalf("late Task: %v", got)
	}
}

func TestManualClockPastTaskRunsAtOnce(t *testing.T) {
	t.Parallel()
	c := New(true, epoch)
	defer c.Close()
	done := make(chan struct{})
	c.At(epoch.Add(-time.Second), func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("past Task did not run")
	}
}

func TestRealClockRunsTasksAndAdvanceJumps(t *testing.T) {
	t.Parallel()
	c := New(false, time.Time{})
	defer c.Close()
	ran := make(chan time.Time, 2)
	c.After(30*time.Millisecond, func() { ran <- time.Now() })
	start := time.Now()
	select {
	case at := <-ran:
		if at.Sub(start) < 25*time.Millisecond {
			t.Fatalf("Task ran early: %v", at.Sub(start))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("real-clock Task did not run")
	}
	var hourRan bool
	c.After(time.Hour, func() { hourRan = true })
	before := c.Now()
	c.Advance(time.Hour + time.Second)
	if !hourRan { // advance waited for it, so no race
		t.Fatal("Advance did not run the Task due within the hour")
	}
	if d := c.Now().Sub(before); d < time.Hour {
		t.Fatalf("mock time moved %v", d)
	}
}

// Rewind takes a manual clock back to its start and a real clock back to
// the wall clock; work scheduled after it runs at its own time, and it is
// safe beside Advance.
func TestRewind(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	c := New(true, start)
	defer c.Close()
	c.Advance(time.Hour)
	c.DropTasks()
	c.Rewind()
	if !c.Now().Equal(start) {
		t.Fatalf("manual clock after Rewind: %v, want %v", c.Now(), start)
	}
	ran := make(chan time.Time, 1)
	c.After(time.Minute, func() { ran <- c.Now() })
	c.Advance(2 * time.Minute)
	select {
	case at := <-ran:
		if !at.Equal(start.Add(time.Minute)) {
			t.Errorf("a task scheduled after Rewind ran at %v, want %v", at, start.Add(time.Minute))
		}
	default:
		t.Fatal("a task scheduled after Rewind did not run")
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 100 {
			c.Advance(time.Second)
		}
	}()
	for range 100 {
		c.Rewind()
	}
	<-done

	r := New(false, time.Time{})
	defer r.Close()
	r.Advance(48 * time.Hour)
	r.Rewind()
	if d := time.Until(r.Now()); d > time.Minute || d < -time.Minute {
		t.Fatalf("real clock after Rewind is %v off the wall clock", d)
	}
}
