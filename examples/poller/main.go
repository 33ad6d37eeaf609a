// Command poller collects completed case files the way the platform's polling
// guide describes
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#polling-for-completed-case-files):
// it lists case files with status=5 in a window of completion times, handles
// each one once, and keeps a watermark in a small state file, so that after a
// restart it goes on without missing or repeating a case file.
//
//	go run ./examples/poller      # on an embedded mock server: a demo with a restart
//
// With no credentials it runs a demo on an embedded mock server: it
// completes case files in two batches, several within one second, reads
// them in pages of two, stops after two as if it crashed, restarts from
// the state file, and checks that every case file was handled exactly once.
//
// With SIGNKIT_CLIENT_ID, SIGNKIT_CLIENT_SECRET, SIGNKIT_API_KEY and
// SIGNKIT_API_SECRET set (SIGNKIT_ENV=sandbox, the default, or production)
// it polls that account: once, or every -interval until interrupted,
// printing each newly completed case file, with its watermark in -state.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/examples/internal/exampleenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "poller:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	state    string
	perPage  int
	settle   time.Duration
	interval time.Duration
	since    time.Duration
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("poller", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.state, "state", "", "the state file (default: poller-state.json; on the mock, a temporary one)")
	fs.IntVar(&o.perPage, "per-page", 0, "case files per page (default: 100; on the mock, 2)")
	fs.DurationVar(&o.settle, "settle", 5*time.Second, "platform only: hold back completions this recent (clock skew)")
	fs.DurationVar(&o.interval, "interval", 0, "platform only: poll again after this long until interrupted; 0: once")
	fs.DurationVar(&o.since, "since", 0, "platform only: on the first run (no state file), start this long ago; 0: every completed case file")
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("flags: %w", err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.perPage < 0 || o.perPage > 1000 || o.settle < 0 || o.interval < 0 || o.since < 0 {
		return o, errors.New("-per-page must be from 0 to 1000, and -settle, -interval and -since not negative")
	}
	return o, nil
}

// run polls the account, or runs the demo on the embedded mock server.
func run(ctx context.Context, args []string, env func(string) string, stdout io.Writer) error {
	o, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	e, err := exampleenv.Setup(env)
	if err != nil {
		return err
	}
	defer e.Close()
	cfg := e.Config
	cfg.UserAgent = "signkit-example-poller"
	client, err := signkit.NewClient(cfg)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	fmt.Fprintf(stdout, "running against the %s\n", e.Describe())
	if e.IsMock() {
		return demo(ctx, client, o, stdout)
	}
	return pollPlatform(ctx, client, o, stdout)
}

// pollPlatform polls the account once, or every o.interval until ctx ends.
func pollPlatform(ctx context.Context, client *signkit.Client, o options, stdout io.Writer) error {
	p := &Poller{CaseFiles: client.CaseFiles, StatePath: o.state, PerPage: o.perPage, Settle: o.settle,
		Handle: func(_ context.Context, d casefiles.Details) error {
			// The integration's work goes here: download the signed
			// documents (client.CaseFiles.DownloadDocument), file them, ...
			fmt.Fprintf(stdout, "completed %s: case file %d %q\n", d.Completed.UTC().Format(time.RFC3339), d.ID, d.Title)
			return nil
		}}
	if p.StatePath == "" {
		p.StatePath = "poller-state.json"
	}
	if err := startAt(p.StatePath, o.since, time.Now()); err != nil {
		return err
	}
	for {
		n, err := p.Poll(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "handled %d newly completed case files; watermark in %s\n", n, p.StatePath)
		if o.interval == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(o.interval):
		}
	}
}

// startAt writes a first state that starts since before now, when there
// is no state file yet and since is set.
func startAt(path string, since time.Duration, now time.Time) error {
	if since == 0 {
		return nil
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		return nil // resume where the state file says, whatever -since says
	}
	return SaveState(path, State{Completed: now.Add(-since).Unix()})
}
