package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/rediswait"
)

// ClusterNodeTimeout is the cluster-node-timeout of a Cluster: a primary
// that answers no ping for this long is failed over to its replica.
const ClusterNodeTimeout = time.Second

// Cluster is a Redis Cluster of three primaries with one replica each,
// started for a test; every node has appendonly yes and appendfsync
// always. Its nodes are stopped at cleanup.
type Cluster struct {
	// Nodes are the six servers, in the order given to redis-cli.
	Nodes []*Server
}

// StartCluster starts six redis-servers with cluster-enabled yes on free
// loopback ports, joins them with redis-cli --cluster create
// --cluster-replicas 1, and returns once every slot is served and every
// replica is in sync. It skips the test when redis-server or redis-cli is
// absent, unless CI is set: then it fails.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	cli := lookBin(t, "redis-cli")
	c := &Cluster{}
	args := []string{"--cluster-enabled", "yes", "--cluster-node-timeout", strconv.Itoa(int(ClusterNodeTimeout.Milliseconds())),
		"--repl-diskless-sync-delay", "0"}
	for range 6 {
		c.Nodes = append(c.Nodes, StartServer(t, Options{AppendOnly: true, Args: args}))
	}
	create := append([]string{"--cluster", "create"}, c.Addrs()...)
	create = append(create, "--cluster-replicas", "1", "--cluster-yes")
	out, err := exec.Command(cli, create...).CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	return c
}

// lookBin finds a program, or skips the test when it is absent and CI is
// unset.
func lookBin(t testing.TB, name string) string {
	t.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s not found and CI is set: %v", name, err)
		}
		t.Skipf("%s not found (%v); install Debian redis-server (and redis-tools) to run this test", name, err)
	}
	return bin
}

// Addrs are the nodes' addresses, for redis.ClusterOptions.Addrs.
func (c *Cluster) Addrs() []string {
	var out []string
	for _, s := range c.Nodes {
		out = append(out, s.Addr)
	}
	return out
}

// Node is the server at addr, nil when none of the cluster's.
func (c *Cluster) Node(addr string) *Server {
	for _, s := range c.Nodes {
		if s.Addr == addr {
			return s
		}
	}
	return nil
}

// WaitHealthy waits until every node sees every slot served
// (cluster_state:ok), three of them are primaries and the others replicas
// whose link to their primary is up.
func (c *Cluster) WaitHealthy(ctx context.Context) error {
	return poll(ctx, "a healthy cluster", func() error {
		replicas := 0
		for _, s := range c.Nodes {
			info, err := s.query(ctx, "CLUSTER", "INFO")
			if err != nil {
				return err
			}
			if !strings.Contains(info, "cluster_state:ok") {
				return fmt.Errorf("%s: cluster state not ok", s.Addr)
			}
			if err := linkUp(ctx, s); err != nil {
				return err
			}
			if role, err := Role(ctx, s); err != nil {
				return err
			} else if role == "slave" {
				replicas++
			}
		}
		if replicas != len(c.Nodes)-3 {
			return fmt.Errorf("%d replicas in sync", replicas)
		}
		return nil
	})
}

// Shard returns the primary that serves key's slot, as the first node that
// answers CLUSTER SLOTS sees it, and its replica, the node whose ROLE
// names that primary (nil when none does).
func (c *Cluster) Shard(ctx context.Context, key string) (primary, replica *Server, err error) {
	slot := Slot(key)
	var last error
	for _, s := range c.Nodes {
		addr, err := s.slotPrimary(ctx, slot)
		if err != nil {
			last = err
			continue
		}
		primary = c.Node(addr)
		return primary, c.replicaOf(ctx, primary), nil
	}
	return nil, nil, fmt.Errorf("no node says who serves slot %d: %v", slot, last)
}

// replicaOf is the node whose ROLE says it replicates primary.
func (c *Cluster) replicaOf(ctx context.Context, primary *Server) *Server {
	for _, s := range c.Nodes {
		if m, err := masterOf(ctx, s); err == nil && primary != nil && m == primary.Addr {
			return s
		}
	}
	return nil
}

// WaitPrimary waits until s is a primary and every other node that answers
// says that s serves key's slot: a failover has completed.
func (c *Cluster) WaitPrimary(ctx context.Context, s *Server, key string) error {
	slot := Slot(key)
	return poll(ctx, s.Addr+" as the primary of slot "+strconv.Itoa(slot), func() error {
		if role, err := Role(ctx, s); err != nil || role != "master" {
			return fmt.Errorf("role %q: %v", role, err)
		}
		for _, n := range c.Nodes {
			addr, err := n.slotPrimary(ctx, slot)
			if errors.Is(err, errNoAnswer) {
				continue // down or stalled
			}
			if addr != s.Addr {
				return fmt.Errorf("%s does not see it yet (%q, %v)", n.Addr, addr, err)
			}
		}
		return nil
	})
}

// MigrateSlot moves key's slot to the primary to, as redis-cli --cluster
// reshard does (SETSLOT IMPORTING and MIGRATING, MIGRATE keys, SETSLOT
// NODE), ten keys at a time with pause between batches, so that clients
// meet the migration (ASK, TRYAGAIN) for a while.
func (c *Cluster) MigrateSlot(ctx context.Context, key string, to *Server, pause time.Duration) error {
	slot := Slot(key)
	from, _, err := c.Shard(ctx, key)
	if err != nil {
		return err
	}
	if from == to {
		return errors.New("redistest: the slot is on that node already")
	}
	fromID, err := from.query(ctx, "CLUSTER", "MYID")
	if err != nil {
		return err
	}
	toID, err := to.query(ctx, "CLUSTER", "MYID")
	if err != nil {
		return err
	}
	if err := to.do(ctx, "CLUSTER", "SETSLOT", slot, "IMPORTING", fromID); err != nil {
		return err
	}
	if err := from.do(ctx, "CLUSTER", "SETSLOT", slot, "MIGRATING", toID); err != nil {
		return err
	}
	host, port := to.Addr[:strings.LastIndexByte(to.Addr, ':')], to.port
	for {
		keys, err := from.keysInSlot(ctx, slot)
		if err != nil {
			return err
		}
		if len(keys) == 0 {
			break
		}
		args := []any{"MIGRATE", host, port, "", 0, 5000, "KEYS"}
		for _, k := range keys {
			args = append(args, k)
		}
		if err := from.do(ctx, args...); err != nil {
			return fmt.Errorf("MIGRATE: %w", err)
		}
		time.Sleep(pause)
	}
	for _, n := range append([]*Server{to, from}, c.Nodes...) {
		if role, err := Role(ctx, n); err != nil || role != "master" {
			continue
		}
		if err := n.do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", toID); err != nil {
			return fmt.Errorf("SETSLOT NODE on %s: %w", n.Addr, err)
		}
	}
	return nil
}

// Slot is the cluster slot of key (CRC16 of its hash tag, mod 16384).
func Slot(key string) int { return rediswait.Slot(key) }

// errNoAnswer is slotPrimary's error when the node does not answer.
var errNoAnswer = errors.New("no answer")

// slotPrimary is the address of the healthy primary that s says serves
// slot (CLUSTER SHARDS).
func (s *Server) slotPrimary(ctx context.Context, slot int) (string, error) {
	cl := s.client()
	defer cl.Close()
	shards, err := cl.ClusterShards(ctx).Result()
	if err != nil {
		return "", fmt.Errorf("%s: %w: %v", s.Addr, errNoAnswer, err)
	}
	for _, sh := range shards {
		if !slices.ContainsFunc(sh.Slots, func(r redis.SlotRange) bool { return r.Start <= int64(slot) && int64(slot) <= r.End }) {
			continue
		}
		for _, n := range sh.Nodes {
			if n.Role == "master" && n.Health == "online" {
				return net.JoinHostPort(n.IP, strconv.FormatInt(n.Port, 10)), nil
			}
		}
	}
	return "", fmt.Errorf("%s: no healthy primary serves slot %d", s.Addr, slot)
}

func (s *Server) keysInSlot(ctx context.Context, slot int) ([]string, error) {
	cl := s.client()
	defer cl.Close()
	return cl.ClusterGetKeysInSlot(ctx, slot, 10).Result()
}
