// Package rediswait sends a Redis write and WAIT in one pipeline, on one
// connection to the primary that holds the write's key, so that the write is
// answered only once the replicas have it: the common part of redisqueue's and
// redisdedup's WithReplicas (see
// https://github.com/signkit/signkit-go/blob/main/docs/webhooks.md#what-a-2xx-guarantees).
//
// WAIT counts the replicas that acknowledged the connection's last write.
// A write that changes nothing (a script that finds its work done, a DEL
// of a missing key) propagates nothing, and WAIT would then cover nothing,
// not even the earlier write that a retry repeats. So each pipeline holds,
// between the write and the WAIT, a SET of a marker key in the write's
// slot: WAIT then covers everything the primary did before, whatever the
// write changed.
package rediswait

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// markerTTL is how long a marker key lives after its last write.
const markerTTL = time.Minute

// markerBase starts the marker keys.
const markerBase = "signkit:replicated"

// Writer runs writes followed by WAIT n timeout. It is safe for concurrent
// use.
type Writer struct {
	client   redis.UniversalClient
	cluster  *redis.ClusterClient // nil unless client is one
	n        int
	timeout  time.Duration
	tooFew   error    // wrapped when fewer than n replicas acknowledge
	markers  sync.Map // cluster slot → marker key in that slot
	single   string   // the marker key off a cluster
	waitArgs []any
}

// New checks the settings and returns a Writer on client: n at least 1,
// timeout at least 1 ms (WAIT n 0 would block for ever) and below the
// client's read timeout (the WAIT shares the pipeline's read deadline), and
// a client whose routing it knows: *redis.Client (single node or
// Sentinel's failover client) or *redis.ClusterClient, not *redis.Ring,
// which spreads the keys over independent primaries. tooFew is wrapped by
// the error of a write that fewer than n replicas acknowledged.
func New(client redis.UniversalClient, n int, timeout time.Duration, tooFew error) (*Writer, error) {
	var readTimeout time.Duration
	w := &Writer{client: client, n: n, timeout: timeout, tooFew: tooFew, single: markerBase}
	switch c := client.(type) {
	case *redis.Client:
		readTimeout = c.Options().ReadTimeout
	case *redis.ClusterClient:
		readTimeout, w.cluster = c.Options().ReadTimeout, c
	case *redis.Ring:
		return nil, errors.New("a Ring spreads keys over primaries that do not replicate to each other; WAIT needs a single-node, Sentinel (failover) or Cluster client")
	default:
		return nil, fmt.Errorf("cannot tell the read timeout of a %T; use a *redis.Client or *redis.ClusterClient", client)
	}
	switch {
	case n < 1:
		return nil, fmt.Errorf("replicas %d: at least 1", n)
	case timeout < time.Millisecond:
		return nil, fmt.Errorf("timeout %v: at least 1ms (WAIT with 0 blocks for ever)", timeout)
	case readTimeout > 0 && timeout >= readTimeout:
		return nil, fmt.Errorf("timeout %v: must be below the client's ReadTimeout (%v), which bounds the WAIT's reply", timeout, readTimeout)
	}
	w.waitArgs = []any{"WAIT", n, timeout.Milliseconds()}
	return w, nil
}

// Script runs s on the primary of keys[0] (EVALSHA, or EVAL when the
// primary does not know it, as one freshly promoted does not), then WAIT.
func (w *Writer) Script(ctx context.Context, s *redis.Script, keys []string, args ...any) *redis.Cmd {
	cmd := w.exec(ctx, keys[0], func(p redis.Pipeliner) *redis.Cmd { return s.EvalSha(ctx, p, keys, args...) })
	if redis.HasErrorPrefix(cmd.Err(), "NOSCRIPT") {
		cmd = w.exec(ctx, keys[0], func(p redis.Pipeliner) *redis.Cmd { return s.Eval(ctx, p, keys, args...) })
	}
	return cmd
}

// Do runs the command args, whose key is key, on key's primary, then WAIT.
func (w *Writer) Do(ctx context.Context, key string, args ...any) *redis.Cmd {
	return w.exec(ctx, key, func(p redis.Pipeliner) *redis.Cmd { return p.Do(ctx, args...) })
}

// exec sends the command that queue adds, the marker's SET and WAIT in one
// pipeline to key's primary. The command's own error comes first; then an
// error of the WAIT, or too few acknowledgements, is set on the command
// (its value stays readable).
//
// On a cluster the pipeline goes to the node that the cluster client's slot
// table names, and that node's client follows no MOVED or ASK: an answer
// that says the slot is elsewhere or moving (MOVED, ASK, TRYAGAIN,
// CLUSTERDOWN, READONLY) or a connection that fails makes the cluster
// client reload its slot table, and the error is returned, so that the
// caller's retry (the platform's re-send of a delivery answered 500, a
// worker's next try) goes to the right node.
func (w *Writer) exec(ctx context.Context, key string, queue func(redis.Pipeliner) *redis.Cmd) *redis.Cmd {
	node, err := w.node(ctx, key)
	if err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(fmt.Errorf("find the primary of %q: %w", key, err))
		return cmd
	}
	pipe := node.Pipeline()
	cmd := queue(pipe)
	pipe.Set(ctx, w.marker(key), "1", markerTTL)
	wait := pipe.Do(ctx, w.waitArgs...)
	_, _ = pipe.Exec(ctx)
	switch err := cmd.Err(); {
	case err != nil && !errors.Is(err, redis.Nil):
		w.stale(ctx, err)
		return cmd
	case wait.Err() != nil:
		w.stale(ctx, wait.Err())
		cmd.SetErr(fmt.Errorf("WAIT %d %d: %w", w.n, w.timeout.Milliseconds(), wait.Err()))
		return cmd
	}
	if got, _ := wait.Int(); got < w.n {
		cmd.SetErr(fmt.Errorf("%w: %d of %d replicas acknowledged within %v", w.tooFew, got, w.n, w.timeout))
	}
	return cmd
}

// node is the client of key's primary: the cluster's, or the client itself.
func (w *Writer) node(ctx context.Context, key string) (*redis.Client, error) {
	if w.cluster != nil {
		return w.cluster.MasterForKey(ctx, key)
	}
	return w.client.(*redis.Client), nil
}

// stale makes the cluster client reload its slot table after err, when err
// says the node asked is not the slot's primary any more, or is gone.
func (w *Writer) stale(ctx context.Context, err error) {
	if w.cluster == nil {
		return
	}
	var ne net.Error
	for _, code := range []string{"MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN", "READONLY", "LOADING", "MASTERDOWN"} {
		if redis.HasErrorPrefix(err, code) {
			w.cluster.ReloadState(ctx)
			return
		}
	}
	if errors.As(err, &ne) || errors.Is(err, net.ErrClosed) || strings.Contains(err.Error(), "connection refused") ||
		errors.Is(err, context.DeadlineExceeded) || err.Error() == "EOF" {
		w.cluster.ReloadState(ctx)
	}
}

// marker is a key in key's slot for the SET between the write and WAIT.
// Off a cluster any key will do. On a cluster it is markerBase with a hash
// tag chosen so that it hashes to key's slot, found once per slot.
func (w *Writer) marker(key string) string {
	if w.cluster == nil {
		return w.single
	}
	slot := Slot(key)
	if m, ok := w.markers.Load(slot); ok {
		return m.(string)
	}
	for i := 0; ; i++ {
		tag := strconv.Itoa(i)
		if Slot(tag) == slot {
			m := markerBase + ":{" + tag + "}"
			w.markers.Store(slot, m)
			return m
		}
	}
}

// Slot is Redis Cluster's slot of key: CRC16 (XMODEM) of its hash tag (the
// text between the first "{" and the next "}", when not empty) or of the
// whole key, mod 16384.
func Slot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc % 16384)
}
