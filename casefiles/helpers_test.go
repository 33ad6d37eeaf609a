package casefiles_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/signkit/signkit-go/internal/testkit/sdktest"
)

// The fake platform of sdktest lives under a base path, so that a client
// building absolute paths ("/api/v1/...") instead of joining them to the
// endpoints fails.
const (
	host    = sdktest.Host
	signURL = host           // signkit.LocalEndpoints: Sign
	sendURL = host + "/send" // signkit.LocalEndpoints: Send

	createPath = `/api/v1/casefiles/20251022/create`
	statusPath = `/api/v1/queue/public/status`
)

// env is an SDK client wired to an httpmock transport with a token
// endpoint (sdktest.Env), with this package's responder helpers.
type env struct{ *sdktest.Env }

// newEnv returns an env whose client does not retry; pass retries to change
// it (0: the default policy). Any request without a responder fails the test.
func newEnv(t testing.TB, retries ...int) *env { return &env{sdktest.NewEnv(t, retries...)} }

// recorded is what a handler saw of one request.
type recorded struct {
	Method, URL, Auth, XAuthToken, Accept, ContentType string
	ContentLength                                      int64
	Body                                               []byte
	BodyErr                                            error
	At                                                 time.Time
}

// recorder counts and records the requests answered by one handler.
type recorder struct{ *sdktest.Recorder }

func (r *recorder) count() int { return r.Count() }

func (r *recorder) last() recorded { return toRecorded(r.Last()) }

func (r *recorder) all() []recorded {
	var out []recorded
	for _, q := range r.All() {
		out = append(out, toRecorded(q))
	}
	return out
}

func toRecorded(q sdktest.Recorded) recorded {
	return recorded{
		Method: q.Method, URL: q.URL, Auth: q.Header.Get("Authorization"), XAuthToken: q.Header.Get("X-Auth-Token"),
		Accept: q.Header.Get("Accept"), ContentType: q.ContentType, ContentLength: q.ContentLength,
		Body: q.Body, BodyErr: q.BodyErr, At: q.At,
	}
}

// handle mounts fn for method on base (sendURL or signURL) followed by path
// (a regexp; a query string is allowed) and returns its recorder. fn gets
// the request and the 1-based attempt number.
func (e *env) handle(method, base, path string, fn func(r *http.Request, n int) (*http.Response, error)) *recorder {
	return &recorder{e.Handle(method, regexp.QuoteMeta(base)+path, fn)}
}

// reply mounts a fixed answer.
func (e *env) reply(method, base, path string, status int, body string) *recorder {
	return e.handle(method, base, path, func(*http.Request, int) (*http.Response, error) {
		return jsonResponse(status, body), nil
	})
}

func jsonResponse(status int, body string) *http.Response { return sdktest.JSON(status, body) }

// ctx is a test context.
func ctx(t testing.TB) context.Context { return t.Context() }
