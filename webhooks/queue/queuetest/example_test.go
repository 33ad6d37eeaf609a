package queuetest_test

import (
	"testing"

	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/queue/queuetest"
)

// A queue proves that it keeps the contract from a test of its own package;
// here the memory queue stands for yours. newQueue hands each subtest an
// empty queue of its own and closes it at the subtest's end.
func Example() {
	_ = func(t *testing.T) { // func TestConformance(t *testing.T)
		queuetest.Run(t, func(t *testing.T) queue.Queue {
			q := queue.NewMemory(100)
			t.Cleanup(func() { q.Close() })
			return q
		})
	}
}
