package redisdedup_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/testkit/redisproxy"
	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
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
	proxy := redisproxy.Start(t, addr, redisproxy.FirstOf("SET"))
	proxied := redis.NewClient(&redis.Options{Addr: proxy.Addr(), MaxRetries: 3})
	t.Cleanup(func() { _ = proxied.Close() })
	s := redisdedup.New(proxied, redisdedup.WithPrefix("lost:"))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ok, err := s.Claim(ctx, "evt", time.Minute)
	if proxy.Dropped()["SET"] != 1 {
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
