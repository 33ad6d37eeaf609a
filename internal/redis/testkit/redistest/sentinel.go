package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// SentinelMaster is the name under which a Sentinel setup's Sentinels
// monitor its primary (redis.FailoverOptions.MasterName).
const SentinelMaster = "signkit"

// SentinelDownAfter is how long the Sentinels wait for an unanswering
// primary before they agree it is down and fail over.
const SentinelDownAfter = time.Second

// Sentinel is a primary and its replica, both with appendonly yes and
// appendfsync always, watched by three Sentinels with quorum 2, started for
// a test and stopped at cleanup.
type Sentinel struct {
	// Primary and Replica are the data servers as started; after a
	// failover the roles are swapped (see Sentinel.WaitPrimary).
	Primary, Replica *Server
	// Sentinels are the three redis-server --sentinel processes.
	Sentinels []*Server
}

// StartSentinel starts the primary, its replica (replicaof) and three
// Sentinels, each with a configuration of its own in a temporary
// directory, and returns once the replica is in sync and every Sentinel
// knows the replica. It skips the test when redis-server is absent, unless
// CI is set.
func StartSentinel(t testing.TB) *Sentinel {
	t.Helper()
	s := &Sentinel{Primary: StartServer(t, Options{AppendOnly: true, Args: []string{"--repl-diskless-sync-delay", "0"}})}
	host, port, _ := net.SplitHostPort(s.Primary.Addr)
	s.Replica = StartServer(t, Options{AppendOnly: true, Args: []string{"--replicaof", host, port, "--repl-diskless-sync-delay", "0"}})
	conf := fmt.Sprintf("sentinel monitor %[1]s %[2]s %[3]s 2\nsentinel down-after-milliseconds %[1]s %[4]d\n"+
		"sentinel failover-timeout %[1]s 5000\nsentinel parallel-syncs %[1]s 1\n",
		SentinelMaster, host, port, SentinelDownAfter.Milliseconds())
	for i := range 3 {
		path := filepath.Join(t.TempDir(), "sentinel"+strconv.Itoa(i)+".conf")
		if err := os.WriteFile(path, []byte(conf), 0o600); err != nil {
			t.Fatal(err)
		}
		s.Sentinels = append(s.Sentinels, StartServer(t, Options{ConfigFile: path, Args: []string{"--sentinel"}}))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := WaitInSync(ctx, s.Replica); err != nil {
		t.Fatal(err)
	}
	err := poll(ctx, "the Sentinels to know the replica", func() error {
		for _, sn := range s.Sentinels {
			cl := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr, MaxRetries: -1})
			reps, err := cl.Replicas(ctx, SentinelMaster).Result()
			cl.Close()
			if err != nil || len(reps) == 0 {
				return fmt.Errorf("%s: replicas %v: %v", sn.Addr, reps, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// SentinelAddrs are the Sentinels' addresses, for
// redis.FailoverOptions.SentinelAddrs.
func (s *Sentinel) SentinelAddrs() []string {
	var out []string
	for _, sn := range s.Sentinels {
		out = append(out, sn.Addr)
	}
	return out
}

// WaitPrimary waits until srv is a primary and every Sentinel names it as
// the primary: a failover has completed.
func (s *Sentinel) WaitPrimary(ctx context.Context, srv *Server) error {
	return poll(ctx, srv.Addr+" as the primary", func() error {
		if role, err := Role(ctx, srv); err != nil || role != "master" {
			return fmt.Errorf("role %q: %v", role, err)
		}
		for _, sn := range s.Sentinels {
			cl := redis.NewSentinelClient(&redis.Options{Addr: sn.Addr, MaxRetries: -1})
			addr, err := cl.GetMasterAddrByName(ctx, SentinelMaster).Result()
			cl.Close()
			if err != nil || len(addr) != 2 || net.JoinHostPort(addr[0], addr[1]) != srv.Addr {
				return fmt.Errorf("%s names %v: %v", sn.Addr, addr, err)
			}
		}
		return nil
	})
}
