package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/signkit/signkit-go/mockserver"
)

// triggerUsage is the usage of the trigger subcommand.
const triggerUsage = `usage: signkit-mock trigger TYPE --to URL [--secret-file FILE | --secret SECRET]

Sends one webhook event of TYPE to URL, signed with a subscription's secret
as the platform signs deliveries, with a sample payload like the mock's
(case file 1042, signer 2087), and prints the receiver's answer. The secret
comes from --secret-file, else from --secret (which the process list and the
shell's history show: prefer the other two), else from the environment
variable SIGNKIT_WEBHOOK_SECRET. It is never printed, nor is a password in
URL.
Exit status: 0 when the receiver answered 2xx, 1 otherwise, 2 on a usage error.

TYPE is one of:
  %s

Flags:
`

// errUsage marks an error of the command line: exit status 2.
var errUsage = errors.New("usage")

// secretEnv is the environment variable trigger reads the secret from.
const secretEnv = "SIGNKIT_WEBHOOK_SECRET"

// trigger runs `signkit-mock trigger`; getenv reads the environment. It
// answers the exit status.
func trigger(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("signkit-mock trigger", flag.ContinueOnError)
	fs.SetOutput(stderr)
	to := fs.String("to", "", "the receiver's URL (required)")
	secretFlag := fs.String("secret", "", "the subscription's secret the event is signed with; visible in the process list: prefer --secret-file or "+secretEnv)
	secretFile := fs.String("secret-file", "", "a file holding the subscription's secret (a trailing newline is ignored)")
	timeout := fs.Duration("timeout", 10*time.Second, "how long to wait for the receiver's answer")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), triggerUsage, strings.Join(mockserver.EventTypes(), "\n  "))
		fs.PrintDefaults()
	}
	typ, err := parseTrigger(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		fmt.Fprintln(stderr, "signkit-mock trigger:", err)
		return 2
	}
	if !slices.Contains(mockserver.EventTypes(), typ) {
		unknownType(stderr, typ)
		return 2
	}
	secret, err := secretOf(*secretFlag, *secretFile, getenv)
	if err != nil {
		fmt.Fprintln(stderr, "signkit-mock trigger:", err)
		return 2
	}
	if *to == "" || secret == "" {
		fmt.Fprintln(stderr, "signkit-mock trigger: --to and a secret (--secret-file, "+secretEnv+" or --secret) are required")
		fs.Usage()
		return 2
	}
	if err := checkURL(*to); err != nil {
		fmt.Fprintln(stderr, "signkit-mock trigger:", err)
		return 2
	}
	if *timeout <= 0 {
		fmt.Fprintln(stderr, "signkit-mock trigger: --timeout must be positive")
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	resp, err := mockserver.TriggerEvent(ctx, &http.Client{}, *to, secret, typ)
	switch {
	case errors.Is(err, mockserver.ErrUnknownEventType):
		unknownType(stderr, typ)
		return 2
	case err != nil: // the error names the URL (its password redacted) and the cause, never the secret
		fmt.Fprintf(stderr, "signkit-mock trigger: no answer from the receiver: %v\n", redactURLError(err))
		return 1
	}
	defer resp.Body.Close()
	fmt.Fprintf(stdout, "sent %s to %s\n%s %s\n", typ, redactedURL(*to), resp.Proto, resp.Status)
	answer, readErr := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if s := strings.TrimSpace(string(answer[:min(len(answer), maxAnswer)])); s != "" {
		fmt.Fprintln(stdout, s)
	}
	switch {
	case len(answer) > maxAnswer:
		fmt.Fprintf(stdout, "[answer cut after %d bytes]\n", maxAnswer)
	case readErr != nil:
		fmt.Fprintf(stdout, "[answer cut: %v]\n", readErr)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return 1
	}
	return 0
}

// maxAnswer is how many bytes of the receiver's answer trigger prints.
const maxAnswer = 2 << 10

// unknownType reports an event type the platform does not have, with the
// ones it has.
func unknownType(w io.Writer, typ string) {
	fmt.Fprintf(w, "signkit-mock trigger: unknown event type %q; the types are:\n  %s\n",
		typ, strings.Join(mockserver.EventTypes(), "\n  "))
}

// secretOf answers the secret from the file, else the flag, else the
// environment (a flag overrides the environment, as flags do); naming both
// a file and a flag is a usage error, since one of them would be ignored.
func secretOf(flagValue, file string, getenv func(string) string) (string, error) {
	switch {
	case file != "" && flagValue != "":
		return "", errors.New("give --secret-file or --secret, not both")
	case file != "":
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--secret-file: %w", err)
		}
		secret := strings.TrimRight(string(b), "\r\n")
		if secret == "" {
			return "", fmt.Errorf("--secret-file %s is empty", file)
		}
		return secret, nil
	case getenv(secretEnv) != "" && flagValue == "":
		return getenv(secretEnv), nil
	}
	return flagValue, nil
}

// redactedURL is raw with a password it holds replaced by "xxxxx".
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Redacted()
}

// redactURLError redacts the URL of a *url.Error, which net/http's errors
// print whole.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		c := *ue
		c.URL = redactedURL(ue.URL)
		return &c
	}
	return err
}

// checkURL refuses a receiver URL that is not absolute http or https, such
// as localhost:8080/webhook without its scheme.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return errors.New("--to: want an http:// or https:// URL; it does not parse")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--to %q: want an http:// or https:// URL", u.Redacted())
	}
	return nil
}

// parseTrigger parses the flags and the one TYPE argument, which may come
// before the flags or after them.
func parseTrigger(fs *flag.FlagSet, args []string) (string, error) {
	var typ string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		typ, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if typ == "" && fs.NArg() > 0 { // flags, then TYPE, then maybe more flags
		typ = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return "", err
		}
	}
	if typ == "" || fs.NArg() > 0 {
		fs.Usage()
		return "", fmt.Errorf("%w: want one event TYPE", errUsage)
	}
	return typ, nil
}
