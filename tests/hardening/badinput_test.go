package hardening

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
)

// Limits of the bad-input server: small, so that "oversized" is cheap.
const (
	badMaxBody   = 4 << 10
	badMaxUpload = 16 << 10
)

// badCase is one bad request and the status it must get.
type badCase struct {
	name        string
	method      string
	path        string // {A}: form A, {sub}: the subscription, {doc}: a document id
	contentType string
	body        string
	want        int
}

var (
	oversizedJSON = `{"name":"` + strings.Repeat("x", badMaxBody) + `"}`
	multipartCT   = "multipart/form-data; boundary=bad"
	dataPart      = func(data string) string {
		return "--bad\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n" + data + "\r\n--bad--\r\n"
	}
)

// badInputs covers each service with the inputs it can get wrong. The
// signing service has only GET endpoints: no body to be too large,
// malformed or of the wrong type.
var badInputs = []badCase{
	// Auth
	{"auth malformed JSON", "POST", "/auth/oauth/token", "application/json", `{"grant_type":`, 400},
	{"auth wrong method", "GET", "/auth/oauth/token", "", "", 405},
	{"auth unknown path", "GET", "/auth/oauth/nope", "", "", 404},
	// Forms
	{"forms oversized", "POST", "/collect/api/v1/forms", "application/json", oversizedJSON, 413},
	{"forms malformed JSON", "POST", "/collect/api/v1/forms", "application/json", `{"name":`, 400},
	{"forms two JSON values", "POST", "/collect/api/v1/forms", "application/json", `{"name":"a"}{"name":"b"}`, 400},
	{"forms update malformed", "PUT", "/collect/api/v1/forms/{A}", "application/json", `[`, 400},
	{"forms update oversized", "PUT", "/collect/api/v1/forms/{A}", "application/json", oversizedJSON, 413},
	{"forms prefill malformed", "POST", "/collect/api/v1/forms/{A}/requests", "application/json", `{"answers":{`, 400},
	{"forms prefill oversized", "POST", "/collect/api/v1/forms/{A}/requests", "application/json", oversizedJSON, 413},
	{"forms wrong method", "DELETE", "/collect/api/v1/forms", "", "", 405},
	{"forms wrong method on publish", "GET", "/collect/api/v1/forms/{A}/publish", "", "", 405},
	{"forms unknown path", "GET", "/collect/api/v1/nope", "", "", 404},
	{"forms unknown form", "GET", "/collect/api/v1/forms/no-such-form", "", "", 404},
	// Sign
	{"sign wrong method", "POST", "/api/v1/casefiles/1", "application/json", `{}`, 405},
	{"sign wrong method on content", "DELETE", "/api/v3/documents/{doc}/content", "", "", 405},
	{"sign unknown path", "GET", "/api/v2/casefiles/1", "", "", 404},
	{"sign unknown case file", "GET", "/api/v1/casefiles/999999", "", "", 404},
	// Send
	{"send oversized", "POST", "/send/api/v1/casefiles/20251022/create", multipartCT, dataPart(strings.Repeat("x", badMaxUpload)), 413},
	{"send malformed multipart", "POST", "/send/api/v1/casefiles/20251022/create", multipartCT, "--bad\r\nContent-Disposition: form-data; name=\"data\"\r\n\r\n{}", 400},
	{"send malformed data JSON", "POST", "/send/api/v1/casefiles/20251022/create", multipartCT, dataPart(`{"caseFile":`), 400},
	{"send wrong method", "GET", "/send/api/v1/casefiles/20251022/create", "", "", 405},
	{"send JSON malformed", "POST", sendJSONPath, "application/json", `{"caseFile":{"documents":[{"pdf":"JVBE`, 400},
	{"send JSON trailing data", "POST", sendJSONPath, "application/json", `{"caseFile":{}} {}`, 400},
	{"send JSON not an object", "POST", sendJSONPath, "application/json", `[{"caseFile":{}}]`, 400},
	{"send JSON pdf not base64", "POST", sendJSONPath, "application/json", `{"caseFile":{"title":"t","signers":[{"name":"A"}],"documents":[{"title":"d","pdf":"%%%"}]}}`, 400},
	{"send JSON pdf an object", "POST", sendJSONPath, "application/json", `{"caseFile":{"title":"t","signers":[{"name":"A"}],"documents":[{"title":"d","pdf":{"a":[1]}}]}}`, 400},
	{"send JSON deep nesting", "POST", sendJSONPath, "application/json", `{"caseFile":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, 400},
	{"send JSON oversized", "POST", sendJSONPath, "application/json", `{"caseFile":{"metaData":"` + strings.Repeat("x", badMaxUpload) + `"}}`, 413},
	{"send JSON bad escape", "POST", sendJSONPath, "application/json", `{"caseFile":{"title":"\q","signers":[{"name":"A"}],"documents":[{"title":"d","pdf":"JVBERi0xLjQK"}]}}`, 400},
	{"send JSON as multipart", "POST", sendJSONPath, multipartCT, dataPart(`{}`), 400},
	{"send JSON wrong method", "GET", sendJSONPath, "", "", 405},
	{"send unknown version", "POST", "/send/api/v1/casefiles/20240101/create", multipartCT, dataPart(`{}`), 404},
	{"queue status malformed", "POST", "/send/api/v1/queue/public/status", "application/json", `{"uuid":`, 400},
	{"queue status oversized", "POST", "/send/api/v1/queue/public/status", "application/json", oversizedJSON, 413},
	{"queue status wrong method", "GET", "/send/api/v1/queue/public/status", "", "", 405},
	// Webhook
	{"webhook oversized", "POST", "/webhook/api/v1/subscriptions", "application/json", oversizedJSON, 413},
	{"webhook malformed JSON", "POST", "/webhook/api/v1/subscriptions", "application/json", `{"endpoint":`, 400},
	{"webhook wrong content type", "POST", "/webhook/api/v1/subscriptions", "text/plain", `{"endpoint":"http://127.0.0.1/x","eventTypes":["webhook.subscription.test"]}`, 415},
	{"webhook update wrong content type", "PUT", "/webhook/api/v1/subscriptions/{sub}", "application/x-www-form-urlencoded", `endpoint=x`, 415},
	{"webhook update malformed", "PUT", "/webhook/api/v1/subscriptions/{sub}", "application/json", `{`, 400},
	{"webhook wrong method", "PATCH", "/webhook/api/v1/subscriptions", "application/json", `{}`, 405},
	{"webhook unknown path", "GET", "/webhook/api/v2/subscriptions", "", "", 404},
	// Wrong content types on every service that takes a body, and an
	// oversized token request (the mock answered 400 or took them until ea59da7)
	{"auth oversized", "POST", "/auth/oauth/token", "application/json", oversizedJSON, 413},
	{"auth wrong content type", "POST", "/auth/oauth/token", "text/plain", `{"grant_type":"api_keys"}`, 415},
	{"forms wrong content type", "POST", "/collect/api/v1/forms", "text/plain", `{"name":"x","sections":[]}`, 415},
	{"forms update wrong content type", "PUT", "/collect/api/v1/forms/{A}", "text/plain", `{"name":"x","sections":[]}`, 415},
	{"forms prefill wrong content type", "POST", "/collect/api/v1/forms/{A}/requests", "text/plain", `{"answers":{}}`, 415},
	{"queue status wrong content type", "POST", "/send/api/v1/queue/public/status", "text/plain", `{"uuid":"a","payloadHash":"b"}`, 415},
	{"send wrong content type", "POST", "/send/api/v1/casefiles/20251022/create", "application/json", `{"caseFile":{}}`, 400},
	// Public pages and the root
	{"public unknown form", "GET", "/public/forms/no-such-form", "", "", 404},
	{"public wrong method", "DELETE", "/public/forms/{A}", "", "", 405},
	{"root unknown path", "GET", "/no/such/service", "", "", 404},
}

// sendJSONPath is the Send service's JSON create route.
const sendJSONPath = "/send/api/v1/casefiles/json/20251022/create-production-base64"

// TestBadInput sends every bad request to one mock server: each gets its
// status with a JSON error body, and the state is the same afterwards.
func TestBadInput(t *testing.T) {
	t.Parallel()
	srv, fx, client := badInputServer(t)
	ctx := context.Background()
	before, err := observe(ctx, srv, client, fx)
	if err != nil {
		t.Fatal(err)
	}
	tok := loginToken(t, srv)
	for _, bc := range badInputs {
		status, ct, body := sendBad(t, srv, fx, tok, bc)
		if status != bc.want {
			t.Errorf("%s: %s %s answered %d, want %d: %.200s", bc.name, bc.method, bc.path, status, bc.want, body)
		}
		if strings.HasPrefix(bc.path, "/public/") && bc.method == http.MethodGet {
			// A public page answers a browser: its 404 is an HTML page.
			if !strings.HasPrefix(ct, "text/html") {
				t.Errorf("%s: content type %q, want text/html", bc.name, ct)
			}
		} else if err := jsonError(ct, body); err != nil {
			t.Errorf("%s: %v", bc.name, err)
		}
	}
	srv.Advance(2 * time.Second) // anything queued would run now
	after, err := observe(ctx, srv, client, fx)
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Errorf("state changed\n before %v\n after  %v", before, after)
	}
}

func badInputServer(t *testing.T) (*mockserver.Server, *fixture, *signkit.Client) {
	t.Helper()
	srv := mockserver.Start(t, mockserver.WithManualClock(time.Now()),
		mockserver.WithMaxBodyBytes(badMaxBody), mockserver.WithMaxUploadBytes(badMaxUpload))
	client, err := signkit.NewClient(srv.Config())
	if err != nil {
		t.Fatal(err)
	}
	fx, err := buildFixture(context.Background(), srv, client)
	if err != nil {
		t.Fatal(err)
	}
	return srv, fx, client
}

// sendBad sends one bad request with a valid token (in every place a
// service looks for it) and answers the status, content type and body.
func sendBad(t *testing.T, srv *mockserver.Server, fx *fixture, tok string, bc badCase) (int, string, []byte) {
	t.Helper()
	path := strings.NewReplacer("{A}", fx.formA, "{sub}", fx.subscription, "{doc}", strconv.FormatInt(fx.documentID, 10)).Replace(bc.path)
	req, err := http.NewRequest(bc.method, srv.URL()+path, strings.NewReader(bc.body))
	if err != nil {
		t.Fatal(err)
	}
	if bc.contentType != "" {
		req.Header.Set("Content-Type", bc.contentType)
	}
	req.Header.Set("X-Auth-Token", tok)
	if strings.HasPrefix(path, "/webhook/") {
		req.Header.Set("Authorization", "JWT "+tok)
	} else {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", bc.name, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// jsonError checks an error answer: JSON with a statusCode (the services)
// or an error code (the OAuth token endpoint).
func jsonError(contentType string, body []byte) error {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != "application/json" {
		return errorf("content type %q, want application/json: %.100s", contentType, body)
	}
	var e struct {
		StatusCode int    `json:"statusCode"`
		Error      string `json:"error"`
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(&e); err != nil || (e.StatusCode == 0 && e.Error == "") {
		return errorf("not a JSON error body: %.100s (%v)", body, err)
	}
	return nil
}
