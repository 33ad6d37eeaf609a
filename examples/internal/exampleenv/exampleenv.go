// Package exampleenv decides where the examples run: against the platform,
// when the SIGNKIT_* credentials are set, or against a mock server embedded in
// the example's own process and served on a loopback port, so that they run
// without an account.
package exampleenv

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/mockserver"
)

// The environment variables the examples read.
const (
	EnvClientID     = "SIGNKIT_CLIENT_ID"
	EnvClientSecret = "SIGNKIT_CLIENT_SECRET"
	EnvAPIKey       = "SIGNKIT_API_KEY"
	EnvAPISecret    = "SIGNKIT_API_SECRET"
	EnvEnvironment  = "SIGNKIT_ENV" // one of Environments; default: mock without credentials, sandbox with
)

// Environments are the values SIGNKIT_ENV takes: the embedded mock server,
// or one of the platform's environments (which need the credentials).
var Environments = []string{"mock", "sandbox", "production"}

// Env is where an example runs.
type Env struct {
	// Config is ready for signkit.NewClient.
	Config signkit.Config
	// Name is "mock", "sandbox" or "production".
	Name string
	// MockURL is the embedded mock server's base URL; empty against the
	// platform.
	MockURL string

	mock *mockserver.Server
	hs   *http.Server
}

// Setup reads SIGNKIT_ENV and the credentials through env (os.Getenv in a
// program). SIGNKIT_ENV=mock, or no SIGNKIT_ENV and no credentials, starts
// a mock server on 127.0.0.1 and answers it; sandbox or production (the
// default when credentials are set) answers that platform environment and
// needs all four credentials, naming the missing ones otherwise. Any other
// SIGNKIT_ENV is refused with the list of valid values. Call Close when
// done.
func Setup(env func(string) string) (*Env, error) {
	creds := auth.Credentials{
		ClientID: env(EnvClientID), ClientSecret: env(EnvClientSecret),
		APIKey: env(EnvAPIKey), APISecret: env(EnvAPISecret),
	}
	missing := creds.MissingFields()
	name := strings.ToLower(strings.TrimSpace(env(EnvEnvironment)))
	switch {
	case !slices.Contains(Environments, name) && name != "":
		return nil, fmt.Errorf("%s must be one of %s, not %q", EnvEnvironment, strings.Join(Environments, ", "), name)
	case name == "mock" || (name == "" && len(missing) == 4):
		return startMock()
	case len(missing) > 0:
		return nil, fmt.Errorf("set all of %s, %s, %s and %s, or none to use the embedded mock server; missing: %s",
			EnvClientID, EnvClientSecret, EnvAPIKey, EnvAPISecret, strings.Join(envNames(missing), ", "))
	}
	e := Env{Name: cmp.Or(name, "sandbox"), Config: signkit.Config{Endpoints: signkit.Sandbox, Credentials: creds}}
	if e.Name == "production" {
		e.Config.Endpoints = signkit.Production
	}
	return &e, nil
}

func envNames(fields []string) []string {
	names := map[string]string{"ClientID": EnvClientID, "ClientSecret": EnvClientSecret,
		"APIKey": EnvAPIKey, "APISecret": EnvAPISecret}
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = names[f]
	}
	return out
}

// startMock serves a new mock server on a free loopback port.
func startMock() (*Env, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the embedded mock server: %w", err)
	}
	base := "http://" + l.Addr().String()
	mock := mockserver.New(mockserver.WithBaseURL(base))
	hs := &http.Server{Handler: mock.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(l) }() // ends with Shutdown in Close
	return &Env{Config: mock.Config(), Name: "mock", MockURL: base, mock: mock, hs: hs}, nil
}

// IsMock reports whether the example runs against the embedded mock server.
func (e *Env) IsMock() bool { return e.mock != nil }

// Describe says where the example runs, for its first line of output.
func (e *Env) Describe() string {
	if e.IsMock() {
		return "embedded mock server at " + e.MockURL + " (no account needed)"
	}
	return "the platform's " + e.Name + " environment (" + e.Config.Endpoints.Forms + ")"
}

// Close stops the embedded mock server, if any.
func (e *Env) Close() error {
	if e.mock == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := e.hs.Shutdown(ctx)
	e.mock.Close()
	if err != nil {
		return fmt.Errorf("stop the embedded mock server: %w", err)
	}
	return nil
}

// Email is a message in the mock server's outbox.
type Email struct {
	To          string `json:"to"`
	Subject     string `json:"subject"`
	SigningLink string `json:"signingLink"`
}

// Emails reads the mock server's outbox (GET /mock/emails), the inboxes of
// every signer. It works only against the embedded mock server. A nil hc
// means http.DefaultClient.
func (e *Env) Emails(ctx context.Context, hc *http.Client) ([]Email, error) {
	if !e.IsMock() {
		return nil, errors.New("emails can be read only from the mock server")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.MockURL+"/mock/emails", nil)
	if err != nil {
		return nil, fmt.Errorf("read the mock outbox: %w", err)
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("read the mock outbox: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("read the mock outbox: status %s", resp.Status)
	}
	var out struct{ Items []Email }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("decode the mock outbox: %w", err)
	}
	return out.Items, nil
}
