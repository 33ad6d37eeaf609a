// Package redistest starts a real redis-server for tests: the Redis dedup
// store's and queue's tests, the webhook receiver example's, and the chaos
// test, which kills Redis and starts it again from its append-only file.
// It also starts replicated setups, a Redis Cluster of three primaries with
// a replica each (StartCluster) and a primary and replica under three
// Sentinels (StartSentinel), with the faults of a failover: a replica's
// link cut (CutLink), a primary killed (Kill) or stalled (Pause), a slot
// migrated (Cluster.MigrateSlot).
package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Start starts a redis-server without persistence on a free loopback port
// in a temporary directory, waits until it answers PING, stops it at
// cleanup and returns its address. It skips the test when the binary is
// absent, unless CI is set: CI installs Debian's redis-server, so there its
// absence fails.
func Start(t testing.TB) string {
	t.Helper()
	return StartServer(t, Options{}).Addr
}

// Options choose how a Server persists its data, and its role.
type Options struct {
	// AppendOnly turns on the append-only file with appendfsync always:
	// Redis answers a write only once it is on disk, so a kill -9 loses no
	// write it acknowledged. Without it Redis keeps nothing across a
	// restart.
	AppendOnly bool
	// ConfigFile, when set, is given to redis-server before the other
	// arguments (a Sentinel's configuration, which Sentinel rewrites).
	ConfigFile string
	// Args are more arguments for redis-server, such as
	// "--cluster-enabled", "yes" or "--replicaof", host, port.
	Args []string
}

// Server is a redis-server started for a test. Restart kills it (SIGKILL)
// and starts it again on the same port and directory.
type Server struct {
	// Addr is the server's address, the same across restarts.
	Addr string

	bin, dir string
	port     int
	opts     Options

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	out    *output
}

// StartServer starts a redis-server as Start does, with opts, and returns
// it; it is stopped at cleanup.
func StartServer(t testing.TB, opts Options) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server not found and CI is set: %v", err)
		}
		t.Skipf("redis-server not found (%v); install Debian redis-server to run this test", err)
	}
	var lastErr error
	for range 3 { // a free port can be taken between choosing and binding
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		s := &Server{
			Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
			bin:  bin, dir: t.TempDir(), port: port, opts: opts,
		}
		if lastErr = s.start(); lastErr == nil {
			t.Cleanup(s.kill)
			return s
		}
	}
	t.Fatalf("cannot start redis-server: %v", lastErr)
	return nil
}

// Restart kills the server with SIGKILL, as a crash would, and starts it
// again on the same port and directory; with AppendOnly it reloads its
// data from the append-only file. It returns once the new server answers
// PING, with how long the server was down. It may be called from any
// goroutine.
func (s *Server) Restart() (time.Duration, error) {
	start := time.Now()
	s.kill()
	if err := s.Start(); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// Kill stops the server with SIGKILL, as a crash would, and waits for it
// to exit; Start starts it again. A paused server is killed too.
func (s *Server) Kill() { s.kill() }

// Start starts a killed server again on the same port and directory and
// returns once it answers PING.
func (s *Server) Start() error {
	var err error
	for range 50 { // the port may be busy for a moment
		if err = s.start(); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("cannot start redis-server again: %w", err)
}

// Pause stops the server with SIGSTOP: it keeps its connections and
// answers nothing until Resume (SIGCONT), as a stalled machine would.
func (s *Server) Pause() error { return s.signal(syscall.SIGSTOP) }

// Resume continues a paused server (SIGCONT).
func (s *Server) Resume() error { return s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) error {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd == nil {
		return errors.New("redistest: server not started")
	}
	return cmd.Process.Signal(sig)
}

// Log returns what the server printed since its last start.
func (s *Server) Log() string {
	s.mu.Lock()
	out := s.out
	s.mu.Unlock()
	if out == nil {
		return ""
	}
	return out.String()
}

func (s *Server) start() error {
	var args []string
	if s.opts.ConfigFile != "" {
		args = append(args, s.opts.ConfigFile)
	}
	args = append(args, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--save", "", "--dir", s.dir)
	if s.opts.AppendOnly {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	args = append(args, s.opts.Args...)
	out := &output{}
	cmd := exec.Command(s.bin, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	s.mu.Lock()
	s.cmd, s.exited, s.out = cmd, exited, out
	s.mu.Unlock()
	if err := waitPing(s.Addr, exited, out); err != nil {
		s.kill()
		return err
	}
	return nil
}

// kill stops the server at once and waits for it to exit.
func (s *Server) kill() {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	<-exited
}

// waitPing waits until the server at addr answers PING (not LOADING), or it
// exits, or 10 seconds pass.
func waitPing(addr string, exited <-chan struct{}, out *output) error {
	client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer client.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := client.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server exited: %s", strings.TrimSpace(out.String()))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no PING answer: %w; output: %s", err, out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// output collects what redis-server prints; it may be read while written.
type output struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}
