package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/mockserver"
)

// fakeRefreshes stands for the token endpoint: every refresh answers
// acc-N and a new refresh token ref-N, and it records the refresh token
// each refresh spent.
type fakeRefreshes struct {
	mu    sync.Mutex
	n     int
	spent []string
	err   error
}

// source is the refresh func of newProvider.
func (f *fakeRefreshes) source(refreshToken string) oauth2.TokenSource {
	return &fakeRefresher{f: f, rt: refreshToken}
}

func (f *fakeRefreshes) log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.spent...)
}

type fakeRefresher struct {
	f  *fakeRefreshes
	rt string
}

func (r *fakeRefresher) Token() (*oauth2.Token, error) {
	f := r.f
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	f.n++
	f.spent = append(f.spent, r.rt)
	r.rt = fmt.Sprintf("ref-%d", f.n)
	return &oauth2.Token{AccessToken: fmt.Sprintf("acc-%d", f.n), RefreshToken: r.rt, Expiry: time.Now().Add(10 * time.Minute)}, nil
}

func mustToken(t *testing.T, p *Provider) string {
	t.Helper()
	tok, err := p.Token(context.Background())
	if err != nil {
		t.Fatalf("Token: %v", err)
	}
	return tok.AccessToken
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// TestProviderRefreshesWhenDueOrInvalidated: the stored access token is
// used while valid; a token within a minute of expiry is refreshed; an
// invalidated current token is refreshed with the latest refresh token; an
// invalidated older token changes nothing.
func TestProviderRefreshesWhenDueOrInvalidated(t *testing.T) {
	later := time.Now().Add(time.Hour)
	tests := []struct {
		name        string
		stored      *oauth2.Token
		steps       []string // "token" or "invalidate <access token>"
		wantTokens  []string // what each "token" step answers
		wantRefresh []string // the refresh tokens spent, in order
	}{
		{"stored token while valid", &oauth2.Token{AccessToken: "acc-0", RefreshToken: "ref-0", Expiry: later},
			[]string{"token", "token"}, []string{"acc-0", "acc-0"}, nil},
		{"stored token about to expire", &oauth2.Token{AccessToken: "acc-0", RefreshToken: "ref-0", Expiry: time.Now().Add(30 * time.Second)},
			[]string{"token", "token"}, []string{"acc-1", "acc-1"}, []string{"ref-0"}},
		{"refresh token only", &oauth2.Token{RefreshToken: "ref-0"},
			[]string{"token"}, []string{"acc-1"}, []string{"ref-0"}},
		{"invalidate the stored token", &oauth2.Token{AccessToken: "acc-0", RefreshToken: "ref-0", Expiry: later},
			[]string{"token", "invalidate acc-0", "token", "token"}, []string{"acc-0", "acc-1", "acc-1"}, []string{"ref-0"}},
		{"invalidate keeps the replaced refresh token", &oauth2.Token{RefreshToken: "ref-0"},
			[]string{"token", "invalidate acc-1", "token", "invalidate acc-2", "token"}, []string{"acc-1", "acc-2", "acc-3"},
			[]string{"ref-0", "ref-1", "ref-2"}},
		{"invalidate an older token", &oauth2.Token{RefreshToken: "ref-0"},
			[]string{"token", "invalidate acc-1", "token", "invalidate acc-1", "token"}, []string{"acc-1", "acc-2", "acc-2"},
			[]string{"ref-0", "ref-1"}},
		{"invalidate twice", &oauth2.Token{AccessToken: "acc-0", RefreshToken: "ref-0", Expiry: later},
			[]string{"token", "invalidate acc-0", "invalidate acc-0", "token"}, []string{"acc-0", "acc-1"}, []string{"ref-0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &fakeRefreshes{}
			p := newProvider(tt.stored, f.source)
			var got []string
			for _, step := range tt.steps {
				if stale, ok := strings.CutPrefix(step, "invalidate "); ok {
					p.Invalidate(auth.Token{AccessToken: stale})
					continue
				}
				got = append(got, mustToken(t, p))
			}
			equal(t, "tokens", got, tt.wantTokens)
			equal(t, "refresh tokens spent", f.log(), tt.wantRefresh)
		})
	}
}

// TestProviderSavedHoldsTheLatestRefreshToken: what a program stores
// between runs is the refresh token that replaced the stored one.
func TestProviderSavedHoldsTheLatestRefreshToken(t *testing.T) {
	f := &fakeRefreshes{}
	p := newProvider(&oauth2.Token{RefreshToken: "ref-0"}, f.source)
	mustToken(t, p)
	p.Invalidate(auth.Token{AccessToken: "acc-1"})
	equal(t, "saved after Invalidate", p.Saved().RefreshToken, "ref-1")
	mustToken(t, p)
	s := p.Saved()
	equal(t, "saved", s.AccessToken+" "+s.RefreshToken, "acc-2 ref-2")
}

// TestProviderConcurrentCallersShareARefresh: many callers, and many
// invalidations of one token, spend each refresh token once.
func TestProviderConcurrentCallersShareARefresh(t *testing.T) {
	f := &fakeRefreshes{}
	p := newProvider(&oauth2.Token{RefreshToken: "ref-0"}, f.source)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			tok, err := p.Token(context.Background())
			if err != nil {
				t.Errorf("Token: %v", err)
				return
			}
			p.Invalidate(tok) // as the SDK does after a 401
			if _, err := p.Token(context.Background()); err != nil {
				t.Errorf("Token: %v", err)
			}
		})
	}
	wg.Wait()
	spent := map[string]bool{}
	for _, rt := range f.log() {
		if spent[rt] {
			t.Errorf("refresh token %s spent twice: %v", rt, f.log())
		}
		spent[rt] = true
	}
	if n := len(f.log()); n < 2 || n > 21 {
		t.Errorf("%d refreshes, want 2 to 21", n)
	}
}

// TestProviderRefreshFailure: a failed refresh is the error of Token,
// wrapped, and shows neither the refresh token nor the client secret.
func TestProviderRefreshFailure(t *testing.T) {
	f := &fakeRefreshes{err: &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "refresh token revoked"}}
	p := newProvider(&oauth2.Token{RefreshToken: "ref-secret-0"}, f.source)
	_, err := p.Token(context.Background())
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) || re.ErrorCode != "invalid_grant" {
		t.Fatalf("err = %v, want the RetrieveError wrapped", err)
	}
	if strings.Contains(err.Error(), "ref-secret-0") {
		t.Errorf("the error shows the refresh token: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Token(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Token(cancelled ctx) = %v, want context.Canceled", err)
	}
}

// tokenEndpoint is a fake of the platform's token endpoint for the
// refresh_token grant: it checks the request (client id and secret in the body,
// https://github.com/signkit/signkit-go/blob/main/examples/oauth2-authcode/README.md),
// answers access tokens from issue with access_token_expires_at (no expires_in)
// and a new refresh token ref-N, and refuses a refresh token other than the
// latest.
type tokenEndpoint struct {
	t     *testing.T
	issue func() (string, error)

	mu       sync.Mutex
	latest   string
	n        int
	noRotate bool
}

func (e *tokenEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/oauth/token" {
		http.NotFound(w, r)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	for k, want := range map[string]string{"grant_type": "refresh_token", "client_id": "client-1", "client_secret": "client-secret-1"} {
		if got := r.PostForm.Get(k); got != want {
			e.t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if r.PostForm.Get("refresh_token") != e.latest {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"error":"invalid_grant","error_description":"refresh token is invalid"}`)
		return
	}
	access, err := e.issue()
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	e.n++
	answer := map[string]any{"access_token": access, "token_type": "Bearer",
		"access_token_expires_at": time.Now().Add(10 * time.Minute).Unix()}
	if !e.noRotate {
		e.latest = fmt.Sprintf("ref-%d", e.n)
		answer["refresh_token"] = e.latest
	}
	_ = json.NewEncoder(w).Encode(answer)
}

func (e *tokenEndpoint) refreshes() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.n
}

// newConf is an OAuth client of the fake endpoint at base.
func newConf(base string) *oauth2.Config {
	return &oauth2.Config{ClientID: "client-1", ClientSecret: "client-secret-1",
		Endpoint: Endpoint(signkit.Endpoints{Auth: base})}
}

// TestRefresherAgainstATokenEndpoint: through x/oauth2, a refresh sends
// the refresh_token grant, reads access_token_expires_at as the expiry,
// and spends the refresh token that replaced the stored one (or keeps it
// when the answer has none).
func TestRefresherAgainstATokenEndpoint(t *testing.T) {
	for _, rotate := range []bool{true, false} {
		t.Run(fmt.Sprintf("rotate=%v", rotate), func(t *testing.T) {
			n := 0
			e := &tokenEndpoint{t: t, latest: "ref-0", noRotate: !rotate,
				issue: func() (string, error) { n++; return fmt.Sprintf("acc-%d", n), nil }}
			srv := httptest.NewServer(e)
			defer srv.Close()
			p := NewProvider(context.Background(), newConf(srv.URL), &oauth2.Token{RefreshToken: "ref-0"})
			tok, err := p.Token(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			equal(t, "access token", tok.AccessToken, "acc-1")
			if d := time.Until(tok.ExpiresAt); d < 9*time.Minute || d > 11*time.Minute {
				t.Errorf("expires in %v, want about 10 minutes (access_token_expires_at)", d)
			}
			mustToken(t, p) // cached: no refresh
			p.Invalidate(tok)
			equal(t, "after Invalidate", mustToken(t, p), "acc-2")
			equal(t, "refreshes", e.refreshes(), 2)
			want := "ref-2"
			if !rotate {
				want = "ref-0"
			}
			equal(t, "saved refresh token", p.Saved().RefreshToken, want)
		})
	}
}

// TestProviderDrivesTheSDK: with the Provider as signkit.Config.TokenSource
// against the mock server (whose tokens the fake token endpoint hands out),
// a stored access token the platform refuses is invalidated and refreshed
// once, and the calls succeed.
func TestProviderDrivesTheSDK(t *testing.T) {
	mock := mockserver.Start(t)
	e := &tokenEndpoint{t: t, latest: "ref-0", issue: func() (string, error) { return mockToken(mock.URL()) }}
	srv := httptest.NewServer(e)
	defer srv.Close()
	stored := &oauth2.Token{AccessToken: "revoked-access-token", RefreshToken: "ref-0", Expiry: time.Now().Add(time.Hour)}
	p := NewProvider(context.Background(), newConf(srv.URL), stored)
	client, err := signkit.NewClient(signkit.Config{Endpoints: signkit.LocalEndpoints(mock.URL()), TokenSource: p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Subscriptions.List(t.Context()); err != nil {
		t.Fatalf("Subscriptions.List: %v", err)
	}
	equal(t, "refreshes after the refused token", e.refreshes(), 1)
	if _, err := client.CaseFiles.List(t.Context(), nil); err != nil {
		t.Fatalf("List: %v", err)
	}
	equal(t, "refreshes after a second call", e.refreshes(), 1)
	equal(t, "saved refresh token", p.Saved().RefreshToken, "ref-1")
}

// mockToken takes an access token from the mock's token shortcut.
func mockToken(base string) (string, error) {
	resp, err := http.Post(base+"/mock/token", "application/json", nil)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		return "", fmt.Errorf("mock token: status %d, %v", resp.StatusCode, err)
	}
	return out.AccessToken, nil
}
