package redisdedup_test

import (
	"bytes"
	"context"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redistest"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
)

// A SET whose reply is lost (the connection drops after Redis ran it) is
// retried by go-redis, and the retry finds the key the first attempt set.
// Claim must see that the key holds its own token and report the claim, not
// a duplicate: a duplicate is answered 200 and never processed.
func TestClaimAfterLostReply(t *testing.T) {
	t.Parallel()
	addr := redistest.Start(t)
	direct := newClient(t, addr)
	var dropped atomic.Bool
	proxied := redis.NewClient(&redis.Options{Addr: dropFirstSetReply(t, addr, &dropped), MaxRetries: 3})
	t.Cleanup(func() { _ = proxied.Close() })
	s := redisdedup.New(proxied, redisdedup.WithPrefix("lost:"))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := s.Claim(ctx, "evt", time.Minute)
	if !dropped.Load() {
		t.Fatal("the proxy never saw a SET")
	}
	if err != nil || !ok {
		t.Fatalf("Claim after a lost reply = %v, %v; want true (the key holds this Store's token)", ok, err)
	}
	if got, want := keyValue(t, direct, "lost:evt"), redisdedup.Token(s, "evt"); got != want || want == "" {
		t.Fatalf("key holds %q, the Store's record %q", got, want)
	}
	// A claim of another Store is still a duplicate.
	if ok, err := redisdedup.New(proxied, redisdedup.WithPrefix("lost:")).Claim(ctx, "evt", time.Minute); ok || err != nil {
		t.Fatalf("second Store's Claim = %v, %v; want false", ok, err)
	}
}

// dropFirstSetReply starts a TCP proxy to addr and returns its address. The
// proxy forwards everything, except that it withholds Redis's reply to the
// first SET it sees and then cuts that connection, as a network failure
// after the server ran the command would.
func dropFirstSetReply(t *testing.T, addr string, dropped *atomic.Bool) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			client, err := l.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", addr)
			if err != nil {
				_ = client.Close()
				continue
			}
			go proxyConn(client, server, dropped)
		}
	}()
	return l.Addr().String()
}

func proxyConn(client, server net.Conn, dropped *atomic.Bool) {
	defer func() { _ = client.Close(); _ = server.Close() }()
	var mute atomic.Bool
	replied := make(chan struct{}) // closed when Redis answered a muted command
	go func() {
		defer func() { _ = client.Close() }()
		buf := make([]byte, 32<<10)
		for {
			n, err := server.Read(buf)
			if n > 0 && mute.Load() {
				close(replied)
				return
			}
			if n > 0 {
				if _, err := client.Write(buf[:n]); err != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			first := bytes.Contains(buf[:n], []byte("\r\nSET\r\n")) && dropped.CompareAndSwap(false, true)
			if first {
				mute.Store(true)
			}
			if _, err := server.Write(buf[:n]); err != nil {
				return
			}
			if first {
				<-replied // Redis ran the SET; its reply goes nowhere
				return
			}
		}
		if err != nil {
			return
		}
	}
}
