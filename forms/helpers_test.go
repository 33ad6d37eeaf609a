package forms_test

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/signkit/signkit-go/internal/testkit/sdktest"
)

// The fake platform of sdktest serves the forms service under a base path
// (/collect/api), so that a client building absolute paths ("/v1/forms")
// instead of joining them to the endpoint fails.
const formsURL = sdktest.Host + "/collect/api"

// env is an SDK client wired to an httpmock transport with a token
// endpoint (sdktest.Env), with this package's responder helpers.
type env struct{ *sdktest.Env }

// newEnv returns an env whose client does not retry; pass retries to change
// it (0: the default policy). Any request without a responder fails the test.
func newEnv(t testing.TB, retries ...int) *env { return &env{sdktest.NewEnv(t, retries...)} }

// recorded is what a handler saw of one request.
type recorded struct {
	Method, URL, Auth, Accept, ContentType string
	Body                                   []byte
}

// recorder counts and records the requests answered by one handler.
type recorder struct{ *sdktest.Recorder }

func (r *recorder) count() int { return r.Count() }

func (r *recorder) last() recorded { return toRecorded(r.Last()) }

func (r *recorder) nth(i int) recorded { return toRecorded(r.All()[i]) }

func toRecorded(q sdktest.Recorded) recorded {
	return recorded{
		Method: q.Method, URL: q.URL, Auth: q.Header.Get("Authorization"),
		Accept: q.Header.Get("Accept"), ContentType: q.ContentType, Body: q.Body,
	}
}

// handle mounts fn for method on the forms-service path (a regexp of what
// follows formsURL, query string allowed) and returns its recorder. fn gets
// the request and the 1-based attempt number.
func (e *env) handle(method, path string, fn func(r *http.Request, n int) (*http.Response, error)) *recorder {
	return &recorder{e.Handle(method, regexp.QuoteMeta(formsURL)+path, fn)}
}

// reply mounts a fixed answer.
func (e *env) reply(method, path string, status int, body string) *recorder {
	return e.handle(method, path, func(*http.Request, int) (*http.Response, error) {
		return jsonResponse(status, body), nil
	})
}

func jsonResponse(status int, body string) *http.Response { return sdktest.JSON(status, body) }

// jsonEq asserts that got is the JSON document want.
func jsonEq(t *testing.T, want string, got []byte) {
	t.Helper()
	require.JSONEq(t, want, string(got))
}

// mustJSON marshals v.
func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// ctx is a test context.
func ctx(t testing.TB) context.Context { return t.Context() }
