package redisdedup_test

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
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/internal/deduptest"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
)

// startRedis starts a redis-server on a free loopback port in a temporary
// directory, waits until it answers PING and stops it at cleanup. It skips
// the test when the binary is absent, unless CI is set: CI installs it.
func startRedis(t *testing.T) string {
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
		addr, err := tryStartRedis(t, bin)
		if err == nil {
			return addr
		}
		lastErr = err
	}
	t.Fatalf("cannot start redis-server: %v", lastErr)
	return ""
}

func tryStartRedis(t *testing.T, bin string) (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var out bytes.Buffer
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", t.TempDir())
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return "", err
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	stop := func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer client.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err = client.Ping(ctx).Err()
		cancel()
		if err == nil {
			t.Cleanup(stop)
			return addr, nil
		}
		select {
		case <-exited:
			return "", fmt.Errorf("redis-server exited: %s", strings.TrimSpace(out.String()))
		default:
		}
		if time.Now().After(deadline) {
			stop()
			return "", fmt.Errorf("no PING answer: %w; output: %s", err, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func newClient(t *testing.T, addr string) *redis.Client {
	c := redis.NewClient(&redis.Options{Addr: addr})
	t.Cleanup(func() { c.Close() })
	return c
}

var prefixes atomic.Int64

func TestConformance(t *testing.T) {
	t.Parallel()
	addr := startRedis(t)
	deduptest.Run(t, func(t *testing.T) deduptest.Subject {
		// Each subtest uses its own keys; two clients play two receivers.
		prefix := redisdedup.WithPrefix(fmt.Sprintf("test:%d:", prefixes.Add(1)))
		return deduptest.Subject{
			Store: redisdedup.New(newClient(t, addr), prefix),
			Peer:  redisdedup.New(newClient(t, addr), prefix),
			TTL:   150 * time.Millisecond,
		}
	})
}

func TestKeysAndTTL(t *testing.T) {
	t.Parallel()
	addr := startRedis(t)
	c := newClient(t, addr)
	ctx := context.Background()
	s := redisdedup.New(c, redisdedup.WithPrefix("app1:"))
	if ok, err := s.Claim(ctx, "evt", 1500*time.Microsecond); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if ok, err := s.Claim(ctx, "evt2", 10*time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	ttl, err := c.PTTL(ctx, "app1:evt2").Result()
	if err != nil || ttl <= 9*time.Minute || ttl > 10*time.Minute {
		t.Fatalf("PTTL = %v, %v", ttl, err)
	}
	// Another prefix is another namespace.
	other := redisdedup.New(c)
	if ok, err := other.Claim(ctx, "evt2", time.Minute); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if n, err := c.Exists(ctx, redisdedup.DefaultPrefix+"evt2").Result(); n != 1 || err != nil {
		t.Fatal(n, err)
	}
}

// A store error reaches the caller wrapped, and Verify wraps it again
// without turning it into a verdict on the delivery.
func TestStoreError(t *testing.T) {
	t.Parallel()
	addr := startRedis(t)
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	c.Close()
	s := redisdedup.New(c)
	_, err := s.Claim(context.Background(), "evt", time.Minute)
	if !errors.Is(err, redis.ErrClosed) {
		t.Fatalf("Claim on a closed client: %v", err)
	}
	if err := s.Release(context.Background(), "evt"); !errors.Is(err, redis.ErrClosed) {
		t.Fatalf("Release on a closed client: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	live := redisdedup.New(newClient(t, addr))
	if _, err := live.Claim(ctx, "evt", time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Claim with a cancelled context: %v", err)
	}
	var _ webhooks.DedupStore = live
}
