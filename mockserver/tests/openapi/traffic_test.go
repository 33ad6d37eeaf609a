package openapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/signkit/signkit-go/mockserver/internal/traffic"
)

// rootModule is the SDK's module: the suites are looked for under its path,
// which spans every module of the workspace, and run from its directory.
const rootModule = "github.com/signkit/signkit-go"

// mockPackage is the mock's façade: a package whose tests depend on it
// talks to the mock from Go.
const mockPackage = rootModule + "/mockserver"

// binaryPackages are the suites that reach the mock through its binary,
// which inherits the recording variable: tests/vendorcheck serves the
// vendor's Postman collections (when newman is installed) and the Python
// walk (when python3 is, which the check then requires to have been
// recorded).
var binaryPackages = []string{"github.com/signkit/signkit-go/tests/vendorcheck"}

// integrationPackages answers the suites whose traffic with the mock is
// checked: every package of the module whose tests depend on the mock's
// façade (this one aside), and binaryPackages. Suites that never start a
// mock (the Redis stores' chaos and failover tests, say) are not run again.
func integrationPackages(t *testing.T, goBin, root string) []string {
	t.Helper()
	cmd := exec.Command(goBin, "list", "-test", "-f", `{{if .ForTest}}{{.ForTest}} {{join .Deps " "}}{{end}}`, rootModule+"/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -test: %v", err)
	}
	self := mockPackage + "/tests/openapi"
	pkgs := slices.Clone(binaryPackages)
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) > 1 && fields[0] != self && slices.Contains(fields[1:], mockPackage) && !slices.Contains(pkgs, fields[0]) {
			pkgs = append(pkgs, fields[0])
		}
	}
	return pkgs
}

// TestIntegrationTrafficMatchesDescription runs the integration suites
// with the mock recording every exchange (traffic.DirEnv), then checks each
// request and answer against the description with kin-openapi's
// openapi3filter: a request the description refuses must have been
// refused (4xx), and every answer must be one the description allows,
// status, media type and body. File bodies (multipart uploads, PDFs,
// uploaded files) are not recorded, so not checked, but for a multipart
// body's data part (the Send definition), which is (checkDataPart). Every described
// operation must have been exercised.
//
// .ci/run records the whole test run instead of running the suites twice: it
// runs README's test command with traffic.DirEnv set, where this test skips (it
// would check a recording still being made), then runs this test alone with
// recordedEnv naming that recording, which it checks as it is, and requires it
// to pass
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#openapi-description).
func TestIntegrationTrafficMatchesDescription(t *testing.T) {
	recorded := os.Getenv(recordedEnv)
	if recorded == "" && os.Getenv(traffic.DirEnv) != "" {
		t.Skipf("this test run records its own traffic (%s is set): the recording is checked after the run, "+
			"by this test alone with %s naming it (.ci/run does so)", traffic.DirEnv, recordedEnv)
	}
	doc, _ := load(t)
	var exchanges []traffic.Exchange
	if recorded != "" {
		exchanges = readRecorded(t, recorded)
	} else {
		exchanges = recordIntegrationTraffic(t)
	}
	if len(exchanges) < 2000 {
		t.Fatalf("only %d exchanges recorded: the suites did not run", len(exchanges))
	}
	if _, err := exec.LookPath("python3"); err == nil && !slices.ContainsFunc(exchanges, isPythonWalk) {
		t.Errorf("python3 is installed, yet no exchange of the Python walk (tests/vendorcheck, " +
			"tests/python/readme_walk.py) was recorded: its traffic is not being checked")
	}
	problems, exercised := check(t, doc, exchanges)
	report(t, problems)
	var missed []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !exercised[method+" "+path] {
				missed = append(missed, method+" "+path)
			}
		}
	}
	slices.Sort(missed)
	for _, m := range missed {
		t.Errorf("no integration test exchanged %s with the mock", m)
	}
	t.Logf("checked %d exchanges over %d operations", len(exchanges), len(exercised))
}

// isPythonWalk reports whether an exchange is the Python walk's creation
// of its form, which the walk names "Python walk".
func isPythonWalk(ex traffic.Exchange) bool {
	return ex.Method == http.MethodPost && ex.Path == "/collect/api/v1/forms" && strings.Contains(ex.Body, `"name":"Python walk"`)
}

// recordIntegrationTraffic runs go test on the integration packages with
// recording on, and answers what was recorded. Their failures are the
// main run's business: a failed run still yields its traffic.
func recordIntegrationTraffic(t *testing.T) []traffic.Exchange {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	root, err := exec.Command(goBin, "list", "-m", "-f", "{{.Dir}}", rootModule).Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	dir := t.TempDir()
	pkgs := integrationPackages(t, goBin, strings.TrimSpace(string(root)))
	t.Logf("recording the traffic of %d suites: %s", len(pkgs), strings.Join(pkgs, " "))
	cmd := exec.Command(goBin, append([]string{"test", "-count=1"}, pkgs...)...)
	cmd.Dir = strings.TrimSpace(string(root))
	cmd.Env = append(os.Environ(), traffic.DirEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("the integration suites failed while recording (the main run reports why): %v\n%s", err, tail(out, 40))
	}
	exchanges, err := traffic.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	t.Logf("%d exchanges from %d mocks", len(exchanges), len(files))
	return exchanges
}

// recordedEnv names the traffic a whole test run recorded (traffic.DirEnv
// set for README's test command), for TestIntegrationTrafficMatchesDescription
// to check instead of running the suites again.
const recordedEnv = "SIGNKIT_RECORDED_TRAFFIC_DIR"

// readRecorded reads the traffic recorded in dir by an earlier test run.
func readRecorded(t *testing.T, dir string) []traffic.Exchange {
	t.Helper()
	exchanges, err := traffic.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	t.Logf("checking the recorded traffic of a whole test run (%s): %d exchanges from %d mocks", dir, len(exchanges), len(files))
	return exchanges
}

// problem is one way an exchange disagreed with the description.
type problem struct {
	key     string // operation, status and the validator's first line
	example string
}

// check validates each exchange and answers the problems and the
// operations exercised ("METHOD /path/{wildcard}").
func check(t *testing.T, doc *openapi3.T, exchanges []traffic.Exchange) ([]problem, map[string]bool) {
	t.Helper()
	doc.Servers = nil // match paths as they are
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	errorSchema := doc.Components.Schemas["Error"].Value
	exercised := map[string]bool{}
	var problems []problem
	ctx := context.Background()
	for _, ex := range exchanges {
		method := ex.Method
		if method == http.MethodHead {
			method = http.MethodGet
		}
		target := ex.Path
		if ex.RawQuery != "" {
			target += "?" + ex.RawQuery
		}
		req := httptest.NewRequest(method, "http://mock"+target, strings.NewReader(ex.Body))
		for k, v := range ex.Header {
			req.Header.Set(k, v)
		}
		route, params, err := router.FindRoute(req)
		if err != nil {
			if p := checkUndescribed(ex, errorSchema); p != nil {
				problems = append(problems, *p)
			}
			continue
		}
		op := route.Method + " " + route.Path
		if p := checkStatus(op, route.Operation, ex); p != nil {
			problems = append(problems, *p)
		} else if ex.Status < 400 {
			exercised[op] = true // a success whose answer was checked
		}
		opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
			ExcludeRequestBody: !ex.BodyKept, MultiError: false}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
		if p := checkDataPart(op, route.Operation, ex); p != nil {
			problems = append(problems, *p)
		}
		if reqErr := openapi3filter.ValidateRequest(ctx, in); reqErr != nil && ex.Status < 400 {
			problems = append(problems, problem{fmt.Sprintf("%s: the description refuses a request the mock answered %d: %s",
				op, ex.Status, firstLine(reqErr)), target + " " + clip(ex.Body)})
		}
		header := http.Header{}
		if ex.ContentType != "" {
			header.Set("Content-Type", ex.ContentType)
		}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.Status, Header: header,
			Body: io.NopCloser(bytes.NewReader([]byte(ex.Answer))),
			Options: &openapi3filter.Options{ExcludeResponseBody: !ex.AnswerKept || ex.Method == http.MethodHead,
				IncludeResponseStatus: true}}
		if respErr := openapi3filter.ValidateResponse(ctx, out); respErr != nil {
			problems = append(problems, problem{fmt.Sprintf("%s → %d: %s", op, ex.Status, firstLine(respErr)), clip(ex.Answer)})
		}
	}
	return problems, exercised
}

// checkStatus checks what openapi3filter leaves alone: a success must
// have its own described status (not the default error), come with one of
// its media types, and, when JSON, have been recorded so that its body was
// checked; a 5xx is only ever an injected fault, the mock's own 507 (a limit
// that a test set low on purpose) or a Send upload's disk_error (a test
// takes the upload's directory away).
func checkStatus(op string, o *openapi3.Operation, ex traffic.Exchange) *problem {
	if ex.Status >= 500 {
		if code := errorCode(ex); code != "injected_fault" && code != "storage_limit" && code != "disk_error" {
			return &problem{fmt.Sprintf("%s → %d: a server error that no test injected", op, ex.Status), clip(ex.Answer)}
		}
		return nil
	}
	if ex.Status >= 400 || ex.Method == http.MethodHead {
		return nil
	}
	resp := o.Responses.Status(ex.Status)
	if resp == nil || resp.Value == nil {
		return &problem{fmt.Sprintf("%s → %d: a success status the description does not list", op, ex.Status), ""}
	}
	if len(resp.Value.Content) == 0 {
		return nil
	}
	mt, _, _ := mime.ParseMediaType(ex.ContentType)
	if resp.Value.Content.Get(mt) == nil && resp.Value.Content["*/*"] == nil {
		return &problem{fmt.Sprintf("%s → %d: answered %q, not a described media type", op, ex.Status, ex.ContentType), ""}
	}
	if strings.HasSuffix(mt, "json") && !ex.AnswerKept {
		return &problem{fmt.Sprintf("%s → %d: a JSON answer that was not checked", op, ex.Status), ""}
	}
	return nil
}

// checkUndescribed checks an exchange on a route the description does not
// have: the mock must have refused it (4xx), or a test injected a fault
// there; either way with its error body (an HTML page for a person's
// browser under /public/ and /mock/ui/).
func checkUndescribed(ex traffic.Exchange, errorSchema *openapi3.Schema) *problem {
	switch {
	case (ex.Status < 400 || ex.Status >= 500) && errorCode(ex) != "injected_fault":
		return &problem{fmt.Sprintf("%s %s: not described, answered %d", ex.Method, ex.Path, ex.Status), ""}
	case ex.AnswerKept:
		if verr := validateJSON(errorSchema, ex.Answer); verr != nil {
			return &problem{fmt.Sprintf("undescribed route's %d: %v", ex.Status, firstLine(verr)), ex.Path}
		}
	case strings.HasPrefix(ex.Path, "/public/") && strings.HasPrefix(ex.ContentType, "text/html") && ex.Status == http.StatusNotFound:
	case strings.HasPrefix(ex.Path, "/mock/ui/") && strings.HasPrefix(ex.ContentType, "text/html") &&
		(ex.Status == http.StatusNotFound || ex.Status == http.StatusMethodNotAllowed):
		// The dashboard answers a browser's unknown path or wrong method with
		// its own HTML page
		// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
	case ex.Method != http.MethodHead:
		return &problem{fmt.Sprintf("%s %s: not described, answered %d without JSON", ex.Method, ex.Path, ex.Status), ""}
	}
	return nil
}

// errorCode answers the "error" of an answer in the platform's error
// shape, "" for any other answer.
func errorCode(ex traffic.Exchange) string {
	var body struct {
		Error string `json:"error"`
	}
	_ = json.Unmarshal([]byte(ex.Answer), &body)
	return body.Error
}

// validateJSON checks a JSON text against a schema.
func validateJSON(s *openapi3.Schema, text string) error {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return err
	}
	return s.VisitJSON(v)
}

// report fails the test with each distinct problem once, with a count and
// an example.
func report(t *testing.T, problems []problem) {
	t.Helper()
	count := map[string]int{}
	example := map[string]string{}
	for _, p := range problems {
		count[p.key]++
		if _, seen := example[p.key]; !seen {
			example[p.key] = p.example
		}
	}
	for _, k := range slices.Sorted(maps.Keys(count)) {
		t.Errorf("%d× %s\n\texample: %s", count[k], k, example[k])
	}
}

func firstLine(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func tail(b []byte, lines int) string {
	all := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(all[max(0, len(all)-lines):], "\n")
}

// TestCheckCatchesAShapeChange shows what the traffic check refuses: an
// answer with a renamed field, one with a field of the wrong type, a
// request the description refuses that the mock accepted, and a success on
// a route the description does not have.
func TestCheckCatchesAShapeChange(t *testing.T) {
	doc, _ := load(t)
	good := traffic.Exchange{Method: "POST", Path: "/public/forms/f1", Header: map[string]string{
		"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"},
		Body: "name=Ann", BodyKept: true, Status: 201, ContentType: "application/json",
		Answer: `{"submissionId":1,"casefileId":2}`, AnswerKept: true}
	renamed, retyped, lax, undescribed := good, good, good, good
	renamed.Answer = `{"submission_id":1,"casefileId":2}`
	retyped.Answer = `{"submissionId":"1","casefileId":2}`
	lax.Method, lax.Path, lax.RawQuery, lax.Status = "GET", "/collect/api/v1/forms/f1/submissions", "limit=ten", 200
	lax.Answer = `{"items":[],"limit":10,"offset":0,"total":0}`
	undescribed.Method, undescribed.Path, undescribed.Status = "GET", "/collect/api/v1/nope", 200
	if problems, _ := check(t, doc, []traffic.Exchange{good}); len(problems) != 0 {
		t.Fatalf("a good exchange was refused: %v", problems)
	}
	for name, ex := range map[string]traffic.Exchange{"renamed": renamed, "retyped": retyped, "lax": lax,
		"undescribed": undescribed} {
		if problems, _ := check(t, doc, []traffic.Exchange{ex}); len(problems) != 1 {
			t.Errorf("%s: %d problems, want 1: %v", name, len(problems), problems)
		}
	}
}
