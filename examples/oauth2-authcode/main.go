// Command oauth2-authcode signs in to the platform with the OAuth 2
// authorization code grant (with PKCE and refresh tokens) through
// golang.org/x/oauth2, and hands the SDK its tokens through
// signkit.Config.TokenSource instead of API key credentials.
//
// The first run prints the platform's authorize URL and waits on the
// redirect URL for the browser to come back with a code; it exchanges the
// code for an access token and a refresh token and saves both in the token
// file (mode 0600). Later runs start from the saved refresh token. Either
// way it then lists the account's case files and webhook subscriptions and
// saves the token again, since the platform may replace the refresh token
// at a refresh.
//
// It needs a real platform account, an OAuth client whose redirect URL is
// registered exactly as SIGNKIT_OAUTH_REDIRECT_URL, and a person to give
// consent in a browser, so it cannot run offline; its tests check the
// adapter (Provider) against fakes and the mock server instead.
//
//	export SIGNKIT_OAUTH_CLIENT_ID=... SIGNKIT_OAUTH_CLIENT_SECRET=...
//	export SIGNKIT_OAUTH_REDIRECT_URL=http://127.0.0.1:8080/callback # the default
//	export SIGNKIT_ENV=sandbox                                       # or production
//	go run . -tokens oauth2-token.json
//
// The token file holds a refresh token: keep it as secret as the client
// secret. Nothing here prints or logs a token or a secret.
package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/oauth2"

	signkit "github.com/signkit/signkit-go"
)

// scope is the scope asked for
// (https://github.com/signkit/signkit-go/blob/main/examples/oauth2-authcode/README.md
// here says where it comes from).
const scope = "full_access"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "oauth2-authcode:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run is the command: args are its flags, getenv reads its environment,
// and out receives what it prints.
func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) (err error) {
	fs := flag.NewFlagSet("oauth2-authcode", flag.ContinueOnError)
	tokenFile := fs.String("tokens", "oauth2-token.json", "file that keeps the access and refresh tokens between runs")
	if err := fs.Parse(args); err != nil {
		return err
	}
	env, err := environment(getenv("SIGNKIT_ENV"))
	if err != nil {
		return err
	}
	conf := &oauth2.Config{
		ClientID:     getenv("SIGNKIT_OAUTH_CLIENT_ID"),
		ClientSecret: getenv("SIGNKIT_OAUTH_CLIENT_SECRET"),
		RedirectURL:  getenv("SIGNKIT_OAUTH_REDIRECT_URL"),
		Endpoint:     Endpoint(env),
		Scopes:       []string{scope},
	}
	if conf.ClientID == "" || conf.ClientSecret == "" {
		return errors.New("set SIGNKIT_OAUTH_CLIENT_ID and SIGNKIT_OAUTH_CLIENT_SECRET (an OAuth client of the platform)")
	}
	if conf.RedirectURL == "" {
		conf.RedirectURL = "http://127.0.0.1:8080/callback"
	}
	// Token requests through a client with a timeout: x/oauth2 takes no
	// context per refresh.
	ctx = context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Timeout: 30 * time.Second})

	stored, err := loadToken(*tokenFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if stored, err = authorize(ctx, conf, out); err != nil {
			return err
		}
		if err := saveToken(*tokenFile, stored); err != nil {
			return err
		}
		fmt.Fprintf(out, "signed in; tokens saved in %s\n", *tokenFile)
	case err != nil:
		return err
	}

	tokens := NewProvider(ctx, conf, stored)
	// Save the tokens however the calls end: a refresh may have rotated the
	// refresh token, and losing the new one would mean signing in again.
	defer func() {
		if serr := saveToken(*tokenFile, tokens.Saved()); serr != nil && err == nil {
			err = serr
		}
	}()
	client, err := signkit.NewClient(signkit.Config{Endpoints: env, TokenSource: tokens})
	if err != nil {
		return err
	}
	caseFiles, err := client.CaseFiles.List(ctx, nil)
	if err != nil {
		return fmt.Errorf("listing case files: %w", err)
	}
	fmt.Fprintf(out, "%d case files on the first page\n", len(caseFiles))
	subs, err := client.Subscriptions.List(ctx)
	if err != nil {
		return fmt.Errorf("listing webhook subscriptions: %w", err)
	}
	fmt.Fprintf(out, "%d webhook subscriptions\n", len(subs))
	return nil
}

// environment answers the endpoints SIGNKIT_ENV names (default sandbox).
func environment(name string) (signkit.Endpoints, error) {
	switch name {
	case "", "sandbox":
		return signkit.Sandbox, nil
	case "production":
		return signkit.Production, nil
	}
	return signkit.Endpoints{}, fmt.Errorf("SIGNKIT_ENV must be sandbox or production, not %q", name)
}

// authorize runs the authorization code grant with PKCE: it prints the
// authorize URL, serves the redirect URL until the browser comes back with
// a code (or an error), and exchanges the code for tokens.
func authorize(ctx context.Context, conf *oauth2.Config, out io.Writer) (*oauth2.Token, error) {
	redirect, err := url.Parse(conf.RedirectURL)
	if err != nil || redirect.Scheme != "http" || redirect.Host == "" {
		return nil, fmt.Errorf("SIGNKIT_OAUTH_REDIRECT_URL must be an http URL on this machine, like http://127.0.0.1:8080/callback")
	}
	ln, err := net.Listen("tcp", redirect.Host)
	if err != nil {
		return nil, fmt.Errorf("listening for the redirect: %w", err)
	}
	state, err := randomState()
	if err != nil {
		return nil, err
	}
	verifier := oauth2.GenerateVerifier()

	type result struct {
		code string
		err  error
	}
	done := make(chan result, 1)
	mux := http.NewServeMux()
	path := redirect.Path
	if path == "" {
		path = "/" // http://127.0.0.1:8080 names the root
	}
	mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		var res result
		switch {
		case q.Get("state") != state:
			http.Error(w, "unexpected state", http.StatusBadRequest)
			return // not our request: keep waiting
		case q.Get("error") != "":
			res.err = fmt.Errorf("the platform refused the authorization: %s %s", q.Get("error"), q.Get("error_description"))
		case q.Get("code") == "":
			res.err = errors.New("the redirect carries no code")
		default:
			res.code = q.Get("code")
		}
		if res.err != nil {
			http.Error(w, res.err.Error(), http.StatusBadRequest)
		} else {
			fmt.Fprintln(w, "Signed in. You can close this window.")
		}
		select {
		case done <- res:
		default:
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	fmt.Fprintf(out, "Open this URL in a browser and sign in:\n\n%s\n\nwaiting on %s ...\n",
		conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), conf.RedirectURL)
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if res.err != nil {
		return nil, res.err
	}
	requested := time.Now()
	tok, err := conf.Exchange(ctx, res.code, oauth2.VerifierOption(verifier))
	if err != nil {
		return nil, fmt.Errorf("exchanging the code: %w", err)
	}
	if tok.Expiry.IsZero() {
		tok.Expiry = expiresAt(tok, requested)
	}
	if tok.RefreshToken == "" {
		fmt.Fprintln(out, "note: the platform answered no refresh token; the next run will need a new sign-in once this token expires")
	}
	return tok, nil
}

// randomState is the state parameter that ties the redirect to this run.
func randomState() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("state: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// loadToken reads the token file.
func loadToken(path string) (*oauth2.Token, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t oauth2.Token
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if t.RefreshToken == "" && t.AccessToken == "" {
		return nil, fmt.Errorf("%s holds no token: delete it to sign in again", path)
	}
	return &t, nil
}

// saveToken writes t to path (mode 0600) through a temporary file, so that
// a crash never leaves half a file and loses the refresh token.
func saveToken(path string, t *oauth2.Token) error {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".oauth2-token-*")
	if err != nil {
		return fmt.Errorf("saving the token: %w", err)
	}
	defer os.Remove(f.Name()) // fails harmlessly once renamed
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("saving the token: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("saving the token: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("saving the token: %w", err)
	}
	return nil
}
