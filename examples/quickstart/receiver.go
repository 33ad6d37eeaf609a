package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// eventWait bounds how long the quickstart waits for one event.
const eventWait = 30 * time.Second

// receiver is the quickstart's webhook endpoint: a loopback HTTP server whose
// handler verifies each delivery and hands its event to the steps.
type receiver struct {
	server   *http.Server
	events   chan *webhooks.Event
	sub      *subscriptions.Subscription
	endpoint string
}

// subscribe starts the receiver, subscribes it, and checks with a test
// event that deliveries arrive and verify.
func (q *quickstart) subscribe(ctx context.Context) (string, error) {
	ln, err := net.Listen("tcp", q.opts.listen)
	if err != nil {
		return "", fmt.Errorf("listen for webhooks: %w", err)
	}
	endpoint := q.opts.webhookURL
	if endpoint == "" {
		endpoint = "http://" + ln.Addr().String() + "/webhooks" // http is accepted for loopback hosts only
	}
	sub, err := q.client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint:   endpoint,
		EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted, webhooks.SubscriptionTest},
	})
	if err != nil {
		_ = ln.Close()
		return "", err
	}
	r := &receiver{events: make(chan *webhooks.Event, 16), sub: sub, endpoint: endpoint}
	q.recv = r
	v, err := webhooks.NewVerifier(sub.Secret) // the secret stays in memory: never print it
	if err != nil {
		_ = ln.Close()
		return "", err
	}
	mux := http.NewServeMux()
	mux.Handle("POST /", v.Handler(r.receive)) // any path: a public forwarder may rewrite it
	r.server = &http.Server{Handler: mux, ReadHeaderTimeout: 2 * time.Second}
	go func() { _ = r.server.Serve(ln) }() // ends with Shutdown in stopReceiver
	if err := q.client.Subscriptions.SendTestEvent(ctx); err != nil {
		return "", fmt.Errorf("send a test event: %w", err)
	}
	if _, err := r.wait(ctx, func(ev *webhooks.Event) bool { return ev.Type == webhooks.SubscriptionTest }); err != nil {
		return "", err
	}
	return fmt.Sprintf("receiver at %s, subscription %s, test event verified", endpoint, sub.ID), nil
}

// receive is the handler's processing: it passes the verified event on.
// When nobody reads, it fails, so the platform delivers it again later.
func (r *receiver) receive(_ context.Context, ev *webhooks.Event) error {
	select {
	case r.events <- ev:
		return nil
	default:
		return errors.New("too many unread events")
	}
}

// wait answers the first event that match accepts, within eventWait.
func (r *receiver) wait(ctx context.Context, match func(*webhooks.Event) bool) (*webhooks.Event, error) {
	timer := time.NewTimer(eventWait)
	defer timer.Stop()
	for {
		select {
		case ev := <-r.events:
			if match(ev) {
				return ev, nil
			}
		case <-timer.C:
			return nil, fmt.Errorf("no matching event arrived at %s within %s", r.endpoint, eventWait)
		case <-ctx.Done():
			return nil, fmt.Errorf("waiting for an event: %w", ctx.Err())
		}
	}
}

// waitCompleted waits for sign.casefile.completed of the submission's case
// file, verified by the receiver.
func (q *quickstart) waitCompleted(ctx context.Context) (string, error) {
	id := q.submission.CaseFileID
	ev, err := q.recv.wait(ctx, func(ev *webhooks.Event) bool {
		return ev.Type == webhooks.CaseFileCompleted && ev.CaseFile != nil && ev.CaseFile.ID == id
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s for case file %d verified (event %s)", ev.Type, id, ev.ID), nil
}

// stopReceiver shuts the receiver's server down, if it runs.
func (q *quickstart) stopReceiver() {
	if q.recv == nil || q.recv.server == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = q.recv.server.Shutdown(ctx)
}
