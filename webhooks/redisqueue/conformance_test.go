package redisqueue_test

import (
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/queue/queuetest"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

var conformanceStreams atomic.Int64

// The Redis queue keeps the contract of queue.Queue and of the optional
// interfaces it implements (DeadLetterList, Leaser, Idempotent), against a
// real redis-server; each subtest has streams of its own.
func TestConformance(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	queuetest.Run(t, func(t *testing.T) queue.Queue {
		tag := fmt.Sprintf("{conformance-%d}", conformanceStreams.Add(1))
		q := newQueue(t, client(t, addr),
			redisqueue.WithStreams(tag+":events", tag+":dead"),
			redisqueue.WithVisibilityTimeout(300*time.Millisecond),
			redisqueue.WithLogger(slog.New(slog.DiscardHandler)))
		t.Cleanup(func() { q.Close() })
		return q
	})
}
