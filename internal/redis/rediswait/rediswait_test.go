package rediswait_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/internal/redis/rediswait"
	"github.com/signkit/signkit-go/internal/redis/testkit/redistest"
)

var errTooFew = errors.New("too few")

// TestSlot: the slots Redis documents (CLUSTER KEYSLOT), with and without
// hash tags.
func TestSlot(t *testing.T) {
	for key, want := range map[string]int{
		"foo": 12182, "{foo}:bar": 12182, "a{foo}b{x}": 12182, "{}foo": rediswait.Slot("{}foo"),
		"123456789": 12739, "": 0,
	} {
		if got := rediswait.Slot(key); got != want {
			t.Errorf("Slot(%q) = %d; want %d", key, got, want)
		}
	}
}

// TestNewRefuses: bad settings and clients WAIT cannot serve are refused
// with an error that says why.
func TestNewRefuses(t *testing.T) {
	single := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ReadTimeout: time.Second})
	defer single.Close()
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{"127.0.0.1:1"}})
	defer cluster.Close()
	ring := redis.NewRing(&redis.RingOptions{Addrs: map[string]string{"a": "127.0.0.1:1"}})
	defer ring.Close()
	noTimeout := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", ReadTimeout: -1})
	defer noTimeout.Close()
	for _, tc := range []struct {
		name    string
		client  redis.UniversalClient
		n       int
		timeout time.Duration
		want    string // "" = accepted
	}{
		{"ok", single, 1, 300 * time.Millisecond, ""},
		{"cluster default read timeout", cluster, 1, 4 * time.Second, ""},
		{"no read timeout", noTimeout, 2, time.Minute, ""},
		{"no replica", single, 0, time.Millisecond, "at least 1"},
		{"zero timeout", single, 1, 0, "at least 1ms"},
		{"sub-millisecond", single, 1, time.Microsecond, "at least 1ms"},
		{"negative", single, 1, -time.Second, "at least 1ms"},
		{"at read timeout", single, 1, time.Second, "below the client's ReadTimeout"},
		{"over cluster read timeout", cluster, 1, 6 * time.Second, "below the client's ReadTimeout"},
		{"ring", ring, 1, time.Millisecond, "Ring"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rediswait.New(tc.client, tc.n, tc.timeout, errTooFew)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v; want one saying %q", err, tc.want)
			}
		})
	}
}

// TestNoPrimary: a write to a server that does not answer fails with the
// connection's error, not the too-few error.
func TestNoPrimary(t *testing.T) {
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	defer c.Close()
	w, err := rediswait.New(c, 1, 100*time.Millisecond, errTooFew)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Do(context.Background(), "k", "SET", "k", "v").Err()
	if err == nil || errors.Is(err, errTooFew) {
		t.Fatalf("err %v", err)
	}
}

// TestScriptOnAPrimaryWithoutIt: a primary that does not know a script (as
// one just promoted does not: the script cache is not replicated) runs it
// from source; the answer comes once the replica has the write.
func TestScriptOnAPrimaryWithoutIt(t *testing.T) {
	primary, replica := redistest.StartReplicated(t)
	ctx := context.Background()
	c := redis.NewClient(&redis.Options{Addr: primary.Addr})
	defer c.Close()
	r := redis.NewClient(&redis.Options{Addr: replica.Addr})
	defer r.Close()
	w, err := rediswait.New(c, 1, 500*time.Millisecond, errTooFew)
	if err != nil {
		t.Fatal(err)
	}
	s := redis.NewScript(`return redis.call("INCR", KEYS[1])`)
	for want := int64(1); want <= 2; want++ {
		if err := c.ScriptFlush(ctx).Err(); err != nil {
			t.Fatal(err)
		}
		n, err := w.Script(ctx, s, []string{"counter"}).Int64()
		if err != nil || n != want {
			t.Fatalf("Script: %d, %v; want %d", n, err, want)
		}
		if got, _ := r.Get(ctx, "counter").Int64(); got != want {
			t.Fatalf("the replica holds %d when Script returns; want %d", got, want)
		}
	}
}
