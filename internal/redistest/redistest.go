// Package redistest starts a real redis-server for tests: the Redis dedup
// store's tests and the webhook receiver example's run against one.
package redistest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Start starts a redis-server on a free loopback port in a temporary
// directory, waits until it answers PING, stops it at cleanup and returns
// its address. It skips the test when the binary is absent, unless CI is
// set: CI installs Debian's redis-server, so there its absence fails.
func Start(t testing.TB) string {
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
		addr, err := tryStart(t, bin)
		if err == nil {
			return addr
		}
		lastErr = err
	}
	t.Fatalf("cannot start redis-server: %v", lastErr)
	return ""
}

func tryStart(t testing.TB, bin string) (string, error) {
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
