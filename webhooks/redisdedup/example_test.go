package redisdedup_test

import (
	"context"
	"log"
	"net/http"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
)

// Receivers on several machines share their event claims in Redis, so that a
// redelivery reaching another machine is still processed once. The Verifier
// claims, completes and releases through the store itself.
//
// It needs a Redis server, so this Example is compiled but not run (it has
// no Output line).
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
	defer rdb.Close()

	v, err := webhooks.NewVerifier("whsec-test", webhooks.WithDedup(redisdedup.New(rdb)))
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", v.Handler(func(ctx context.Context, ev *webhooks.Event) error {
		return nil // process ev; an error answers 500 and the platform retries
	}))
	srv := &http.Server{Addr: ":8443", Handler: mux}
	_ = srv // srv.ListenAndServeTLS(...)
}
