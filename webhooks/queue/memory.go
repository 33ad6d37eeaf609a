package queue

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"
)

// Memory is a Queue in the receiver's memory. It is not durable: a crash of
// the process loses every delivery it holds, and those were acknowledged to
// the platform, which will not send them again. It never loses one on an
// error or a panic: entries stay until Ack or DeadLetter, and Unacked
// returns the rest after Close.
//
// Enqueue is idempotent while the queue holds the id: an event id waiting,
// in hand or dead-lettered is not added again. Once acknowledged,
// discarded or taken out by Unacked, the id is forgotten.
//
// Its storage follows its backlog: the memory taken by a burst is given
// back as the burst drains, and a steady backlog keeps a steady amount
// however many events pass through.
type Memory struct {
	mu         sync.Mutex
	capacity   int
	seq        uint64
	ready      []*Message          // FIFO, from readyAt on
	readyAt    int                 // index of the first ready entry
	leased     map[string]*Message // handed out, not yet acked
	leasedPeak int                 // largest len(leased) since the map was made
	held       map[string]struct{} // event ids waiting, in hand or dead
	heldPeak   int                 // largest len(held) since the map was made
	dead       []DeadLetter
	closed     bool
	changed    chan struct{} // closed and replaced when ready or closed change
	now        func() time.Time
}

// minStorage is the size below which the queue's slices and maps are not
// reallocated to shrink them.
const minStorage = 64

var (
	_ Queue          = (*Memory)(nil)
	_ DeadLetterList = (*Memory)(nil)
	_ Volatile       = (*Memory)(nil)
)

// NewMemory returns an empty memory queue that holds at most capacity
// deliveries, waiting, in process or dead-lettered (at least 1); Enqueue
// beyond that returns ErrFull, which a receiver answers 503 so that the
// platform retries later.
func NewMemory(capacity int) *Memory {
	return &Memory{
		capacity: max(capacity, 1),
		leased:   make(map[string]*Message),
		held:     make(map[string]struct{}),
		changed:  make(chan struct{}),
		now:      time.Now,
	}
}

// Enqueue implements Queue. An id the queue holds already (waiting, in
// hand or dead-lettered) is not added again, and Enqueue returns nil.
func (q *Memory) Enqueue(_ context.Context, d Delivery) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch _, dup := q.held[d.ID]; {
	case q.closed:
		return ErrClosed
	case dup:
		return nil
	case q.len() >= q.capacity:
		return ErrFull
	}
	q.held[d.ID] = struct{}{}
	q.heldPeak = max(q.heldPeak, len(q.held))
	q.seq++
	q.push(&Message{Delivery: d, Key: strconv.FormatUint(q.seq, 10)})
	return nil
}

func (q *Memory) len() int { return len(q.ready) - q.readyAt + len(q.leased) + len(q.dead) }

func (q *Memory) push(m *Message) {
	q.ready = append(q.ready, m)
	q.signal()
}

// signal wakes every Next that waits.
func (q *Memory) signal() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// Next implements Queue.
func (q *Memory) Next(ctx context.Context) (*Message, error) {
	for {
		q.mu.Lock()
		if q.readyAt < len(q.ready) {
			m := q.pop()
			m.Deliveries++
			q.leased[m.Key] = m
			q.leasedPeak = max(q.leasedPeak, len(q.leased))
			q.mu.Unlock()
			return m, nil
		}
		closed, changed := q.closed, q.changed
		q.mu.Unlock()
		if closed {
			return nil, ErrClosed
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// pop takes out the first waiting entry. Once half of q.ready or more is
// spent, the waiting entries move to its front, or to a smaller slice when
// it is more than four times too large: each entry is moved at most once
// per entry taken out before it, and the slice stays within a small
// multiple of the backlog.
func (q *Memory) pop() *Message {
	m := q.ready[q.readyAt]
	q.ready[q.readyAt] = nil
	q.readyAt++
	if 2*q.readyAt < len(q.ready) {
		return m
	}
	waiting := q.ready[q.readyAt:]
	if c := cap(q.ready); c > minStorage && c > 4*len(waiting) {
		q.ready = append(make([]*Message, 0, max(2*len(waiting), minStorage)), waiting...)
	} else {
		n := copy(q.ready, waiting)
		clear(q.ready[n:])
		q.ready = q.ready[:n]
	}
	q.readyAt = 0
	return m
}

// forget removes the event id from q.held, and makes the map again once
// it holds less than a quarter of its peak: a Go map keeps the size of its
// peak otherwise.
func (q *Memory) forget(id string) {
	delete(q.held, id)
	q.held, q.heldPeak = shrunk(q.held, q.heldPeak)
}

// unlease removes the hand-out key from q.leased, and shrinks it like forget.
func (q *Memory) unlease(key string) {
	delete(q.leased, key)
	q.leased, q.leasedPeak = shrunk(q.leased, q.leasedPeak)
}

// shrunk returns m, or a copy of it when it holds less than a quarter of
// peak, with the new peak. The copy costs len(m), less than the deletions
// since the peak.
func shrunk[V any](m map[string]V, peak int) (map[string]V, int) {
	if peak < minStorage || 4*len(m) >= peak {
		return m, peak
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c, len(c)
}

// removeDead deletes q.dead[i], shrinking the slice when it is more than
// four times too large.
func (q *Memory) removeDead(i int) {
	q.dead = slices.Delete(q.dead, i, i+1)
	if c := cap(q.dead); c > minStorage && c > 4*len(q.dead) {
		q.dead = append(make([]DeadLetter, 0, 2*len(q.dead)), q.dead...)
	}
}

// Touch implements Queue: an entry in memory stays with its worker, until
// Unacked takes it out (then ErrClaimLost).
func (q *Memory) Touch(_ context.Context, m *Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.leased[m.Key]; !ok {
		return ErrClaimLost
	}
	return nil
}

// Ack implements Queue. Acknowledging an entry that Unacked took out does
// nothing.
func (q *Memory) Ack(_ context.Context, m *Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.leased[m.Key]; ok {
		q.unlease(m.Key)
		q.forget(m.ID)
	}
	return nil
}

// DeadLetter implements Queue. An entry that Unacked took out (it was
// handed back to the platform) is not dead-lettered: ErrClaimLost.
func (q *Memory) DeadLetter(_ context.Context, m *Message, reason string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.leased[m.Key]; !ok {
		return ErrClaimLost
	}
	q.unlease(m.Key)
	q.dead = append(q.dead, DeadLetter{
		Delivery: m.Delivery, Key: m.Key, Reason: reason, Deliveries: m.Deliveries, Time: q.now(),
	})
	return nil
}

// Close implements Queue.
func (q *Memory) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		q.signal()
	}
	return nil
}

// Unacked implements Volatile: it takes out and returns the entries waiting
// and those handed out but neither acknowledged nor dead-lettered. Dead
// letters stay.
func (q *Memory) Unacked() []Delivery {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Delivery
	for _, m := range q.ready[q.readyAt:] {
		out = append(out, m.Delivery)
		q.forget(m.ID)
	}
	q.ready, q.readyAt = nil, 0
	for _, m := range q.leased {
		out = append(out, m.Delivery)
		q.forget(m.ID)
	}
	q.leased, q.leasedPeak = make(map[string]*Message), 0
	return out
}

// DeadLetters implements DeadLetterList.
func (q *Memory) DeadLetters(_ context.Context, limit int) ([]DeadLetter, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	n := min(max(limit, 0), len(q.dead))
	return append([]DeadLetter(nil), q.dead[:n]...), nil
}

// Replay implements DeadLetterList: the delivery waits again, behind those
// already waiting. A closed queue still takes it back, for Unacked.
func (q *Memory) Replay(_ context.Context, key string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := q.deadIndex(key)
	if i < 0 {
		return ErrNotFound
	}
	d := q.dead[i]
	q.removeDead(i)
	q.push(&Message{Delivery: d.Delivery, Key: d.Key})
	return nil
}

// Discard implements DeadLetterList.
func (q *Memory) Discard(_ context.Context, key string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := q.deadIndex(key)
	if i < 0 {
		return ErrNotFound
	}
	q.forget(q.dead[i].ID)
	q.removeDead(i)
	return nil
}

func (q *Memory) deadIndex(key string) int {
	for i, d := range q.dead {
		if d.Key == key {
			return i
		}
	}
	return -1
}
