package openapi_test

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/signkit/signkit-go/mockserver"
)

// TestSecurityIsWhereEachServiceTakesTheToken: the Send service's routes that
// take a token declare the xAuthToken scheme (an apiKey in the X-Auth-Token
// header) and nothing else, the Forms, Sign and Webhook services' routes bearer
// and nothing else, every other route none
// (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#authentication).
// And the mock agrees: without a token a secured route answers 401, with the
// token only where its scheme puts it the route gets past the check, and a Send
// route refuses a Bearer header alone.
func TestSecurityIsWhereEachServiceTakesTheToken(t *testing.T) {
	doc, _ := load(t)
	schemes := doc.Components.SecuritySchemes
	if x := schemes["xAuthToken"]; x == nil || x.Value.Type != "apiKey" || x.Value.In != "header" || x.Value.Name != "X-Auth-Token" {
		t.Fatalf("xAuthToken = %+v, want an apiKey in the X-Auth-Token header", x)
	}
	if b := schemes["bearer"]; b == nil || b.Value.Type != "http" || !strings.EqualFold(b.Value.Scheme, "bearer") {
		t.Fatalf("bearer = %+v, want http bearer", b)
	}
	if len(schemes) != 2 {
		t.Fatalf("security schemes %v, want xAuthToken and bearer only", slices.Sorted(maps.Keys(schemes)))
	}

	s := mockserver.New(mockserver.WithManualClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)))
	t.Cleanup(s.Close)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if st, b := send(t, s, http.MethodPost, "/mock/token", nil); st != http.StatusOK || json.Unmarshal(b, &tok) != nil {
		t.Fatalf("POST /mock/token: %d %s", st, b)
	}
	secured := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			want := expectedScheme(path)
			if got := declared(op); !slices.Equal(got, want) {
				t.Errorf("%s %s declares %v, want %v", method, path, got, want)
				continue
			}
			if len(want) == 0 {
				continue
			}
			secured++
			target := regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(path, "1")
			if st, b := send(t, s, method, target, nil); st != http.StatusUnauthorized {
				t.Errorf("%s %s without a token: %d %s, want 401", method, target, st, b)
			}
			header := http.Header{"Authorization": {"Bearer " + tok.AccessToken}}
			if want[0] == "xAuthToken" {
				header = http.Header{"X-Auth-Token": {tok.AccessToken}}
				if st, b := send(t, s, method, target, http.Header{"Authorization": {"Bearer " + tok.AccessToken}}); st != http.StatusUnauthorized {
					t.Errorf("%s %s with a Bearer header only: %d %s, want 401 (the Send service reads X-Auth-Token)", method, target, st, b)
				}
			}
			if st, b := send(t, s, method, target, header); st == http.StatusUnauthorized || strings.Contains(string(b), "Invalid JWT") {
				t.Errorf("%s %s with the token as %s puts it: %d %s", method, target, want[0], st, b)
			}
		}
	}
	if secured < 25 {
		t.Fatalf("only %d secured operations were checked", secured)
	}
}

// expectedScheme answers the scheme a route must declare, by its service's
// prefix (internal/app/routes.go): the Send service's token routes
// X-Auth-Token, Forms, Sign and Webhook bearer, the rest (the token
// endpoint, the queue status check, the public pages, the control API and
// the dashboard) none.
func expectedScheme(path string) []string {
	switch {
	case path == "/send/api/v1/queue/public/status":
		return nil // the job's uuid and payloadHash are the credential (https://github.com/signkit/signkit-go/blob/main/docs/platform.md#send-simple-case-file-creation--sendapiv1)
	case strings.HasPrefix(path, "/send/"):
		return []string{"xAuthToken"}
	case strings.HasPrefix(path, "/collect/api/"), strings.HasPrefix(path, "/api/"), strings.HasPrefix(path, "/webhook/"):
		return []string{"bearer"}
	}
	return nil
}

// declared answers the schemes an operation's security requirements name:
// one requirement of one scheme, or none.
func declared(op *openapi3.Operation) []string {
	if op.Security == nil {
		return []string{"(inherited)"} // the document declares none: every operation must say
	}
	var out []string
	for _, req := range *op.Security {
		for name := range req {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// send makes a request to the mock in process, with an empty body.
func send(t *testing.T, s *mockserver.Server, method, path string, header http.Header) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, s.URL()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	resp, err := (&http.Client{Transport: s.Transport()}).Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}
