package redistest_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
)

// TestClusterRig: the rig's cluster serves every slot; a replica cut from
// its primary misses a write; after the primary's kill -9 the replica is
// promoted, without that write; the old primary, started again, follows
// it; then the slot moves with its key to another primary.
func TestClusterRig(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	rdb := redis.NewClusterClient(&redis.ClusterOptions{Addrs: c.Addrs()})
	defer rdb.Close()
	const key = "{rig}:k"
	primary, replica, err := c.Shard(ctx, key)
	if err != nil || primary == nil || replica == nil {
		t.Fatalf("shard: %v, %v, %v", primary, replica, err)
	}
	if err := rdb.Set(ctx, key, "replicated", 0).Err(); err != nil {
		t.Fatal(err)
	}
	waitValue(ctx, t, replica, key, "replicated")
	restore, err := redistest.CutLink(ctx, replica)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if err := rdb.Set(ctx, key, "lost", 0).Err(); err != nil {
		t.Fatal(err)
	}
	primary.Kill()
	if err := c.WaitPrimary(ctx, replica, key); err != nil {
		t.Fatal(err)
	}
	if err := restore(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := rdb.Get(ctx, key).Result()
	for i := 0; err != nil && i < 50; i++ { // the client learns the new primary
		rdb.ReloadState(ctx) // go-redis reloads the slots by itself only on MOVED, or every ClusterStateReloadInterval
		time.Sleep(50 * time.Millisecond)
		v, err = rdb.Get(ctx, key).Result()
	}
	if v != "replicated" {
		t.Errorf("after the failover %s = %q, %v; want the value before the cut", key, v, err)
	}
	if err := primary.Start(); err != nil {
		t.Fatal(err)
	}
	if err := redistest.WaitReplicaOf(ctx, primary, replica); err != nil {
		t.Fatal(err)
	}

	var to *redistest.Server
	for _, n := range c.Nodes {
		if role, _ := redistest.Role(ctx, n); role == "master" && n != replica {
			to = n
			break
		}
	}
	if err := c.MigrateSlot(ctx, key, to, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if p, _, err := c.Shard(ctx, key); err != nil || p != to {
		t.Fatalf("slot on %v, %v; want %s", p, err, to.Addr)
	}
	if v, err := rdb.Get(ctx, key).Result(); v != "replicated" {
		t.Errorf("after the move %s = %q, %v", key, v, err)
	}
}

func waitValue(ctx context.Context, t *testing.T, s *redistest.Server, key, want string) {
	t.Helper()
	cl := redis.NewClient(&redis.Options{Addr: s.Addr, OnConnect: func(ctx context.Context, cn *redis.Conn) error {
		_ = cn.ReadOnly(ctx).Err() // a cluster replica serves reads after READONLY; others refuse it
		return nil
	}})
	defer cl.Close()
	for cl.Get(ctx, key).Val() != want {
		if ctx.Err() != nil {
			t.Fatalf("%s never got %s=%s", s.Addr, key, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
