// Command signkit-mock runs the in-memory signing platform of package
// mockserver as a standalone server, for tests in any language.
//
//	signkit-mock -addr 127.0.0.1:8765 -clock real
//	signkit-mock trigger sign.casefile.completed --to http://localhost:8080/webhook --secret-file secret.txt
//
// The first line on stdout is "listening on http://HOST:PORT"; then come the
// five endpoint URLs and the default credentials. SIGINT or SIGTERM shuts
// the server down cleanly.
//
// Every route answers 421 to a Host other than a loopback name and the
// host of -base-url (default: the listen address); in a container, admit the names other containers use:
//
//	signkit-mock -addr 0.0.0.0:8765 -allow-host mock,mock.internal
//
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#who-may-drive-the-control-api).
//
// The trigger subcommand, like stripe trigger, sends one correctly signed
// webhook event of any of the platform's 17 types, with a sample payload,
// to a receiver, and prints its answer.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) > 1 && os.Args[1] == "trigger" {
		os.Exit(trigger(ctx, os.Args[2:], os.Getenv, os.Stdout, os.Stderr))
	}
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0) // -h: the usage is printed
		}
		fmt.Fprintln(os.Stderr, "signkit-mock:", err)
		os.Exit(2)
	}
}

// usage is the head of the command's usage; the flags follow it.
const usage = `usage: signkit-mock [flags]
           serve the mock platform
       signkit-mock trigger TYPE --to URL --secret-file FILE
           send one signed webhook event to a receiver (trigger -h says more)

Only its users drive it: the control API (/mock/) and the dashboard
(/mock/ui) refuse a state-changing request from another origin's web page
(Origin, or Referer, of another origin: 403), and a control API body that
is not JSON (415: send Content-Type: application/json). curl, SDKs and
test code send neither Origin nor Referer and pass on every /mock/ route
but the dashboard's forms (POST /mock/ui/...), which take their own page's
posts only (403 without Origin or Referer); code replays a webhook delivery
with POST /mock/deliveries/replay {"subscriptionId","eventId"}. Behind a
proxy, a Host without a port counts as the -base-url scheme's default
port (https 443, http 80) when compared with an Origin. Every route answers 421 to a Host other than
localhost, *.localhost, 127.0.0.0/8, [::1], the -base-url host (default:
the listen address) and the -allow-host names (DNS rebinding).

flags:
`

// options are the parsed command-line flags.
type options struct {
	addr, clock, start string
	baseURL            string // -base-url; "": from the listener
	maxBody, maxFile   int64
	maxDocuments       int
	jobDelay           time.Duration
	jobDelaySet        bool // -job-delay was given: it holds with the manual clock too
	jobRetention       time.Duration
	control            bool
	idle, bodyTimeout  time.Duration
	limits             mockserver.Limits
	allowHosts         []string
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("signkit-mock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8765", "listen address HOST:PORT (port 0 picks a free port)")
	fs.StringVar(&o.clock, "clock", "real", "clock: real, or manual (time moves only by POST /mock/clock/advance)")
	fs.StringVar(&o.start, "start", "", "start time of the manual clock, RFC 3339 (default: now)")
	fs.Int64Var(&o.maxBody, "max-body-bytes", mockserver.DefaultMaxBodyBytes, "largest request body accepted")
	fs.Int64Var(&o.maxFile, "max-file-bytes", mockserver.DefaultMaxFileBytes, "largest file accepted by a FILE field of a public form")
	fs.IntVar(&o.maxDocuments, "max-documents", mockserver.DefaultMaxDocuments,
		"most documents in one Send create request (multipart or JSON); past it: 400 naming the bound")
	fs.Func("job-delay", "mock time between accepting and running a queued job (default 1s with the real clock, 0 with the manual one)",
		durationFlag(&o.jobDelay, &o.jobDelaySet, "1s"))
	fs.Func("job-retention", "mock time a finished Send job is kept for its status checks; then they answer 404 Job not found, "+
		"as for an expired job on the platform (default: none, kept until reset)",
		durationFlag(&o.jobRetention, nil, "1h"))
	fs.StringVar(&o.baseURL, "base-url", "", "the URL the mock names itself by in links and accepts as Host, e.g. http://signkit-mock:8080 "+
		"(default: http:// and the listen address, localhost for 0.0.0.0 or [::])")
	fs.BoolVar(&o.control, "control", true, "serve the control API under /mock/")
	fs.DurationVar(&o.idle, "idle-timeout", mockserver.DefaultIdleTimeout, "how long an idle keep-alive connection stays open")
	fs.DurationVar(&o.bodyTimeout, "body-timeout", mockserver.DefaultBodyProgressTimeout,
		"how long a request body may go without a byte before the connection is cut")
	fs.Func("allow-host", "admit another host name NAME[,NAME...] in requests' Host header besides localhost, 127.0.0.1, [::1] "+
		"and the base URL's host (the listen address, or -base-url), such as a container's or compose service's name; repeatable. "+
		"Other names get 421 (DNS rebinding)",
		func(v string) error { return parseHosts(v, &o.allowHosts) })
	fs.Func("limits", "per-account limits, e.g. Forms=20000,Submissions=100000 (fields of mockserver.Limits; -1: none)",
		func(v string) error { return parseLimits(v, &o.limits) })
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("parse flags: %w", err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if o.clock != "real" && o.clock != "manual" {
		return o, fmt.Errorf("-clock must be real or manual, not %q", o.clock)
	}
	if o.maxBody < 1 || o.maxFile < 1 || o.maxDocuments < 1 {
		return o, errors.New("-max-body-bytes, -max-file-bytes and -max-documents must be positive")
	}
	if o.baseURL != "" {
		u, err := url.Parse(o.baseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return o, fmt.Errorf("-base-url %q: want a URL like http://signkit-mock:8080", o.baseURL)
		}
		o.baseURL = strings.TrimRight(o.baseURL, "/")
	}
	return o, nil
}

// durationFlag answers the parser of a flag that takes a duration of 0 or
// more into dst, and marks set (when not nil) once it was given.
func durationFlag(dst *time.Duration, set *bool, example string) func(string) error {
	return func(v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return errors.New("want a duration of 0 or more, like " + example)
		}
		*dst = d
		if set != nil {
			*set = true
		}
		return nil
	}
}

// listenURL is the base URL of a listener: http:// and its address, with
// localhost for an unspecified one (0.0.0.0 or [::], as in a container),
// which no client can reach by that name.
func listenURL(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok && ta.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort("localhost", strconv.Itoa(ta.Port))
	}
	return "http://" + a.String()
}

// serverOptions turns the flags into mockserver options.
func (o options) serverOptions(baseURL string) ([]mockserver.Option, error) {
	opts := []mockserver.Option{mockserver.WithBaseURL(baseURL), mockserver.WithMaxBodyBytes(o.maxBody),
		mockserver.WithMaxFileBytes(o.maxFile), mockserver.WithMaxDocuments(o.maxDocuments), mockserver.WithControlAPI(o.control),
		mockserver.WithIdleTimeout(o.idle), mockserver.WithBodyProgressTimeout(o.bodyTimeout),
		mockserver.WithLimits(o.limits), mockserver.WithAllowedHosts(o.allowHosts...)}
	if o.jobRetention > 0 {
		opts = append(opts, mockserver.WithJobRetention(o.jobRetention))
	}
	if o.jobDelaySet { // else the mock's default: 1s, or at once with the manual clock
		opts = append(opts, mockserver.WithJobDelay(o.jobDelay))
	}
	if o.clock == "manual" {
		start := time.Now().UTC()
		if o.start != "" {
			t, err := time.Parse(time.RFC3339Nano, o.start)
			if err != nil {
				return nil, fmt.Errorf("-start: %w", err)
			}
			start = t
		}
		opts = append(opts, mockserver.WithManualClock(start))
	}
	return opts, nil
}

// run serves until ctx ends, then shuts down.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	base := o.baseURL
	if base == "" {
		base = listenURL(l.Addr())
	}
	opts, err := o.serverOptions(base)
	if err != nil {
		_ = l.Close()
		return err
	}
	srv := mockserver.New(opts...)
	defer srv.Close()
	hs := srv.HTTPServer()
	printBanner(stdout, base, srv.DefaultCredentials(), o)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(l) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	fmt.Fprintln(stdout, "stopped")
	return nil
}

// printBanner writes the listening line, the endpoints and the default
// credentials (the mock's fixed, documented test credentials).
func printBanner(w io.Writer, base string, c mockserver.UserCredentials, o options) {
	e := signkit.LocalEndpoints(base)
	fmt.Fprintf(w, "listening on %s\n", base)
	fmt.Fprintf(w, "auth      %s\nforms     %s\nsign      %s\nsend      %s\nwebhook   %s\n", e.Auth, e.Forms, e.Sign, e.Send, e.Webhook)
	fmt.Fprintf(w, "client_id %s\nclient_secret %s\napi_key   %s\napi_secret %s\n", c.ClientID, c.ClientSecret, c.APIKey, c.APISecret)
	fmt.Fprintf(w, "clock     %s\ncontrol   %v\n", o.clock, o.control)
}

// parseHosts reads host names, separated by commas, onto hosts: names or
// IP addresses, with a port or without.
func parseHosts(v string, hosts *[]string) error {
	for name := range strings.SplitSeq(v, ",") {
		name = strings.TrimSpace(name)
		h := name
		if host, port, err := net.SplitHostPort(name); err == nil {
			if _, err := strconv.ParseUint(port, 10, 16); err != nil {
				h = ""
			} else {
				h = host
			}
		}
		h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
		if h == "" || strings.ContainsAny(name, "/@?#* ") {
			return fmt.Errorf("%q is not a host name (give a name such as mock or mock.internal, without a scheme or path)", name)
		}
		*hosts = append(*hosts, name)
	}
	return nil
}

// parseLimits reads Field=N pairs, separated by commas, into l; the fields
// are those of mockserver.Limits.
func parseLimits(v string, l *mockserver.Limits) error {
	fields := map[string]*int{
		"Forms": &l.Forms, "Versions": &l.Versions, "PrefillRequests": &l.PrefillRequests,
		"Submissions": &l.Submissions, "CaseFiles": &l.CaseFiles, "Jobs": &l.Jobs, "Subscriptions": &l.Subscriptions,
	}
	for pair := range strings.SplitSeq(v, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(pair), "=")
		dst, known := fields[name]
		if !ok || !known {
			return fmt.Errorf("%q is not Field=N with a field of mockserver.Limits", pair)
		}
		n, err := strconv.Atoi(num)
		if err != nil || n == 0 || n < -1 {
			return fmt.Errorf("%s=%s: want a positive number, or -1 for no limit", name, num)
		}
		*dst = n
	}
	return nil
}
