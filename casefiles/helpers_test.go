package casefiles_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/require"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/auth"
)

// The fake platform lives under a base path, so that a client building
// absolute paths ("/api/v1/...") instead of joining them to the endpoints
// fails.
const (
	host    = "https://cf.test/base"
	signURL = host           // signkit.LocalEndpoints: Sign
	sendURL = host + "/send" // signkit.LocalEndpoints: Send

	createPath = `/api/v1/casefiles/20251022/create`
	statusPath = `/api/v1/queue/public/status`
)

// env is an SDK client wired to an httpmock transport with a token endpoint.
type env struct {
	mt     *httpmock.MockTransport
	client *signkit.Client
	tokens atomic.Int32
}

// newEnv returns an env whose client does not retry; pass retries to change
// it (0: the default policy). Any request without a responder fails the test.
func newEnv(t testing.TB, retries ...int) *env {
	t.Helper()
	e := &env{mt: httpmock.NewMockTransport()}
	e.mt.RegisterResponder(http.MethodPost, host+"/auth/oauth/token", func(*http.Request) (*http.Response, error) {
		n := e.tokens.Add(1)
		return httpmock.NewJsonResponse(http.StatusOK, map[string]any{
			"access_token": fmt.Sprintf("tok-%d", n), "token_type": "Bearer", "expires_in": 600,
		})
	})
	e.mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		return httpmock.NewStringResponse(599, "no responder"), nil
	})
	maxRetries := -1
	if len(retries) > 0 {
		maxRetries = retries[0]
	}
	c, err := signkit.NewClient(signkit.Config{
		Endpoints: signkit.LocalEndpoints(host),
		Credentials: auth.Credentials{
			ClientID: "client", ClientSecret: "client-secret", APIKey: "key", APISecret: "api-secret",
		},
		HTTPClient: &http.Client{Transport: e.mt},
		MaxRetries: maxRetries,
	})
	require.NoError(t, err)
	e.client = c
	return e
}

// recorded is what a handler saw of one request.
type recorded struct {
	Method, URL, Auth, XAuthToken, Accept, ContentType string
	ContentLength                                      int64
	Body                                               []byte
	BodyErr                                            error
	At                                                 time.Time
}

// recorder counts and records the requests answered by one handler.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

func (r *recorder) add(req *http.Request) int {
	rec := recorded{
		Method: req.Method, URL: req.URL.String(), Auth: req.Header.Get("Authorization"),
		XAuthToken: req.Header.Get("X-Auth-Token"), Accept: req.Header.Get("Accept"),
		ContentType: req.Header.Get("Content-Type"), ContentLength: req.ContentLength, At: time.Now(),
	}
	if req.Body != nil {
		rec.Body, rec.BodyErr = io.ReadAll(req.Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, rec)
	return len(r.reqs)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.reqs...)
}

func (r *recorder) last() recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		return recorded{}
	}
	return r.reqs[len(r.reqs)-1]
}

// handle mounts fn for method on base (sendURL or signURL) followed by path
// (a regexp; a query string is allowed) and returns its recorder. fn gets
// the request and the 1-based attempt number.
func (e *env) handle(method, base, path string, fn func(r *http.Request, n int) (*http.Response, error)) *recorder {
	rec := &recorder{}
	rx := regexp.MustCompile("^" + regexp.QuoteMeta(base) + path + `(\?.*)?$`)
	e.mt.RegisterRegexpResponder(method, rx, func(r *http.Request) (*http.Response, error) {
		resp, err := fn(r, rec.add(r))
		if resp != nil {
			resp.Request = r // as net/http's transport does; the SDK reads it
		}
		return resp, err
	})
	return rec
}

// reply mounts a fixed answer.
func (e *env) reply(method, base, path string, status int, body string) *recorder {
	return e.handle(method, base, path, func(*http.Request, int) (*http.Response, error) {
		return jsonResponse(status, body), nil
	})
}

func jsonResponse(status int, body string) *http.Response {
	r := httpmock.NewStringResponse(status, body)
	r.Header.Set("Content-Type", "application/json")
	return r
}

// ctx is a test context.
func ctx(t testing.TB) context.Context { return t.Context() }
