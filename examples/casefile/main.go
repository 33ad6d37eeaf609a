// Command casefile creates a complete case file in one call: two documents
// (a contract to sign and a handbook attached unsigned), three signers with
// roles who sign in three rounds, custom email texts, reminders, and a witness
// without email whose signing link the program prints for you to deliver.
//
//	go run ./examples/casefile                 # on an embedded mock server
//	go run ./examples/casefile -out signed.pdf # also sign as everyone (mock only) and save the signed contract
//
// With SIGNKIT_CLIENT_ID, SIGNKIT_CLIENT_SECRET, SIGNKIT_API_KEY and
// SIGNKIT_API_SECRET set (and SIGNKIT_ENV=sandbox or production) it creates
// the case file on the platform instead; then -employee-email and
// -employer-email are required, because the platform emails them.
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
	"github.com/signkit/signkit-go/examples/internal/exampleenv"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "casefile:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// options are the command-line flags.
type options struct {
	employeeEmail, employerEmail string
	sign                         bool
	out                          string
	timeout                      time.Duration
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("casefile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.employeeEmail, "employee-email", "", "email of the employee (default on the mock: ada.employee@example.com)")
	fs.StringVar(&o.employerEmail, "employer-email", "", "email of the employer (default on the mock: bob.boss@example.com)")
	fs.BoolVar(&o.sign, "sign", false, "mock only: sign as every signer, in their rounds, through their signing pages")
	fs.StringVar(&o.out, "out", "", "mock only: save the signed contract here (implies -sign)")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "give up after this long")
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("flags: %w", err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	o.sign = o.sign || o.out != ""
	return o, nil
}

// run creates the case file, waits for it, prints its signers, documents and
// the witness's signing link, and on the mock optionally signs as everyone.
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
	if err := o.complete(e.IsMock()); err != nil {
		return err
	}
	cfg := e.Config
	cfg.UserAgent = "signkit-example-casefile"
	client, err := signkit.NewClient(cfg)
	if err != nil {
		return fmt.Errorf("client: %w", err)
	}
	fmt.Fprintf(stdout, "running against the %s\n", e.Describe())
	res, err := create(ctx, client, o, stdout)
	if err != nil {
		return err
	}
	if err := describe(ctx, client, res, stdout); err != nil {
		return err
	}
	if !e.IsMock() {
		return nil
	}
	if err := printEmails(ctx, e, stdout); err != nil {
		return err
	}
	if !o.sign {
		fmt.Fprintln(stdout, "run with -sign (or -out FILE) to sign as every signer on the mock")
		return nil
	}
	return signAll(ctx, client, res, o.out, stdout)
}

// complete fills in the default emails on the mock and refuses their absence
// on the platform, which sends real emails.
func (o *options) complete(mock bool) error {
	if !mock {
		if o.employeeEmail == "" || o.employerEmail == "" {
			return errors.New("on the platform, -employee-email and -employer-email are required: the platform emails the signing requests to them")
		}
		if o.sign {
			return errors.New("-sign and -out work only on the embedded mock server: on the platform, people sign")
		}
		return nil
	}
	if o.employeeEmail == "" {
		o.employeeEmail = "ada.employee@example.com"
	}
	if o.employerEmail == "" {
		o.employerEmail = "bob.boss@example.com"
	}
	return nil
}
