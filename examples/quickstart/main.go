// Command quickstart shows the whole story of the SDK in one run, timing
// each step: it creates a form (the signer's name and email, a conditional
// section with a file upload, a review section with merge fields), publishes
// it, makes a prefilled link with a locked field, fills in and submits the
// public page as an end user, reads the submission, subscribes a local
// webhook receiver, signs through the signing page as the form's signer,
// waits for sign.casefile.completed to arrive verified, and saves the signed
// PDF.
//
//	go run ./examples/quickstart              # on an embedded mock server: no account needed
//	go run ./examples/quickstart -out my.pdf  # save the signed PDF elsewhere (default ./signed.pdf)
//
// With SIGNKIT_CLIENT_ID, SIGNKIT_CLIENT_SECRET, SIGNKIT_API_KEY and
// SIGNKIT_API_SECRET set (SIGNKIT_ENV=sandbox, the default, or production)
// it runs against the platform the steps that need no person and no mock:
// the form's lifecycle, the prefilled link and the listing of submissions;
// the webhook steps when -webhook-url names a public https URL that reaches
// -listen; and the download when -casefile names a completed case file. The
// other steps are printed as skipped.
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
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/examples/internal/exampleenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	out        string
	listen     string
	webhookURL string
	caseFileID int64
	keep       bool
	timeout    time.Duration
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.out, "out", "signed.pdf", "where to save the signed PDF")
	fs.StringVar(&o.listen, "listen", "127.0.0.1:0", "address of the local webhook receiver")
	fs.StringVar(&o.webhookURL, "webhook-url", "", "platform only: public https URL that forwards to -listen; enables the webhook steps")
	fs.Int64Var(&o.caseFileID, "casefile", 0, "platform only: id of a completed case file whose signed PDF to download")
	fs.BoolVar(&o.keep, "keep", false, "keep the form active and the webhook subscription at the end")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("flags: %w", err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if _, port, err := net.SplitHostPort(o.listen); err != nil || (o.webhookURL != "" && port == "0") {
		return o, fmt.Errorf("-listen must be HOST:PORT, with a fixed port that -webhook-url forwards to, not %q", o.listen)
	}
	return o, nil
}

// run runs every step and prints one line per step. It fails at the first
// step that fails; the error names the step.
func run(ctx context.Context, args []string, env func(string) string, stdout io.Writer) error {
	o, err := parseFlags(args, stdout)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	e, err := exampleenv.Setup(env)
	if err != nil {
		return err
	}
	defer e.Close()
	if e.IsMock() && (o.webhookURL != "" || o.caseFileID != 0) {
		return errors.New("-webhook-url and -casefile are for the platform: on the embedded mock the quickstart makes its own")
	}
	cfg := e.Config
	cfg.UserAgent = "signkit-quickstart"
	client, err := signkit.NewClient(cfg)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	q := &quickstart{opts: o, env: e, client: client, steps: newSteps(stdout)}
	defer q.stopReceiver()
	fmt.Fprintf(stdout, "signkit quickstart against the %s\n", e.Describe())
	if err := q.runSteps(ctx); err != nil {
		return err
	}
	q.summary(stdout)
	return nil
}
