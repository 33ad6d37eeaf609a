package queuetest_test

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/signkit/signkit-go/webhooks/internal/mutants"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/queue/queuetest"
)

// Each mutant is the memory queue with one promise broken; the key is the
// subtest of the suite that must catch it.
var mutantsByName = map[string]func(*queue.Memory) queue.Queue{
	"EnqueueNext":       func(m *queue.Memory) queue.Queue { return trimsBody{m} },
	"EachEntryOnce":     func(m *queue.Memory) queue.Queue { return &handsOutTwice{Memory: m} },
	"NextWaits":         func(m *queue.Memory) queue.Queue { return givesUpEarly{m} },
	"AckRemoves":        func(m *queue.Memory) queue.Queue { return ackKeeps{m} },
	"DeadLetterRemoves": func(m *queue.Memory) queue.Queue { return deadLetterReplays{m} },
	"Close":             func(m *queue.Memory) queue.Queue { return enqueuesWhenClosed{m} },
	"CloseWithEntries":  func(m *queue.Memory) queue.Queue { return &stopsAtClose{Memory: m} },
	"DeadLetterList":    func(m *queue.Memory) queue.Queue { return listsNewestFirst{m} },
	"Unacked":           func(m *queue.Memory) queue.Queue { return forgetsUnacked{m} },
}

// TestMutant runs the suite on the mutant that mutants.Running names; it is
// run, in a process of its own, by TestSuiteCatchesBrokenQueues.
func TestMutant(t *testing.T) {
	name := mutants.Running()
	if name == "" {
		t.Skip("run by TestSuiteCatchesBrokenQueues")
	}
	queuetest.Run(t, func(t *testing.T) queue.Queue {
		q := queue.NewMemory(100)
		t.Cleanup(func() { q.Close() })
		return mutantsByName[name](q)
	})
}

// The suite is honest: for each mutant, the subtest that checks the promise
// it breaks fails.
func TestSuiteCatchesBrokenQueues(t *testing.T) {
	mutants.ExpectCaught(t, "TestMutant", "a queue", slices.Sorted(maps.Keys(mutantsByName)))
}

type trimsBody struct{ *queue.Memory }

func (q trimsBody) Next(ctx context.Context) (*queue.Message, error) {
	m, err := q.Memory.Next(ctx)
	if err == nil && len(m.Body) > 0 {
		c := *m
		c.Body = m.Body[:len(m.Body)-1]
		return &c, nil
	}
	return m, err
}

type handsOutTwice struct {
	*queue.Memory
	mu   sync.Mutex
	last *queue.Message
}

func (q *handsOutTwice) Next(ctx context.Context) (*queue.Message, error) {
	q.mu.Lock()
	if m := q.last; m != nil {
		q.last = nil
		q.mu.Unlock()
		return m, nil
	}
	q.mu.Unlock()
	m, err := q.Memory.Next(ctx)
	if err == nil {
		q.mu.Lock()
		c := *m
		q.last = &c
		q.mu.Unlock()
	}
	return m, err
}

type givesUpEarly struct{ *queue.Memory }

func (q givesUpEarly) Next(ctx context.Context) (*queue.Message, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Millisecond)
	defer cancel()
	return q.Memory.Next(ctx)
}

type ackKeeps struct{ *queue.Memory }

func (ackKeeps) Ack(context.Context, *queue.Message) error { return nil }

type deadLetterReplays struct{ *queue.Memory }

func (q deadLetterReplays) DeadLetter(ctx context.Context, m *queue.Message, reason string) error {
	if err := q.Memory.DeadLetter(ctx, m, reason); err != nil {
		return err
	}
	return q.Replay(ctx, m.Key)
}

type enqueuesWhenClosed struct{ *queue.Memory }

func (q enqueuesWhenClosed) Enqueue(ctx context.Context, d queue.Delivery) error {
	if err := q.Memory.Enqueue(ctx, d); !errors.Is(err, queue.ErrClosed) {
		return err
	}
	return nil
}

type stopsAtClose struct {
	*queue.Memory
	mu     sync.Mutex
	closed bool
}

func (q *stopsAtClose) Close() error {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	return q.Memory.Close()
}

func (q *stopsAtClose) Next(ctx context.Context) (*queue.Message, error) {
	q.mu.Lock()
	closed := q.closed
	q.mu.Unlock()
	if closed {
		return nil, queue.ErrClosed
	}
	return q.Memory.Next(ctx)
}

type listsNewestFirst struct{ *queue.Memory }

func (q listsNewestFirst) DeadLetters(ctx context.Context, limit int) ([]queue.DeadLetter, error) {
	dead, err := q.Memory.DeadLetters(ctx, limit)
	slices.Reverse(dead)
	return dead, err
}

type forgetsUnacked struct{ *queue.Memory }

func (q forgetsUnacked) Unacked() []queue.Delivery {
	q.Memory.Unacked()
	return nil
}
