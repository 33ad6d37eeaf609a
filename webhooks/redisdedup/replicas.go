package redisdedup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/rediswait"
)

// ErrNotReplicated is matched (errors.Is) by the error of a Claim,
// Release or Extend whose write fewer replicas acknowledged than
// WithReplicas asks for: the write is on the primary, but a failover may
// lose it. A Verifier answers such a delivery 500, and the platform sends
// it again.
var ErrNotReplicated = errors.New("redisdedup: too few replicas acknowledged the write")

// replicas is what WithReplicas asked for.
type replicas struct {
	set     bool
	n       int
	timeout time.Duration
}

// WithReplicas makes every write of the Store (the SET of Claim and
// Extend, the delete of Release) wait until n replicas have it: the write
// and WAIT n timeout go in one pipeline, on one connection, to the primary
// of the claim's key (on a cluster, ClusterClient.MasterForKey). When fewer
// than n replicas acknowledge within timeout, the call returns an error
// matching ErrNotReplicated. A Claim refused because the id is claimed
// waits too, so that the claim it saw is one that survives a failover.
//
// n must be at least 1, and timeout at least 1 ms and below the client's
// ReadTimeout; the client must be a *redis.Client (a single node, or
// redis.NewFailoverClient for Sentinel) or a *redis.ClusterClient, not a
// *redis.Ring. New keeps its signature, so a setting it cannot use makes
// every Claim, Release and Extend fail with an error that says why.
//
// On a cluster the pipeline follows no redirection: an answer that the slot
// moved or is moving, or a node that is gone, makes the cluster client
// reload its slot table and returns the error, for the caller's retry.
func WithReplicas(n int, timeout time.Duration) Option {
	return func(s *Store) { s.replicas = replicas{set: true, n: n, timeout: timeout} }
}

// setupReplicas checks WithReplicas' settings against the client; a
// refusal is kept in s.bad for every call to return.
func (s *Store) setupReplicas() {
	if !s.replicas.set {
		return
	}
	w, err := rediswait.New(s.client, s.replicas.n, s.replicas.timeout, ErrNotReplicated)
	if err != nil {
		s.bad = fmt.Errorf("redisdedup: WithReplicas: %w", err)
		return
	}
	s.wait = w
}

// do runs the command args on key, followed by WAIT with WithReplicas;
// every command of the Store goes through it or run.
func (s *Store) do(ctx context.Context, key string, args ...any) *redis.Cmd {
	if s.wait == nil {
		return s.client.Do(ctx, args...)
	}
	return s.wait.Do(ctx, key, args...)
}

// run runs the script sc on keys, followed by WAIT with WithReplicas.
func (s *Store) run(ctx context.Context, sc *redis.Script, keys []string, args ...any) *redis.Cmd {
	if s.wait == nil {
		return sc.Run(ctx, s.client, keys, args...)
	}
	return s.wait.Script(ctx, sc, keys, args...)
}
