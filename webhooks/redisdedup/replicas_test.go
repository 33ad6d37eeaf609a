package redisdedup_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
)

// TestWithReplicasRefuses: New keeps its signature, so settings that WAIT
// cannot honour make every call fail with an error that says why, and
// nothing reaches Redis.
func TestWithReplicasRefuses(t *testing.T) {
	single := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ReadTimeout: time.Second})
	defer single.Close()
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": "127.0.0.1:1"}})
	defer ring.Close()
	for _, tc := range []struct {
		name    string
		client  redis.UniversalClient
		n       int
		timeout time.Duration
		want    string
	}{
		{"no replica", single, 0, 100 * time.Millisecond, "at least 1"},
		{"zero timeout", single, 1, 0, "at least 1ms"},
		{"timeout at the read timeout", single, 1, time.Second, "below the client's ReadTimeout"},
		{"ring", ring, 1, 100 * time.Millisecond, "Ring"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := redisdedup.New(tc.client, redisdedup.WithReplicas(tc.n, tc.timeout))
			ctx := context.Background()
			ok, err := s.Claim(ctx, "evt", time.Minute)
			if ok || err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "redisdedup: WithReplicas: ") {
				t.Fatalf("Claim: %v, %v; want an error saying %q", ok, err, tc.want)
			}
			if err := s.Release(ctx, "evt"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Release: %v", err)
			}
			if err := s.Extend(ctx, "evt", time.Minute); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Extend: %v", err)
			}
		})
	}
}

// TestWithReplicasWaits: on a primary with one replica, a claim is on the
// replica when Claim returns; with the replica stopped (SIGSTOP) Claim,
// Extend and Release fail with ErrNotReplicated; once it runs again they
// succeed.
func TestWithReplicasWaits(t *testing.T) {
	primary, replica := redistest.StartReplicated(t)
	ctx := context.Background()
	// 2 s, under the client's 3 s ReadTimeout: on a loaded machine (a cold
	// CI run) a healthy replica took more than 500 ms to acknowledge the
	// first write.
	s := redisdedup.New(newClient(t, primary.Addr), redisdedup.WithReplicas(1, 2*time.Second))
	onReplica := newClient(t, replica.Addr)
	if ok, err := s.Claim(ctx, "a", time.Minute); !ok || err != nil {
		t.Fatalf("Claim: %v, %v", ok, err)
	}
	if n := onReplica.Exists(ctx, redisdedup.DefaultPrefix+"a").Val(); n != 1 {
		t.Fatal("the claim is not on the replica when Claim returns")
	}
	if ok, err := s.Claim(ctx, "a", time.Minute); ok || err != nil {
		t.Fatalf("second Claim: %v, %v; want a refusal", ok, err)
	}
	if err := replica.Pause(); err != nil {
		t.Fatal(err)
	}
	_, err := s.Claim(ctx, "b", time.Minute)
	errExtend := s.Extend(ctx, "a", time.Minute)
	errRelease := s.Release(ctx, "a")
	if err := replica.Resume(); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{"Claim": err, "Extend": errExtend, "Release": errRelease} {
		if !errors.Is(err, redisdedup.ErrNotReplicated) {
			t.Errorf("%s with the replica stopped: %v; want ErrNotReplicated", name, err)
		}
	}
	if err := s.Release(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if n := onReplica.Exists(ctx, redisdedup.DefaultPrefix+"a").Val(); n != 0 {
		t.Fatal("the released claim is still on the replica when Release returns")
	}
}
