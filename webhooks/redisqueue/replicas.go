package redisqueue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/rediswait"
)

// ErrNotReplicated is matched (errors.Is) by the error of a write that
// fewer replicas acknowledged than WithReplicas asks for: the write is on
// the primary but may be lost with it. Enqueue's error makes AsyncHandler
// answer 500, and the platform sends the delivery again.
var ErrNotReplicated = errors.New("redisqueue: too few replicas acknowledged the write")

// replicas is what WithReplicas asked for.
type replicas struct {
	set     bool
	n       int
	timeout time.Duration
}

// WithReplicas makes every write of the queue (the scripts of Enqueue, the
// hand-out in Next, Touch, Ack, DeadLetter, Replay and Discard, and the
// removal of idle consumers)
// wait until n replicas have it: the write and WAIT n timeout go in one
// pipeline, on one connection, to the primary of the stream's slot. When
// fewer than n replicas acknowledge within timeout, the call returns an
// error matching ErrNotReplicated: the write is on the primary, but a
// failover may lose it. An Enqueue that fails so is answered 500 and sent
// again by the platform, and adds nothing twice.
//
// Without it, the queue's 2xx is as durable as the primary alone: a replica may
// lag its primary, and a failover to it loses what it lacked
// (https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#what-a-2xx-guarantees
// gives the guarantees with and without it, as the Cluster and Sentinel tests
// show them). With it, every delivery is answered 500 while no replica of the
// stream's shard is in sync, as after a failover until the old primary comes
// back as a replica.
//
// n must be at least 1, and timeout at least 1 ms and below the client's
// ReadTimeout; the client must be a *redis.Client (a single node, or
// redis.NewFailoverClient for Sentinel) or a *redis.ClusterClient. New
// refuses anything else, and a *redis.Ring.
//
// On a cluster the pipeline goes to the primary that the cluster client's
// slot table names (ClusterClient.MasterForKey), and it follows no
// redirection: a write refused because the slot moved or is moving (MOVED,
// ASK, TRYAGAIN) or because the node is gone makes the cluster client
// reload its slot table and returns the error, so that the platform's
// re-send, or the worker's next try, goes to the new primary. A primary
// that does not know a script (one freshly promoted) runs it from source.
func WithReplicas(n int, timeout time.Duration) Option {
	return func(q *Queue) { q.replicas = replicas{set: true, n: n, timeout: timeout} }
}

// setupReplicas checks WithReplicas' settings against client.
func (q *Queue) setupReplicas(client redis.UniversalClient) error {
	if !q.replicas.set {
		return nil
	}
	w, err := rediswait.New(client, q.replicas.n, q.replicas.timeout, ErrNotReplicated)
	if err != nil {
		return fmt.Errorf("redisqueue: WithReplicas: %w", err)
	}
	q.wait = w
	return nil
}

// run runs one of the queue's scripts, followed by WAIT with WithReplicas;
// every script that writes goes through it.
func (q *Queue) run(ctx context.Context, s *redis.Script, keys []string, args ...any) *redis.Cmd {
	if q.wait == nil {
		return s.Run(ctx, q.rdb, keys, args...)
	}
	return q.wait.Script(ctx, s, keys, args...)
}
