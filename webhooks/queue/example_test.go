package queue_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/queue"
)

// The Queue contract, step by step, as webhooks.(*Verifier).AsyncHandler
// drives it: an event id is enqueued once, handed to one worker, and either
// acknowledged or dead-lettered; a dead letter is replayed once its cause is
// fixed. A full queue refuses with ErrFull (the receiver answers 503).
func ExampleNewMemory() {
	ctx := context.Background()
	q := queue.NewMemory(2)
	defer q.Close()

	ev := queue.Delivery{ID: "evt-1", Type: "sign.casefile.completed", Body: []byte(`{}`)}
	fmt.Println(q.Enqueue(ctx, ev), q.Enqueue(ctx, ev)) // the platform re-sent it: one entry
	_ = q.Enqueue(ctx, queue.Delivery{ID: "evt-2", Type: "sign.signer.signed", Body: []byte(`{}`)})
	fmt.Println(errors.Is(q.Enqueue(ctx, queue.Delivery{ID: "evt-3"}), queue.ErrFull))

	m, _ := q.Next(ctx)
	fmt.Println("handed out", m.ID, "delivery", m.Deliveries)
	_ = q.DeadLetter(ctx, m, "document service down") // processing kept failing
	m, _ = q.Next(ctx)
	_ = q.Ack(ctx, m) // processed
	fmt.Println("acknowledged", m.ID)

	dead, _ := q.DeadLetters(ctx, 10)
	for _, d := range dead {
		fmt.Println("dead letter", d.ID+":", d.Reason)
		_ = q.Replay(ctx, d.Key)
	}
	m, _ = q.Next(ctx)
	fmt.Println("handed out", m.ID, "again")
	// Output:
	// <nil> <nil>
	// true
	// handed out evt-1 delivery 1
	// acknowledged evt-2
	// dead letter evt-1: document service down
	// handed out evt-1 again
}

// A receiver hands the memory queue to AsyncHandler: the platform gets its
// 202 once the verified event is in the queue, and a worker processes it in
// the background. A crash loses what a memory queue holds; webhooks/redisqueue
// keeps it in Redis.
func Example_asyncHandler() {
	secret := "whsec-test"                                        // the subscription's secret
	clock := func() time.Time { return time.Unix(1763805600, 0) } // omit: time.Now
	v, err := webhooks.NewVerifier(secret, webhooks.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	processed := make(chan string, 1)
	async := v.AsyncHandler(queue.NewMemory(256), func(ctx context.Context, ev *webhooks.Event) error {
		processed <- fmt.Sprintf("case file %d: %s", ev.CaseFile.ID, ev.Type)
		return nil // an error is retried, then dead-lettered
	})

	// What the platform sends.
	body := `{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`
	r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Event-Id", "0b9f0c1e-8c1a-4a53-9f3a-2f1f6f1b7e11")
	r.Header.Set("X-Event-Type", "sign.casefile.completed")
	r.Header.Set("X-Event-Signature", webhooks.Sign(secret, clock(), r.Header, []byte(body)))
	w := httptest.NewRecorder()
	async.ServeHTTP(w, r)
	fmt.Println("status", w.Code)
	fmt.Println(<-processed)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	left, err := async.Shutdown(ctx)
	fmt.Println("left:", len(left), "error:", err)
	// Output:
	// status 202
	// case file 531: sign.casefile.completed
	// left: 0 error: <nil>
}
