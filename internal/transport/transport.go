// Package transport sends the SDK's service requests: it places the access
// token the way each service wants it, replays a request once with a fresh
// token after the platform refuses the token (a 401, or the Send service's
// 400 "Invalid JWT token"), retries through package retry as the request's
// Resend class allows, encodes query strings with go-querystring, and
// decodes answers and errors through size limits.
//
// A request that changes something and was not re-sent after an answer or a
// failure that leaves its effect in doubt (502, 503, 504, a connection lost
// after the request was written) fails with an error matching
// apierror.ErrOutcomeUnknown (signkit.ErrOutcomeUnknown); a 429 with one
// matching apierror.ErrRateLimited whose RetryAfter is set. The rules, per
// endpoint, are
// https://github.com/signkit/signkit-go/blob/main/docs/retries.md.
package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/google/go-querystring/query"

	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/internal/apierror"
	"github.com/signkit/signkit-go/internal/retry"
	"github.com/signkit/signkit-go/internal/version"
)

// errEmptyToken is returned when the token provider answers a token with
// no access token and no error.
var errEmptyToken = errors.New("signkit: the token provider answered an empty access token")

// MaxJSON is the largest JSON answer that is decoded.
const MaxJSON = 32 << 20

// AuthStyle is where a service expects the access token.
type AuthStyle int

const (
	// NoAuth sends no token (the queue status check, public pages).
	NoAuth AuthStyle = iota
	// Bearer sends "Authorization: Bearer T" (forms, signing and webhook
	// services; see
	// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
	Bearer
	// XAuthToken sends "X-Auth-Token: T" (simple case file creation).
	XAuthToken
)

// Config configures a Client.
type Config struct {
	HTTPClient *http.Client       // nil: http.DefaultClient's settings
	Tokens     auth.TokenProvider // *auth.TokenSource, or signkit.Config.TokenSource
	UserAgent  string             // prefix of the SDK's User-Agent
	Logger     *slog.Logger
	Policy     retry.Policy
}

// Client sends service requests. It is safe for concurrent use.
type Client struct {
	sender    *retry.Sender
	tokens    auth.TokenProvider
	userAgent string
}

// New returns a Client for cfg.
func New(cfg Config) *Client {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{
		sender:    retry.NewSender(retry.StripAuthOnRedirect(hc), cfg.Policy, cfg.Logger),
		tokens:    cfg.Tokens,
		userAgent: version.UserAgent(cfg.UserAgent),
	}
}

// Request describes one service call.
type Request struct {
	Method string
	URL    string    // absolute, see JoinURL
	Query  any       // a struct with `url` tags, encoded by go-querystring; nil for none
	Auth   AuthStyle // where the token goes
	Accept string    // default application/json
	JSON   any       // marshalled as the JSON body when non-nil
	// Body is a raw body, opened afresh for every attempt; ContentType goes with it.
	Body        retry.Body
	ContentType string
	Header      http.Header // extra headers
	// GoneIsDone marks a DELETE whose 404 on a retry means success: an
	// earlier attempt whose answer was lost (a timeout, a dropped
	// connection) already deleted the resource.
	GoneIsDone bool
	// Resend says when the request may be sent again
	// (https://github.com/signkit/signkit-go/blob/main/docs/retries.md); the
	// zero value, retry.ByMethod, re-sends GET, PUT and DELETE after a
	// transient failure and a POST only when it never left.
	Resend retry.Class

	// Attempts is set by Send: how many times the request was sent, the
	// replay after a refused token included.
	Attempts int
	// Resent is set by Send: whether a copy was sent again after an
	// attempt that may have taken effect (a 429, 502, 503 or 504, or a
	// connection lost after the request was written). A ConflictSafe
	// request whose Resent answer is 409 may have met its own first copy.
	Resent bool
}

// JoinURL appends path segments to base, escaping each one.
func JoinURL(base string, segments ...string) string {
	var b strings.Builder
	b.WriteString(strings.TrimRight(base, "/"))
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}

// Do sends r and decodes a 2xx JSON answer into out (nil discards it). A
// failure status becomes an *apierror.Error.
func (c *Client) Do(ctx context.Context, r *Request, out any) error {
	resp, err := c.Send(ctx, r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if out == nil || resp.StatusCode == http.StatusNoContent {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, MaxJSON))
		return nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, MaxJSON)).Decode(out); err != nil {
		return fmt.Errorf("signkit: decoding answer of %s %s: %w", r.Method, r.path(), err)
	}
	return nil
}

// SendAndRead sends r and reads its 2xx answer's body whole (at most
// MaxJSON bytes), closing it: for answers a caller must see before it
// decodes them.
func (c *Client) SendAndRead(ctx context.Context, r *Request) (*http.Response, []byte, error) {
	resp, err := c.Send(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxJSON))
	if err != nil {
		return nil, nil, fmt.Errorf("signkit: reading answer of %s %s: %w", r.Method, r.path(), err)
	}
	return resp, body, nil
}

// Download sends r and streams a 2xx answer's body into w, returning the
// number of bytes written.
func (c *Client) Download(ctx context.Context, r *Request, w io.Writer) (int64, error) {
	resp, err := c.Send(ctx, r)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(w, resp.Body)
	if err != nil {
		return n, fmt.Errorf("signkit: reading answer of %s %s: %w", r.Method, r.path(), err)
	}
	return n, nil
}

// Send sends r and returns a 2xx answer, whose body the caller must close.
// Any other status becomes an *apierror.Error, with the body closed, except a
// 404 to a retry of a request marked GoneIsDone, which is answered as a 204.
// When the platform refuses the token (a 401, or a 400 whose message starts
// with "Invalid JWT token", see apierror.Error.TokenRejected) the token that
// was used is invalidated and the request replayed once with a new token; a
// second refusal is returned, matching apierror.ErrUnauthorized.
//
// A request whose class (Request.Resend) may change something fails, when
// its outcome is in doubt, with an error matching apierror.ErrOutcomeUnknown:
// an *apierror.Error with OutcomeUnknown set for a 502, 503 or 504, or the
// transport error for a connection lost after the request was written.
func (c *Client) Send(ctx context.Context, r *Request) (*http.Response, error) {
	body, err := r.body()
	if err != nil {
		return nil, err
	}
	r.Attempts, r.Resent = 0, false
	resp, tok, err := c.attempt(ctx, r, body)
	if err != nil {
		return nil, err
	}
	if r.Auth != NoAuth {
		rejected, apiErr := tokenRejected(resp)
		if apiErr != nil {
			return nil, apiErr
		}
		if rejected {
			c.tokens.Invalidate(tok)
			if resp, _, err = c.attempt(ctx, r, body); err != nil {
				return nil, err
			}
		}
	}
	if resp.StatusCode == http.StatusNotFound && r.GoneIsDone && retry.Attempts(resp) > 1 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, apierror.MaxBody))
		resp.Body.Close()
		return &http.Response{StatusCode: http.StatusNoContent, Header: http.Header{}, Body: http.NoBody, Request: resp.Request}, nil
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := apierror.FromResponse(resp)
		switch e.StatusCode {
		case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			e.OutcomeUnknown = r.Resend.For(r.Method).ChangesState()
		}
		return nil, e
	}
	return resp, nil
}

// tokenRejected reports whether resp refuses the token, closing its body
// then. A 400 is read to tell a refused token from a refused request: when it
// is the latter, its *apierror.Error is answered (the body is closed too).
// Any other answer is left untouched.
func tokenRejected(resp *http.Response) (bool, *apierror.Error) {
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, apierror.MaxBody))
		resp.Body.Close()
		return true, nil
	case http.StatusBadRequest:
		e := apierror.FromResponse(resp)
		if e.TokenRejected() {
			return true, nil
		}
		return false, e
	}
	return false, nil
}

// attempt sends r once through the retrying sender with the current token.
func (c *Client) attempt(ctx context.Context, r *Request, body retry.Body) (*http.Response, auth.Token, error) {
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return nil, auth.Token{}, err
	}
	var tok auth.Token
	if r.Auth != NoAuth {
		if tok, err = c.tokens.Token(ctx); err != nil {
			return nil, tok, err
		}
		if tok.AccessToken == "" {
			// A provider of the user's (signkit.Config.TokenSource) broke
			// its contract; a request without a token would only be refused.
			return nil, tok, errEmptyToken
		}
		setToken(req.Header, r.Auth, tok.AccessToken)
	}
	resp, err := c.sender.Send(req, body, r.Resend)
	if err != nil {
		if r.Resend.For(r.Method).ChangesState() && retry.Written(err) {
			return nil, tok, fmt.Errorf("signkit: %s %s: %w: %w", r.Method, req.URL.Path, err, apierror.ErrOutcomeUnknown)
		}
		return nil, tok, fmt.Errorf("signkit: %s %s: %w", r.Method, req.URL.Path, err)
	}
	r.Attempts += retry.Attempts(resp)
	r.Resent = r.Resent || retry.Resent(resp)
	return resp, tok, nil
}

func (c *Client) newRequest(ctx context.Context, r *Request) (*http.Request, error) {
	u := r.URL
	if r.Query != nil {
		v, err := query.Values(r.Query)
		if err != nil {
			return nil, fmt.Errorf("signkit: encoding query: %w", err)
		}
		if q := v.Encode(); q != "" {
			u += "?" + q
		}
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, u, nil)
	if err != nil {
		return nil, fmt.Errorf("signkit: building request: %w", err)
	}
	for k, vs := range r.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	accept := r.Accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.userAgent)
	switch {
	case r.JSON != nil:
		req.Header.Set("Content-Type", "application/json")
	case r.Body != nil && r.ContentType != "":
		req.Header.Set("Content-Type", r.ContentType)
	}
	return req, nil
}

// path is the path of r.URL, for error messages (no query, no user info).
func (r *Request) path() string {
	if u, err := url.Parse(r.URL); err == nil {
		return u.Path
	}
	return r.URL
}

// body returns the opener of r's body: its JSON marshalled once, or r.Body.
func (r *Request) body() (retry.Body, error) {
	if r.JSON == nil {
		return r.Body, nil
	}
	b, err := json.Marshal(r.JSON)
	if err != nil {
		return nil, fmt.Errorf("signkit: encoding request body: %w", err)
	}
	return func() (io.ReadCloser, int64, error) {
		return io.NopCloser(bytes.NewReader(b)), int64(len(b)), nil
	}, nil
}

func setToken(h http.Header, style AuthStyle, token string) {
	switch style {
	case Bearer:
		h.Set("Authorization", "Bearer "+token)
	case XAuthToken:
		h.Set("X-Auth-Token", token)
	}
}
