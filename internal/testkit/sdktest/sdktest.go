// Package sdktest is the shared test kit of the service packages: an SDK
// client wired to an httpmock transport with a token endpoint, request
// recorders, and RunFailurePaths, which puts any call through the failure
// paths every call must handle (401 then renewal, 404, 422 with details, 500,
// a malformed answer, a cancelled context).
package sdktest

import (
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

// Host is the fake platform's base URL. The services sit under it at their
// LocalEndpoints paths (/collect/api, /send, /webhook, and the signing
// service at the base itself), all under a base path, so a client that
// builds absolute paths instead of joining them to its endpoint fails.
const Host = "https://platform.test/base"

// Endpoints are the fake platform's service URLs.
var Endpoints = signkit.LocalEndpoints(Host)

// Credentials are the fake account's; tests scan for the secrets.
var Credentials = auth.Credentials{ClientID: "client", ClientSecret: "client-secret-S3", APIKey: "key", APISecret: "api-secret-S3"}

// Env is an SDK client whose requests go to an httpmock transport. Any
// request without a responder fails the test.
type Env struct {
	MT     *httpmock.MockTransport
	Client *signkit.Client
	Tokens atomic.Int32 // token requests so far; token n is "tok-n"
}

// NewEnv returns an Env whose client does not retry; pass retries to change
// it (0: the default policy).
func NewEnv(t testing.TB, retries ...int) *Env {
	t.Helper()
	maxRetries := -1
	if len(retries) > 0 {
		maxRetries = retries[0]
	}
	e := &Env{MT: httpmock.NewMockTransport()}
	e.MT.RegisterResponder(http.MethodPost, Endpoints.Auth+"/oauth/token", func(*http.Request) (*http.Response, error) {
		n := e.Tokens.Add(1)
		return httpmock.NewJsonResponse(http.StatusOK, map[string]any{
			"access_token": fmt.Sprintf("tok-%d", n), "token_type": "Bearer", "expires_in": 600,
		})
	})
	e.MT.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		return httpmock.NewStringResponse(599, "no responder"), nil
	})
	c, err := signkit.NewClient(signkit.Config{
		Endpoints:   Endpoints,
		Credentials: Credentials,
		HTTPClient:  &http.Client{Transport: e.MT},
		MaxRetries:  maxRetries,
	})
	require.NoError(t, err)
	e.Client = c
	return e
}

// Recorded is what a responder saw of one request.
type Recorded struct {
	Method, URL, ContentType string
	Header                   http.Header
	ContentLength            int64
	Body                     []byte
	BodyErr                  error // what reading the body failed with, if it did
	At                       time.Time
}

// Recorder counts and records the requests answered by one responder.
type Recorder struct {
	mu   sync.Mutex
	reqs []Recorded
}

func (r *Recorder) add(req *http.Request) int {
	rec := Recorded{
		Method: req.Method, URL: req.URL.String(), ContentType: req.Header.Get("Content-Type"),
		Header: req.Header.Clone(), ContentLength: req.ContentLength, At: time.Now(),
	}
	if req.Body != nil {
		rec.Body, rec.BodyErr = io.ReadAll(req.Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, rec)
	return len(r.reqs)
}

// Count is the number of requests answered.
func (r *Recorder) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// Last is the latest request, or the zero Recorded.
func (r *Recorder) Last() Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.reqs) == 0 {
		return Recorded{}
	}
	return r.reqs[len(r.reqs)-1]
}

// All returns every request answered, in order.
func (r *Recorder) All() []Recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Recorded(nil), r.reqs...)
}

// Handle mounts fn for method on the URLs matching urlPattern (a regexp of
// the whole URL without its query string, anchored at both ends) and returns
// its recorder. fn gets the request and the 1-based attempt number.
func (e *Env) Handle(method, urlPattern string, fn func(r *http.Request, n int) (*http.Response, error)) *Recorder {
	rec := &Recorder{}
	rx := regexp.MustCompile("^" + urlPattern + `(\?.*)?$`)
	e.MT.RegisterRegexpResponder(method, rx, func(r *http.Request) (*http.Response, error) {
		resp, err := fn(r, rec.add(r))
		if resp != nil {
			resp.Request = r // as net/http's transport does; the SDK reads it
		}
		return resp, err
	})
	return rec
}

// Reply mounts a fixed answer with a JSON content type.
func (e *Env) Reply(method, urlPattern string, status int, body string) *Recorder {
	return e.Handle(method, urlPattern, func(*http.Request, int) (*http.Response, error) {
		return JSON(status, body), nil
	})
}

// JSON is an answer with status and a JSON body.
func JSON(status int, body string) *http.Response {
	r := httpmock.NewStringResponse(status, body)
	r.Header.Set("Content-Type", "application/json")
	return r
}
