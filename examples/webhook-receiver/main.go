// Command webhook-receiver is a production-shaped receiver of the platform's
// webhook events: an HTTP server with timeouts that verifies every delivery
// (signature, timestamp, replay, headers against the body), acknowledges it
// once it is queued, processes it in a bounded pool of workers with retries
// and a dead-letter list, logs JSON with log/slog, and shuts down
// gracefully on SIGTERM or SIGINT, finishing the events it has accepted.
//
//	WEBHOOK_SECRET=... go run ./examples/webhook-receiver -addr :8080
//
// Without WEBHOOK_SECRET it runs on its own: it starts an embedded mock
// server, subscribes its loopback URL there, and asks for a test event,
// which it receives, verifies and logs.
//
// Configuration, flags first, then the environment:
//
//	-addr, WEBHOOK_ADDR   listen address (default :8080)
//	-path, WEBHOOK_PATH   path that receives deliveries (default /webhooks)
//	WEBHOOK_SECRET        the subscription's secret (never logged); unset: the
//	                      demo on an embedded mock server
//	REDIS_URL             redis://… for a durable queue and replay protection
//	                      shared between instances (packages webhooks/redisqueue
//	                      and webhooks/redisdedup); memory otherwise, which a
//	                      crash loses
//
// Subscribe its public https URL with client.Subscriptions.Create and give
// it the secret of the answer.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // events name their time zone; containers may lack a zone database
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "webhook-receiver:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run serves until ctx ends, then shuts down: the server first (no new
// deliveries, requests in flight finish), then the handler (queued events are
// processed). It listens on ln when it is not nil, else on the configured
// address. Logs go to stdout as JSON lines.
func run(ctx context.Context, args []string, env func(string) string, stdout io.Writer, ln net.Listener) error {
	cfg, err := parseConfig(args, env, stdout)
	if err != nil {
		return err
	}
	listen := func() (err error) {
		if ln == nil {
			if ln, err = net.Listen("tcp", cfg.addr); err != nil {
				return fmt.Errorf("listen on %s: %w", cfg.addr, err)
			}
		}
		return nil
	}
	var d *demo
	if cfg.secret == "" { // no platform of its own: subscribe its URL on an embedded mock
		if err := listen(); err != nil {
			return err
		}
		if d, err = startDemo(ctx, ln, cfg.path); err != nil {
			_ = ln.Close()
			return err
		}
		defer d.close()
		cfg.secret = d.secret
	}
	r, err := newReceiver(ctx, cfg, stdout)
	if err != nil {
		if ln != nil {
			_ = ln.Close()
		}
		return err
	}
	defer r.close()
	if err := listen(); err != nil {
		return err
	}
	if d != nil {
		r.log.Info("demo: no WEBHOOK_SECRET, so the receiver subscribed itself on an embedded mock server", "mock", d.env.MockURL)
		go d.sendTestEvent(ctx, r.log) // the listener is open: the delivery waits for Serve
	}
	return r.serve(ctx, ln)
}
