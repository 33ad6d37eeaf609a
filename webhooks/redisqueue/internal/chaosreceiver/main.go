// Command chaosreceiver is the webhook receiver of the Redis queue's chaos
// test (webhooks/redisqueue/chaos_test.go): an AsyncHandler on redisqueue
// and redisdedup, whose event handler records each of its calls in Redis
// over a connection of its own, so that the test can count how often each
// event was processed, whatever the faults between the receiver and its
// queue.
//
//	CHAOS_SECRET=... chaosreceiver -listen 127.0.0.1:0 -queue-redis ADDR -count-redis ADDR -name R1
//
// It prints "listening on http://ADDR" once it serves, answers the
// platform's deliveries at /webhooks and its queue's Stats as JSON at
// /stats, and shuts down on SIGTERM or SIGINT.
package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "chaosreceiver:", err)
		os.Exit(1)
	}
}

func run() error {
	listen := flag.String("listen", "127.0.0.1:0", "address to serve deliveries on")
	queueAddr := flag.String("queue-redis", "", "Redis address of the queue and the dedup store (the faulty proxy)")
	countAddr := flag.String("count-redis", "", "Redis address of the call records (Redis itself)")
	name := flag.String("name", "receiver", "name recorded with each call of fn")
	calls := flag.String("calls-prefix", "chaos:calls:", "start of the key of each event's hash of calls")
	workers := flag.Int("workers", 4, "events processed at once")
	visibility := flag.Duration("visibility", time.Second, "the queue's visibility timeout")
	flag.Parse()
	secret := os.Getenv("CHAOS_SECRET")
	if *queueAddr == "" || *countAddr == "" || secret == "" {
		return errors.New("-queue-redis, -count-redis and CHAOS_SECRET are required")
	}
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})).With("receiver", *name)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	qdb := redis.NewClient(&redis.Options{Addr: *queueAddr})
	defer qdb.Close()
	cdb := redis.NewClient(&redis.Options{Addr: *countAddr})
	defer cdb.Close()

	q, err := newQueue(ctx, qdb, *visibility, log)
	if err != nil {
		return err
	}
	v, err := webhooks.NewVerifier(secret, webhooks.WithDedup(redisdedup.New(qdb)), webhooks.WithLogger(log))
	if err != nil {
		return err
	}
	h := v.AsyncHandler(q, count(cdb, *calls, *name), webhooks.WithWorkers(*workers),
		webhooks.WithBackoff(20*time.Millisecond, 200*time.Millisecond))
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", h)
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(q.Stats())
	})
	l, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 2 * time.Second}
	fmt.Printf("listening on http://%s\n", l.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = srv.Shutdown(sctx)
	if _, err := h.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// newQueue makes the queue, waiting for Redis while it restarts.
func newQueue(ctx context.Context, rdb *redis.Client, visibility time.Duration, log *slog.Logger) (*redisqueue.Queue, error) {
	for {
		q, err := redisqueue.New(ctx, rdb, redisqueue.WithVisibilityTimeout(visibility), redisqueue.WithLogger(log))
		if err == nil || ctx.Err() != nil {
			return q, err
		}
		log.Warn("cannot reach the queue yet", "error", err.Error())
		time.Sleep(100 * time.Millisecond)
	}
}

// count is the event handler: it records the call in the hash prefix+id,
// one field per call (a random call id, so that a write re-sent after a
// lost reply counts once) whose value is the receiver's name; then it works
// a few milliseconds, the window in which a kill leaves a processed event
// unacknowledged.
func count(cdb *redis.Client, prefix, name string) func(context.Context, *webhooks.Event) error {
	return func(ctx context.Context, ev *webhooks.Event) error {
		call := rand.Text()
		wctx := context.WithoutCancel(ctx) // the call happened: record it even when fn is cancelled
		var err error
		for range 200 { // Redis may be restarting: keep trying, the same call id
			if err = cdb.HSet(wctx, prefix+ev.ID, call, name).Err(); err == nil {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if err != nil {
			return fmt.Errorf("record call: %w", err)
		}
		time.Sleep(time.Duration(2+mrand.IntN(5)) * time.Millisecond)
		return nil
	}
}
