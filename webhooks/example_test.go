package webhooks_test

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

// Sign computes the X-Event-Signature of a delivery, as the platform does;
// tests use it to build deliveries for their receivers.
func ExampleSign() {
	body := []byte(`{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("X-Event-Id", "0b9f0c1e-8c1a-4a53-9f3a-2f1f6f1b7e11")
	h.Set("X-Event-Type", string(webhooks.CaseFileCompleted))
	fmt.Println(webhooks.Sign("whsec-test", time.Unix(1763805600, 0), h, body))
	// Output:
	// t=1763805600,h=content-type x-event-id x-event-type,v1=90d2176f1a2d719d1368c84b30a1daf6f763b6ff797cd89d6fdfbf4d5f9c8533
}

// A receiver mounts the verifier's Handler; the function sees verified,
// decoded events only, each once.
func ExampleVerifier_Handler() {
	secret := "whsec-test"                                        // the subscription's secret
	clock := func() time.Time { return time.Unix(1763805600, 0) } // omit: time.Now
	v, err := webhooks.NewVerifier(secret, webhooks.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /webhooks", v.Handler(func(ctx context.Context, ev *webhooks.Event) error {
		switch ev.Type {
		case webhooks.CaseFileCompleted:
			fmt.Printf("case file %d completed at %s\n", ev.CaseFile.ID, ev.Time.Format(time.DateTime))
		case webhooks.SignerSigned:
			fmt.Printf("signer %d signed\n", ev.Signer.ID)
		default:
			fmt.Println("ignored", ev.Type)
		}
		return nil // an error answers 500 and the platform retries
	}))

	// What the platform sends, twice (at-least-once delivery).
	body := `{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`
	for range 2 {
		r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Event-Id", "0b9f0c1e-8c1a-4a53-9f3a-2f1f6f1b7e11")
		r.Header.Set("X-Event-Type", "sign.casefile.completed")
		r.Header.Set("X-Event-Signature", webhooks.Sign(secret, clock(), r.Header, []byte(body)))
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		fmt.Println("status", w.Code)
	}
	// Output:
	// case file 531 completed at 2026-11-22 10:00:00
	// status 204
	// status 200
}

// AsyncHandler answers 202 once a verified event is in its queue and
// processes it in the background, retrying failures; Shutdown drains it.
// This one keeps its queue in memory, which a crash loses: a receiver whose
// 202 must survive a crash uses webhooks/redisqueue.
func ExampleVerifier_AsyncHandler() {
	v, err := webhooks.NewVerifier("whsec-test")
	if err != nil {
		log.Fatal(err)
	}
	q := queue.NewMemory(256)
	async := v.AsyncHandler(q, func(ctx context.Context, ev *webhooks.Event) error {
		return nil // slow work here: fetch documents, update records
	}, webhooks.WithWorkers(8), webhooks.WithMaxAttempts(10))
	srv := &http.Server{Addr: ":8443", Handler: async}
	_ = srv // srv.ListenAndServeTLS(...)

	// Events that failed every attempt wait in the dead-letter list.
	dead, err := q.DeadLetters(context.Background(), 100)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range dead {
		log.Printf("event %s failed: %s", d.ID, d.Reason)
		_ = q.Replay(context.Background(), d.Key) // once the cause is fixed
	}

	// On exit: stop the server, then drain the queue. What a memory queue
	// could not finish in time comes back, its claims released: the
	// platform got its 2xx for those events and will not send them again,
	// so record them. Read left whatever err is.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	left, err := async.Shutdown(ctx)
	for _, ev := range left {
		log.Printf("event %s not processed: %s", ev.ID, ev.Raw) // record it, to process later
	}
	if err != nil { // errors.Is(err, webhooks.ErrHandedBack) whenever left is not empty
		log.Printf("shutdown: %v", err)
	}
}

// When the application's context ends (SIGTERM, with WithBaseContext), the
// handler stops: fn's context is cancelled, deliveries are answered 503 so
// that the platform re-sends them, and the memory queue keeps what it holds
// for Shutdown, which hands it back.
func ExampleAsyncHandler_Shutdown() {
	secret := "whsec-test"
	clock := func() time.Time { return time.Unix(1763805600, 0) } // omit: time.Now
	v, err := webhooks.NewVerifier(secret, webhooks.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	app, stop := context.WithCancel(context.Background()) // signal.NotifyContext in a program
	async := v.AsyncHandler(queue.NewMemory(16), func(ctx context.Context, ev *webhooks.Event) error {
		<-ctx.Done() // slow work that gives up when its context ends
		return ctx.Err()
	}, webhooks.WithBaseContext(app))

	deliver := func(id string) {
		body := `{"topic":"casefile","eventType":"completed","eventTime":{"date":"2026-11-22 10:00:00.000000","timezone_type":3,"timezone":"UTC"},"payload":{"id":531,"status":5}}`
		r := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Event-Id", id)
		r.Header.Set("X-Event-Type", "sign.casefile.completed")
		r.Header.Set("X-Event-Signature", webhooks.Sign(secret, clock(), r.Header, []byte(body)))
		w := httptest.NewRecorder()
		async.ServeHTTP(w, r)
		fmt.Println(id, "status", w.Code)
	}
	deliver("evt-1")
	stop() // SIGTERM
	deliver("evt-2")

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	left, err := async.Shutdown(ctx)
	for _, ev := range left {
		fmt.Println("not processed:", ev.ID, "case file", ev.CaseFile.ID) // record it
	}
	fmt.Println("handed back:", errors.Is(err, webhooks.ErrHandedBack))
	// Output:
	// evt-1 status 202
	// evt-2 status 503
	// not processed: evt-1 case file 531
	// handed back: true
}
