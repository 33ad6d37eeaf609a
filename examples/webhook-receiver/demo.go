package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strconv"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/examples/internal/exampleenv"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// demo is the receiver's own platform when no WEBHOOK_SECRET is set: an
// embedded mock server, a subscription of the receiver's loopback URL to
// every event type, and the client that asks for a test event.
type demo struct {
	env    *exampleenv.Env
	client *signkit.Client
	secret string // the subscription's; the receiver verifies with it
}

// startDemo starts the mock and subscribes http://127.0.0.1:<port of ln><path>.
func startDemo(ctx context.Context, ln net.Listener, path string) (*demo, error) {
	env, err := exampleenv.Setup(func(string) string { return "" }) // nothing set: the embedded mock
	if err != nil {
		return nil, err
	}
	client, err := signkit.NewClient(env.Config)
	if err != nil {
		env.Close()
		return nil, fmt.Errorf("client of the embedded mock: %w", err)
	}
	_, port, err := net.SplitHostPort(ln.Addr().String())
	if err != nil {
		env.Close()
		return nil, fmt.Errorf("listener address: %w", err)
	}
	endpoint := "http://" + net.JoinHostPort("127.0.0.1", port) + path
	sub, err := client.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: endpoint, EventTypes: webhooks.AllEventTypes()})
	if err != nil {
		env.Close()
		return nil, fmt.Errorf("subscribe %s on the embedded mock: %w", endpoint, err)
	}
	return &demo{env: env, client: client, secret: sub.Secret}, nil
}

// sendTestEvent asks the mock for a test event, which it delivers to the
// receiver, signed with the subscription's secret.
func (d *demo) sendTestEvent(ctx context.Context, log *slog.Logger) {
	if err := d.client.Subscriptions.SendTestEvent(ctx); err != nil {
		log.Error("demo: test event not sent", "err", err.Error())
		return
	}
	log.Info("demo: test event requested from the embedded mock", "mock", d.env.MockURL,
		"event_types", strconv.Itoa(len(webhooks.AllEventTypes())))
}

// close stops the embedded mock.
func (d *demo) close() { d.env.Close() }
