// Package clock is the mock server's source of time and its scheduler:
// real time plus what Advance added, or a manual clock that only Advance
// moves, and tasks that run when mock time reaches them.
package clock

import (
	"container/heap"
	"sync"
	"sync/atomic"
	"time"
)

// Clock is the server's source of time and its scheduler. With the real
// clock, mock time is the wall clock plus whatever Advance added, and a
// runner goroutine starts tasks when they fall due. With the manual clock,
// time moves only by Advance, which runs the tasks that fall due in time
// order. Either way, work started through Go or by a task is "in flight"
// and Advance waits for it.
type Clock struct {
	manual bool
	start  time.Time // manual clock: where Rewind takes it back

	mu     sync.Mutex
	idle   *sync.Cond // signalled when busy drops to zero
	base   time.Time  // manual clock: the current mock time
	offset time.Duration

	// Copies of base and offset that Now reads without the lock (every
	// request reads the time); they change only under mu, with base and
	// offset.
	baseNow   atomic.Pointer[time.Time]
	offsetNow atomic.Int64
	tasks     taskQueue
	seq       uint64
	busy      int
	closed    bool

	advanceMu sync.Mutex // one Advance at a time
	wake      chan struct{}
	done      chan struct{}
	stopped   chan struct{}
}

// Task is one piece of work due at a mock time. Cancel it with Clock.Cancel.
type Task struct {
	at    time.Time
	seq   uint64
	fn    func()
	index int // position in the heap; -1 once popped or cancelled
}

// New answers a clock at start: manual, moved only by Advance, or real
// (start is ignored), whose runner goroutine starts tasks when they fall due.
func New(manual bool, start time.Time) *Clock {
	c := &Clock{manual: manual, base: start, start: start, wake: make(chan struct{}, 1),
		done: make(chan struct{}), stopped: make(chan struct{})}
	c.idle = sync.NewCond(&c.mu)
	c.baseNow.Store(&start)
	if manual {
		close(c.stopped)
	} else {
		go c.run()
	}
	return c
}

// Rewind takes the clock back to where it started: a manual clock to its
// start, a real clock to the wall clock (the offset Advance added is
// dropped). Scheduled tasks are not touched: the caller drops them first
// (reset).
func (c *Clock) Rewind() {
	c.advanceMu.Lock()
	defer c.advanceMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.manual {
		c.setBase(c.start)
		return
	}
	c.offset = 0
	c.offsetNow.Store(0)
}

// Now answers the current mock time.
func (c *Clock) Now() time.Time {
	if c.manual {
		return *c.baseNow.Load()
	}
	return time.Now().Add(time.Duration(c.offsetNow.Load()))
}

// nowLocked answers the current mock time; c.mu is held.
func (c *Clock) nowLocked() time.Time {
	if c.manual {
		return c.base
	}
	return time.Now().Add(c.offset)
}

// setBase moves the manual clock's time to t; c.mu is held.
func (c *Clock) setBase(t time.Time) {
	c.base = t
	c.baseNow.Store(&t)
}

// At schedules fn to run when mock time reaches t. A t that is not in the
// future starts fn at once, in the background. The returned Task can be
// cancelled until it starts.
func (c *Clock) At(t time.Time, fn func()) *Task {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	tk := &Task{at: t, seq: c.seq, fn: fn, index: -1}
	if c.closed {
		return tk
	}
	if !t.After(c.nowLocked()) {
		c.startLocked(fn)
		return tk
	}
	heap.Push(&c.tasks, tk)
	c.poke()
	return tk
}

// After schedules fn to run d of mock time from now.
func (c *Clock) After(d time.Duration, fn func()) *Task {
	return c.At(c.Now().Add(d), fn)
}

// Cancel removes a Task that has not started yet; it reports whether it did.
func (c *Clock) Cancel(tk *Task) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if tk == nil || tk.index < 0 {
		return false
	}
	heap.Remove(&c.tasks, tk.index)
	return true
}

// Go runs fn in the background as work in flight, which Advance and Close
// wait for.
func (c *Clock) Go(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.startLocked(fn)
}

func (c *Clock) startLocked(fn func()) {
	c.busy++
	go func() {
		defer c.finish()
		fn()
	}()
}

func (c *Clock) finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.busy--
	if c.busy == 0 {
		c.idle.Broadcast()
	}
}

// WaitIdle returns once no work is in flight.
func (c *Clock) WaitIdle() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.busy > 0 {
		c.idle.Wait()
	}
}

// Advance moves mock time forward by d. It first waits for work in flight,
// then runs every Task that falls due, in time order (tasks due at the same
// instant run concurrently), waiting after each instant for the work they
// started; then it returns. It must not be called from a Task.
func (c *Clock) Advance(d time.Duration) {
	c.advanceMu.Lock()
	defer c.advanceMu.Unlock()
	c.WaitIdle()
	d = max(d, 0)
	c.mu.Lock()
	target := c.base.Add(d)
	if !c.manual {
		c.offset += d
		c.offsetNow.Store(int64(c.offset))
		target = c.nowLocked()
	}
	c.mu.Unlock()
	for c.runDue(target) {
		c.WaitIdle()
	}
	c.mu.Lock()
	if c.manual && target.After(c.base) {
		c.setBase(target)
	}
	c.mu.Unlock()
}

// runDue starts the tasks due at the earliest instant not after target and
// reports whether there were any.
func (c *Clock) runDue(target time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.tasks) == 0 || c.tasks[0].at.After(target) || c.closed {
		return false
	}
	instant := c.tasks[0].at
	if c.manual && instant.After(c.base) {
		c.setBase(instant)
	}
	for len(c.tasks) > 0 && c.tasks[0].at.Equal(instant) {
		tk := heap.Pop(&c.tasks).(*Task)
		c.startLocked(tk.fn)
	}
	return true
}

// run is the real clock's runner: it starts tasks as they fall due.
func (c *Clock) run() {
	defer close(c.stopped)
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		c.mu.Lock()
		wait := time.Hour
		if len(c.tasks) > 0 {
			wait = c.tasks[0].at.Sub(c.nowLocked())
		}
		c.mu.Unlock()
		if wait <= 0 {
			c.runDue(c.Now())
			continue
		}
		timer.Reset(wait)
		select {
		case <-c.done:
			return
		case <-c.wake:
		case <-timer.C:
		}
	}
}

// poke tells the runner that the earliest Task may have changed.
func (c *Clock) poke() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// DropTasks forgets every scheduled Task (used by reset); work in flight
// goes on.
func (c *Clock) DropTasks() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, tk := range c.tasks {
		tk.index = -1
	}
	c.tasks = nil
}

// Closed reports whether Close was called: the server is shutting down.
func (c *Clock) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Close stops the runner, drops scheduled tasks and waits for work in flight.
func (c *Clock) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	c.mu.Unlock()
	c.DropTasks()
	if !c.manual {
		close(c.done)
	}
	<-c.stopped
	c.WaitIdle()
}

// taskQueue is a min-heap of tasks by due time, then by scheduling order.
type taskQueue []*Task

func (q taskQueue) Len() int { return len(q) }
func (q taskQueue) Less(i, j int) bool {
	if !q[i].at.Equal(q[j].at) {
		return q[i].at.Before(q[j].at)
	}
	return q[i].seq < q[j].seq
}
func (q taskQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].index, q[j].index = i, j
}

// Push implements heap.Interface.
func (q *taskQueue) Push(x any) {
	tk := x.(*Task)
	tk.index = len(*q)
	*q = append(*q, tk)
}

// Pop implements heap.Interface.
func (q *taskQueue) Pop() any {
	old := *q
	tk := old[len(old)-1]
	old[len(old)-1] = nil
	tk.index = -1
	*q = old[:len(old)-1]
	return tk
}
