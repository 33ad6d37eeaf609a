package redistest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Faults of replicated setups, shared by Cluster and Sentinel.

// CutLink cuts the link of replica to its primary until restore is called:
// the replica keeps serving what it has but receives no write, so that it
// lags its primary as a replica behind a broken network would. It sets a
// masterauth that the primary refuses (its default user has no password)
// and kills the replica's connection to its primary (CLIENT KILL TYPE
// master); the replica's reconnects then fail at AUTH. restore clears the
// masterauth, and the replica resynchronizes with whichever primary it then
// follows.
func CutLink(ctx context.Context, replica *Server) (restore func(context.Context) error, err error) {
	if err := replica.do(ctx, "CONFIG", "SET", "masterauth", "cut-by-redistest"); err != nil {
		return nil, err
	}
	if err := replica.do(ctx, "CLIENT", "KILL", "TYPE", "master"); err != nil {
		return nil, err
	}
	return func(ctx context.Context) error {
		return replica.do(ctx, "CONFIG", "SET", "masterauth", "")
	}, nil
}

// Role is s's role from ROLE: "master", "slave" or "sentinel".
func Role(ctx context.Context, s *Server) (string, error) {
	cl := s.client()
	defer cl.Close()
	v, err := cl.Do(ctx, "ROLE").Slice()
	if err != nil {
		return "", err
	}
	if len(v) == 0 {
		return "", fmt.Errorf("%s: empty ROLE reply", s.Addr)
	}
	role, _ := v[0].(string)
	return role, nil
}

// masterOf is the address of the primary that s replicates, "" when s is
// a primary.
func masterOf(ctx context.Context, s *Server) (string, error) {
	cl := s.client()
	defer cl.Close()
	v, err := cl.Do(ctx, "ROLE").Slice()
	if err != nil || len(v) < 3 || v[0] != "slave" {
		return "", err
	}
	host, _ := v[1].(string)
	return net.JoinHostPort(host, fmt.Sprint(v[2])), nil
}

// WaitInSync waits until s, when it is a replica, has its link to its
// primary up; a primary passes at once.
func WaitInSync(ctx context.Context, s *Server) error {
	return poll(ctx, s.Addr+" in sync", func() error { return linkUp(ctx, s) })
}

// linkUp reports an error unless s is a primary or a replica whose link is
// up.
func linkUp(ctx context.Context, s *Server) error {
	info, err := s.query(ctx, "INFO", "replication")
	if err != nil {
		return err
	}
	if strings.Contains(info, "role:slave") && !strings.Contains(info, "master_link_status:up") {
		return fmt.Errorf("%s: replica link down", s.Addr)
	}
	return nil
}

// client is a client of s alone, with short timeouts and no retries, so
// that a stalled server fails a query rather than blocking it.
func (s *Server) client() *redis.Client {
	return redis.NewClient(&redis.Options{Addr: s.Addr, MaxRetries: -1, DialTimeout: 300 * time.Millisecond,
		ReadTimeout: 500 * time.Millisecond, WriteTimeout: 500 * time.Millisecond, PoolSize: 1})
}

// query runs a command on s and returns its reply as text.
func (s *Server) query(ctx context.Context, args ...any) (string, error) {
	cl := s.client()
	defer cl.Close()
	v, err := cl.Do(ctx, args...).Text()
	if err != nil {
		return "", fmt.Errorf("%s: %v: %w", s.Addr, args, err)
	}
	return v, nil
}

// do runs a command on s and returns its error.
func (s *Server) do(ctx context.Context, args ...any) error {
	cl := s.client()
	defer cl.Close()
	if err := cl.Do(ctx, args...).Err(); err != nil {
		return fmt.Errorf("%s: %v: %w", s.Addr, args, err)
	}
	return nil
}

// poll calls check every 20 ms until it returns nil or ctx ends; then the
// error names what was awaited and check's last error.
func poll(ctx context.Context, what string, check func() error) error {
	for {
		err := check()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("redistest: waiting for %s: %w (last: %v)", what, ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// StartReplicated starts a primary and its replica (replicaof), both with
// appendonly yes and appendfsync always, and returns once the replica is in
// sync. Both are stopped at cleanup.
func StartReplicated(t testing.TB) (primary, replica *Server) {
	t.Helper()
	primary = StartServer(t, Options{AppendOnly: true, Args: []string{"--repl-diskless-sync-delay", "0"}})
	host, port, _ := net.SplitHostPort(primary.Addr)
	replica = StartServer(t, Options{AppendOnly: true, Args: []string{"--replicaof", host, port}})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := WaitInSync(ctx, replica); err != nil {
		t.Fatal(err)
	}
	// The replica's link being up is its own view; WAIT counts what the
	// primary has seen acknowledged. Wait until the primary counts it too,
	// or the first replicated write of a test may time out on a loaded
	// machine.
	if err := poll(ctx, primary.Addr+" counting its replica", func() error {
		cl := primary.client()
		defer cl.Close()
		n, err := cl.Do(ctx, "WAIT", 1, 300).Int()
		if err == nil && n < 1 {
			err = errors.New("no replica acknowledged")
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return primary, replica
}

// WaitReplicaOf waits until s replicates primary with its link up, as a
// killed or stalled primary does once it rejoins after a failover.
func WaitReplicaOf(ctx context.Context, s, primary *Server) error {
	return poll(ctx, s.Addr+" as a replica of "+primary.Addr, func() error {
		if m, err := masterOf(ctx, s); err != nil || m != primary.Addr {
			return fmt.Errorf("follows %q: %v", m, err)
		}
		return linkUp(ctx, s)
	})
}
