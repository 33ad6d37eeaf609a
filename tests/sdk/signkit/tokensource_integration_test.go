package signkit_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
	"github.com/signkit/signkit-go/casefiles"
	"github.com/signkit/signkit-go/forms"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/subscriptions"
	"github.com/signkit/signkit-go/webhooks"
)

// shortcutSource is a token provider of a user's: it takes its tokens from
// the mock's token shortcut (POST {mock}/mock/token), not from the API Keys
// Grant, caches the current one, and records how the client uses it. Before
// it asks the mock, it hands out the tokens of first, one per Token call;
// with always set, it hands out only that.
type shortcutSource struct {
	base   string
	first  []string
	always string

	mu          sync.Mutex
	current     auth.Token
	tokenCalls  int
	fetched     int
	invalidated []auth.Token
	err         error // of the last fetch
}

func (s *shortcutSource) Token(ctx context.Context) (auth.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokenCalls++
	switch {
	case s.always != "":
		return auth.Token{AccessToken: s.always}, nil
	case len(s.first) > 0:
		tok := s.first[0]
		s.first = s.first[1:]
		return auth.Token{AccessToken: tok}, nil
	case s.current.AccessToken != "":
		return s.current, nil
	}
	tok, err := s.fetch(ctx)
	if err != nil {
		s.err = err
		return auth.Token{}, err
	}
	s.current = tok
	return tok, nil
}

func (s *shortcutSource) Invalidate(stale auth.Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.invalidated = append(s.invalidated, stale)
	if s.current.AccessToken == stale.AccessToken {
		s.current = auth.Token{}
	}
}

// fetch asks the mock's shortcut for a token of the default admin user.
func (s *shortcutSource) fetch(ctx context.Context) (auth.Token, error) {
	s.fetched++
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/mock/token", nil)
	if err != nil {
		return auth.Token{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return auth.Token{}, fmt.Errorf("mock token: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return auth.Token{}, fmt.Errorf("mock token: status %d", resp.StatusCode)
	}
	var out struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return auth.Token{}, fmt.Errorf("mock token: %w", err)
	}
	return auth.Token{AccessToken: out.AccessToken, ExpiresAt: time.Now().Add(time.Duration(out.ExpiresIn) * time.Second)}, nil
}

func (s *shortcutSource) counts() (tokenCalls, fetched int, invalidated []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.invalidated {
		invalidated = append(invalidated, t.AccessToken)
	}
	return s.tokenCalls, s.fetched, invalidated
}

// cached is the token the source holds now.
func (s *shortcutSource) cached() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current.AccessToken
}

// sentRequest is one request the client sent: where, and the token headers.
type sentRequest struct {
	method, path, authorization, xAuthToken string
}

// recorder is an http.RoundTripper that records every request.
type recorder struct {
	mu   sync.Mutex
	sent []sentRequest
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.sent = append(r.sent, sentRequest{req.Method, req.URL.Path, req.Header.Get("Authorization"), req.Header.Get("X-Auth-Token")})
	r.mu.Unlock()
	return http.DefaultTransport.RoundTrip(req)
}

func (r *recorder) requests() []sentRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sentRequest(nil), r.sent...)
}

// sourceClient starts a mock and a client that takes its tokens from src
// (whose base is set to the mock's URL), with no Credentials.
func sourceClient(t *testing.T, src *shortcutSource) (*mockserver.Server, *signkit.Client, *recorder) {
	t.Helper()
	srv := mockserver.Start(t, mockserver.WithJobDelay(0))
	src.base = srv.URL()
	rec := &recorder{}
	c, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(srv.URL()),
		TokenSource: src,
		HTTPClient:  &http.Client{Transport: rec},
	})
	require.NoError(t, err)
	return srv, c, rec
}

// oneSigner is a case file with one document and one signer.
func oneSigner(t *testing.T, title string) (*casefiles.CaseFile, casefiles.Upload) {
	cf := &casefiles.CaseFile{
		Title:     title,
		Signers:   []casefiles.Signer{{Name: "Ada Owner", Email: "ada@example.com"}},
		Documents: []casefiles.Document{{Name: "agreement.pdf", Title: "Agreement"}},
	}
	return cf, casefiles.BytesUpload("agreement.pdf", mockserver.SamplePDF(title))
}

// mockControl POSTs a call of the mock's control API.
func mockControl(t *testing.T, srv *mockserver.Server, path string) {
	t.Helper()
	resp, err := http.Post(srv.URL()+path, "application/json", nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Less(t, resp.StatusCode, 300, "POST %s", path)
}

// TestTokenSourceDrivesEveryService: with Config.TokenSource and no
// Credentials, every service call of a whole flow (forms, case files,
// webhooks) takes its token from the source, placed the way each service
// expects, and the API Keys Grant is never used.
func TestTokenSourceDrivesEveryService(t *testing.T) {
	t.Parallel()
	src := &shortcutSource{}
	srv, c, rec := sourceClient(t, src)
	ctx := t.Context()
	calls := 0 // service calls that need a token

	// Forms: Create, Publish, CreateRequest, Get, ListSubmissions.
	form, err := c.Forms.Create(ctx, &forms.Form{Name: "Token source", Language: "en", Sections: []forms.Section{
		{Slug: "you", Title: "You", Fields: []forms.Field{
			{Name: "name", Label: "Name", Type: forms.TypeText, Required: true, MapTo: "primarySigner.name"},
			{Name: "email", Label: "Email", Type: forms.TypeEmail, Required: true, MapTo: "primarySigner.email"},
		}},
	}})
	require.NoError(t, err)
	require.NotEmpty(t, form.ExternalID)
	live, err := c.Forms.Publish(ctx, form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, forms.StatusActive, live.Status)
	link, err := c.Forms.CreateRequest(ctx, form.ExternalID, &forms.PrefillRequest{
		Answers: map[string]forms.PrefillAnswer{"email": {Value: "p@example.com"}}})
	require.NoError(t, err)
	assert.NotEmpty(t, link.RequestURL)
	got, err := c.Forms.Get(ctx, form.ExternalID)
	require.NoError(t, err)
	assert.Equal(t, "Token source", got.Name)
	subs, err := c.Forms.ListSubmissions(ctx, form.ExternalID, nil)
	require.NoError(t, err)
	assert.Empty(t, subs)
	calls += 5

	// Case files: Create, Wait (the queue status check needs no token),
	// Get, List, DownloadDocument once signed.
	cf, upload := oneSigner(t, "Token source agreement")
	job, err := c.CaseFiles.Create(ctx, cf, upload)
	require.NoError(t, err)
	res, err := c.CaseFiles.Wait(ctx, job)
	require.NoError(t, err)
	d, err := c.CaseFiles.Get(ctx, res.CaseFileID)
	require.NoError(t, err)
	require.Len(t, d.Signers, 1)
	require.Len(t, d.Documents, 1)
	mockControl(t, srv, fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", d.ID, d.Signers[0].ID))
	list, err := c.CaseFiles.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list, 1)
	assert.Equal(t, d.ID, list[0].ID)
	assert.Equal(t, casefiles.CaseFileCompleted, list[0].Status, list[0].Status.String())
	var pdf bytes.Buffer
	n, err := c.CaseFiles.DownloadDocument(ctx, d.Documents[0].ID, &pdf)
	require.NoError(t, err)
	assert.Equal(t, int64(pdf.Len()), n)
	assert.True(t, bytes.HasPrefix(pdf.Bytes(), []byte("%PDF-")))
	calls += 4

	// Subscriptions: Create, List, Delete.
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(hook.Close)
	sub, err := c.Subscriptions.Create(ctx, &subscriptions.Request{
		Endpoint: hook.URL + "/hook", EventTypes: []webhooks.EventType{webhooks.CaseFileCompleted}})
	require.NoError(t, err)
	all, err := c.Subscriptions.List(ctx)
	require.NoError(t, err)
	require.Len(t, all, 1)
	assert.Equal(t, sub.ID, all[0].ID)
	require.NoError(t, c.Subscriptions.Delete(ctx, sub.ID))
	all, err = c.Subscriptions.List(ctx)
	require.NoError(t, err)
	assert.Empty(t, all)
	calls += 4

	tokenCalls, fetched, invalidated := src.counts()
	assert.Equal(t, 1, fetched, "one token from the shortcut served every call")
	assert.Empty(t, invalidated, "no token was refused")
	tok := src.cached()
	require.NotEmpty(t, tok)

	// Every request carried the source's token where its service wants
	// it, except the queue status check, which needs none; the API Keys
	// Grant was never asked.
	withToken := 0
	for _, r := range rec.requests() {
		switch {
		case strings.HasPrefix(r.path, "/auth/"):
			t.Errorf("%s %s: the API Keys Grant was used", r.method, r.path)
		case r.path == "/send/api/v1/queue/public/status":
			assert.Empty(t, r.authorization+r.xAuthToken, "the status check carries no token")
		case strings.HasPrefix(r.path, "/send/"):
			assert.Equal(t, tok, r.xAuthToken, "%s %s", r.method, r.path)
			assert.Empty(t, r.authorization, "%s %s", r.method, r.path)
			withToken++
		default:
			assert.Equal(t, "Bearer "+tok, r.authorization, "%s %s", r.method, r.path)
			withToken++
		}
	}
	assert.GreaterOrEqual(t, withToken, calls, "every service call sent its token")
	assert.Equal(t, withToken, tokenCalls, "one Token call per request that carries a token")
}

// wellFormedUnknown is a token of the mock's form (unpadded base64url of 48
// hex digits) that the mock never issued: every service refuses it with a
// 401, the Send service included.
var wellFormedUnknown = base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat("0123456789ab", 4)))

// TestTokenSourceRefusedTokenIsReplaced: when the platform refuses the
// source's token (a 401, or the Send service's 400 "Invalid JWT token" for
// a malformed one), the client calls Invalidate with it, asks Token once
// more and replays the request, which succeeds with the new token.
func TestTokenSourceRefusedTokenIsReplaced(t *testing.T) {
	t.Parallel()
	calls := map[string]func(t *testing.T, c *signkit.Client) error{
		"webhooks list": func(t *testing.T, c *signkit.Client) error {
			_, err := c.Subscriptions.List(t.Context())
			return err
		},
		"case files list": func(t *testing.T, c *signkit.Client) error {
			_, err := c.CaseFiles.List(t.Context(), nil)
			return err
		},
		"case file create": func(t *testing.T, c *signkit.Client) error {
			cf, upload := oneSigner(t, "Replayed create")
			job, err := c.CaseFiles.Create(t.Context(), cf, upload)
			if err == nil {
				_, err = c.CaseFiles.Wait(t.Context(), job) // the replayed create made a case file
			}
			return err
		},
	}
	tests := []struct {
		name, bad, call string
	}{
		{"unknown token, webhook service", wellFormedUnknown, "webhooks list"},
		{"unknown token, sign service", wellFormedUnknown, "case files list"},
		{"unknown token, send service (401)", wellFormedUnknown, "case file create"},
		{"malformed token, send service (400 Invalid JWT)", "not-a-jwt", "case file create"},
		{"expired token", "", "case files list"}, // "": an expired token of the mock's
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := &shortcutSource{}
			srv, c, _ := sourceClient(t, src)
			bad := tt.bad
			if bad == "" {
				tok, err := src.fetch(t.Context())
				require.NoError(t, err)
				srv.Advance(10*time.Minute + time.Second) // the mock's tokens live 10 minutes
				bad = tok.AccessToken
			}
			src.first = []string{bad}
			before, _, _ := src.counts()

			require.NoError(t, calls[tt.call](t, c))
			tokenCalls, _, invalidated := src.counts()
			assert.Equal(t, []string{bad}, invalidated, "Invalidate once, with the refused token")
			assert.Equal(t, 2, tokenCalls-before, "Token asked again once after the refusal")
		})
	}
}

// TestTokenSourceRefusedTwiceFails: a source whose every token is refused
// fails the call with ErrUnauthorized after one replay: Invalidate once,
// Token twice.
func TestTokenSourceRefusedTwiceFails(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, bad string
		call      func(t *testing.T, c *signkit.Client) error
	}{
		{"401, webhooks", wellFormedUnknown, func(t *testing.T, c *signkit.Client) error {
			_, err := c.Subscriptions.List(t.Context())
			return err
		}},
		{"401, forms", "not-a-jwt", func(t *testing.T, c *signkit.Client) error {
			_, err := c.Forms.Get(t.Context(), "any-form")
			return err
		}},
		{"400 Invalid JWT, send", "not-a-jwt", func(t *testing.T, c *signkit.Client) error {
			cf, upload := oneSigner(t, "Never created")
			_, err := c.CaseFiles.Create(t.Context(), cf, upload)
			return err
		}},
		{"401, send", wellFormedUnknown, func(t *testing.T, c *signkit.Client) error {
			cf, upload := oneSigner(t, "Never created")
			_, err := c.CaseFiles.Create(t.Context(), cf, upload)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := &shortcutSource{always: tt.bad}
			_, c, _ := sourceClient(t, src)
			err := tt.call(t, c)
			require.ErrorIs(t, err, signkit.ErrUnauthorized)
			assert.NotErrorIs(t, err, signkit.ErrValidation)
			assert.NotContains(t, err.Error(), tt.bad, "the error shows no token")
			tokenCalls, fetched, invalidated := src.counts()
			assert.Equal(t, []string{tt.bad}, invalidated, "Invalidate once, with the refused token")
			assert.Equal(t, 2, tokenCalls, "Token asked twice")
			assert.Zero(t, fetched)
		})
	}
}

// TestTokenSourceAgainstTheMocksHandler is what ExampleConfig_tokenSource
// checked against the mock before it moved to a stand-in server: a client
// with only a TokenSource (asking the mock's token shortcut) reaches the
// mock's handler served by a plain httptest server.
func TestTokenSourceAgainstTheMocksHandler(t *testing.T) {
	t.Parallel()
	srv := mockserver.New()
	t.Cleanup(srv.Close)
	web := httptest.NewServer(srv.Handler())
	t.Cleanup(web.Close)

	client, err := signkit.NewClient(signkit.Config{
		Endpoints:   signkit.LocalEndpoints(web.URL),
		TokenSource: &shortcutSource{base: web.URL},
	})
	require.NoError(t, err)
	subs, err := client.Subscriptions.List(t.Context())
	require.NoError(t, err)
	assert.Empty(t, subs)
}
