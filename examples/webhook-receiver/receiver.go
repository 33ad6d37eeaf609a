package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/signkit/signkit-go/webhooks"
	"github.com/signkit/signkit-go/webhooks/dedup"
	"github.com/signkit/signkit-go/webhooks/queue"
	"github.com/signkit/signkit-go/webhooks/redisdedup"
	"github.com/signkit/signkit-go/webhooks/redisqueue"
)

// config is the receiver's configuration.
type config struct {
	addr, path      string
	secret          string
	redisURL        string
	workers         int
	maxAttempts     int
	shutdownTimeout time.Duration
}

func parseConfig(args []string, env func(string) string, stderr io.Writer) (config, error) {
	c := config{secret: env("WEBHOOK_SECRET"), redisURL: env("REDIS_URL")}
	fs := flag.NewFlagSet("webhook-receiver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.addr, "addr", cmp.Or(env("WEBHOOK_ADDR"), ":8080"), "listen address (env WEBHOOK_ADDR)")
	fs.StringVar(&c.path, "path", cmp.Or(env("WEBHOOK_PATH"), "/webhooks"), "path that receives deliveries (env WEBHOOK_PATH)")
	fs.IntVar(&c.workers, "workers", 4, "events processed at once")
	fs.IntVar(&c.maxAttempts, "max-attempts", webhooks.DefaultMaxAttempts, "tries of an event before it is dead-lettered")
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", 25*time.Second, "how long shutdown waits for deliveries and queued events")
	if err := fs.Parse(args); err != nil {
		return c, fmt.Errorf("flags: %w", err)
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	case c.path == "" || c.path[0] != '/':
		return c, fmt.Errorf("-path must start with /, not %q", c.path)
	}
	return c, nil
}

// receiver is the HTTP server, the asynchronous webhook handler, and the
// dedup store and queue behind it.
type receiver struct {
	cfg     config
	log     *slog.Logger
	handler *webhooks.AsyncHandler
	server  *http.Server
	rdb     *redis.Client // nil with the memory store
}

func newReceiver(ctx context.Context, cfg config, logs io.Writer) (*receiver, error) {
	r := &receiver{cfg: cfg, log: slog.New(slog.NewJSONHandler(logs, nil))}
	store, q, err := r.stores(ctx)
	if err != nil {
		return nil, err
	}
	v, err := webhooks.NewVerifier(cfg.secret, webhooks.WithDedup(store), webhooks.WithLogger(r.log))
	if err != nil {
		r.close()
		return nil, fmt.Errorf("verifier: %w", err)
	}
	r.handler = v.AsyncHandler(q, r.process, webhooks.WithWorkers(cfg.workers), webhooks.WithMaxAttempts(cfg.maxAttempts))
	mux := http.NewServeMux()
	mux.Handle("POST "+cfg.path, r.handler)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	r.server = &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 2 * time.Second, // the platform gives up after 1 s anyway
		ReadTimeout:       5 * time.Second,
		WriteTimeout:      5 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(r.log.Handler(), slog.LevelWarn),
	}
	return r, nil
}

// stores answers the Redis dedup store and stream queue when REDIS_URL is
// set (after checking that Redis answers), the memory ones otherwise. Only
// the Redis queue keeps an acknowledged event through a crash.
func (r *receiver) stores(ctx context.Context) (dedup.Store, queue.Queue, error) {
	if r.cfg.redisURL == "" {
		r.log.Warn("replay protection and queue in memory: a crash loses the events acknowledged and not yet processed; set REDIS_URL for a durable queue")
		return dedup.NewMemory(dedup.DefaultMaxEntries), queue.NewMemory(1024), nil
	}
	opts, err := redis.ParseURL(r.cfg.redisURL)
	if err != nil {
		return nil, nil, errors.New("REDIS_URL is not a redis:// or rediss:// URL") // the URL may hold a password: not quoted
	}
	r.rdb = redis.NewClient(opts)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := r.rdb.Ping(pctx).Err(); err != nil {
		r.close()
		return nil, nil, fmt.Errorf("redis at %s: %w", opts.Addr, err)
	}
	q, err := redisqueue.New(pctx, r.rdb)
	if err != nil {
		r.close()
		return nil, nil, err
	}
	r.log.Info("replay protection and queue in Redis", "redis_addr", opts.Addr, "redis_db", opts.DB,
		"consumer", q.Consumer())
	return redisdedup.New(r.rdb), q, nil
}

// process is where an event's work goes. It runs after the delivery was
// acknowledged, so it may take its time; an error or a panic is retried
// with backoff, and after -max-attempts the event waits in the queue's
// dead-letter list.
func (r *receiver) process(ctx context.Context, ev *webhooks.Event) error {
	attrs := []any{"event_id", ev.ID, "event_type", string(ev.Type)}
	if ev.CaseFile != nil {
		attrs = append(attrs, "casefile_id", ev.CaseFile.ID, "casefile_status", ev.CaseFile.Status)
	}
	if ev.Signer != nil {
		attrs = append(attrs, "signer_id", ev.Signer.ID)
	}
	switch ev.Type {
	case webhooks.CaseFileCompleted:
		// Here: fetch the signed PDFs with client.CaseFiles.Get and
		// DownloadDocument, passing each document's integer ID.
	case webhooks.CaseFileRejected, webhooks.CaseFileExpired, webhooks.CaseFileFailed:
		// Here: tell whoever waits for the signatures.
	}
	r.log.InfoContext(ctx, "event processed", attrs...)
	return nil
}

// serve serves on ln until ctx ends, then shuts down in order.
func (r *receiver) serve(ctx context.Context, ln net.Listener) error {
	r.log.Info("listening", "addr", ln.Addr().String(), "path", r.cfg.path)
	errc := make(chan error, 1)
	go func() { errc <- r.server.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	r.log.Info("shutting down", "timeout", r.cfg.shutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.shutdownTimeout)
	defer cancel()
	serr := r.server.Shutdown(sctx)        // no new deliveries; those in flight are answered
	left, herr := r.handler.Shutdown(sctx) // queued events are processed
	// A memory queue's leftovers, read whatever herr is (it matches
	// webhooks.ErrHandedBack whenever there are some): the platform got its
	// 2xx for them and will not send them again, so they must be recorded
	// to be processed later. Events still running when the shutdown's
	// grace ended are named in herr (a *webhooks.ShutdownError); their
	// outcome is logged when they finish.
	for _, ev := range left {
		r.log.Error("event not processed before shutdown: record it and process it later",
			"event_id", ev.ID, "event_type", string(ev.Type), "body", string(ev.Raw))
	}
	if err := errors.Join(serr, herr); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	r.log.Info("stopped")
	return nil
}

// close releases the Redis client, if any.
func (r *receiver) close() {
	if r.rdb != nil {
		_ = r.rdb.Close()
		r.rdb = nil
	}
}
