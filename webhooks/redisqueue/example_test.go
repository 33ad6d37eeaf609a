package redisqueue_test

import (
	"context"
	"log"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// A receiver whose 202 must survive its own crash, and a fleet of receivers
// sharing the work, keep the queue and the event claims in Redis: one
// go-redis client serves both. Every receiver runs the same code; the stream's
// consumer group hands each event to one of them.
//
// It needs a Redis server, so this Example is compiled but not run (it has
// no Output line).
func ExampleNew() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer rdb.Close()

	q, err := redisqueue.New(ctx, rdb, redisqueue.WithVisibilityTimeout(time.Minute))
	if err != nil {
		log.Fatal(err)
	}
	v, err := webhooks.NewVerifier("whsec-test", webhooks.WithDedup(redisdedup.New(rdb)))
	if err != nil {
		log.Fatal(err)
	}
	async := v.AsyncHandler(q, func(ctx context.Context, ev *webhooks.Event) error {
		return nil // slow work here; an error is retried, then dead-lettered
	}, webhooks.WithWorkers(8))
	srv := &http.Server{Addr: ":8443", Handler: async}
	_ = srv // srv.ListenAndServeTLS(...)

	// On exit: stop the server, then the workers. What they did not finish
	// stays in the stream, for this receiver's next start or another one.
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	if _, err := async.Shutdown(ctx); err != nil {
		log.Printf("shutdown: %v", err)
	}
}
