package queue_test

import (
	"testing"

	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/queue/queuetest"
)

// The memory queue keeps the contract of queue.Queue and of the optional
// interfaces it implements (DeadLetterList, Volatile).
func TestMemoryConformance(t *testing.T) {
	t.Parallel()
	queuetest.Run(t, func(t *testing.T) queue.Queue {
		q := queue.NewMemory(100)
		t.Cleanup(func() { q.Close() })
		return q
	})
}
