package browser_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// The dashboard in Chromium: sign a case file from it, see the completion
// email and the delivered event appear, replay the event, advance the
// clock; a screenshot of each of its four views.
func TestBrowserDashboard(t *testing.T) {
	t.Parallel()
	shots := newScreenshots(t)
	ctx := browserOn(t, pageViewports[0])
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	var received atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { received.Add(1) }))
	t.Cleanup(hook.Close)
	var sub struct {
		Secret string `json:"secret"`
	}
	if st, b := testkit.Call(t, s, "POST", "/webhook/api/v1/subscriptions", tok, map[string]any{
		"endpoint": hook.URL + "/hook", "eventTypes": []string{"sign.casefile.completed"}}, &sub); st != 201 || sub.Secret == "" {
		t.Fatalf("subscribe: %d %s", st, b)
	}
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text")))
	var signerID int64
	testkit.Inspect(s, id, func(cf *testkit.CaseFile) { signerID = cf.Signers[0].ID })
	// Another case file stays pending, to show signers in other states.
	other := testkit.CaseDef("Bo Lindqvist-Andersen:bo.lindqvist-andersen@a-long-company-name.example.com", "Cy:-", "Dee:dee@example.com:1")
	other["title"] = "Framework agreement for the supply of office furniture, 2027–2030"
	testkit.RunCase(t, s, tok, other, testkit.FilePart("doc.pdf", mockserver.SamplePDF("Framework text")))
	ui := s.URL() + "/mock/ui"

	run(t, ctx, "open the case files", chromedp.Navigate(ui+"/casefiles"))
	sign := fmt.Sprintf(`#signer-%d button[data-action="sign"]`, signerID)
	run(t, ctx, "wait for the signer's buttons", chromedp.WaitVisible(chromedp.CSS(sign)))
	checkPage(t, ctx, "case files view", "en")
	noOverflow(t, ctx, "case files view")
	if st := status(t, ctx); st != http.StatusOK {
		t.Errorf("case files view: status %d", st)
	}
	run(t, ctx, "sign as Ann", chromedp.Click(chromedp.CSS(sign)))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if !exists(t, ctx, fmt.Sprintf(`#casefile-%d .badge[data-status="completed"]`, id)) {
		t.Fatal("the case file is not shown completed after Sign")
	}
	if exists(t, ctx, fmt.Sprintf(`#signer-%d button`, signerID)) {
		t.Error("a completed case file's signer is still offered actions")
	}
	shots.take(ctx, "1-casefiles")

	run(t, ctx, "open the inbox", chromedp.Navigate(ui))
	run(t, ctx, "wait for the emails", chromedp.WaitVisible(chromedp.CSS("#emails")))
	checkPage(t, ctx, "inbox", "en")
	noOverflow(t, ctx, "inbox")
	if st := status(t, ctx); st != http.StatusOK {
		t.Errorf("inbox: status %d", st)
	}
	if subjects := run(t, ctx, "read the subjects", chromedp.Text(chromedp.CSS("#emails tbody"))); !strings.Contains(subjects, "has been signed by everyone") {
		t.Errorf("no completion email in the inbox:\n%s", subjects)
	}
	if !exists(t, ctx, "#emails a.signing-link") {
		t.Error("the request email's signing link is not shown")
	}
	shots.take(ctx, "2-inbox")

	s.Advance(0) // the first attempt runs in the background: wait for it
	run(t, ctx, "open the webhooks", chromedp.Navigate(ui+"/webhooks"))
	delivered := `tr.delivery[data-event-type="sign.casefile.completed"][data-outcome="delivered"]`
	run(t, ctx, "wait for the delivery", chromedp.WaitVisible(chromedp.CSS(delivered)))
	checkPage(t, ctx, "webhooks view", "en")
	noOverflow(t, ctx, "webhooks view")
	if st := run(t, ctx, "read the status", chromedp.Text(chromedp.CSS(delivered+" .http-status"))); st != "200" {
		t.Errorf("delivered attempt shows status %q", st)
	}
	page := run(t, ctx, "read the page", chromedp.Text(chromedp.CSS("main")))
	for _, secret := range []string{sub.Secret, mockserver.DefaultClientSecret, mockserver.DefaultAPISecret} {
		if strings.Contains(page, secret) {
			t.Errorf("the dashboard shows a secret")
		}
	}
	run(t, ctx, "replay", chromedp.Click(chromedp.CSS(delivered+" button.replay")))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	s.Advance(0)
	run(t, ctx, "reload", chromedp.Navigate(ui+"/webhooks"))
	run(t, ctx, "wait for the table", chromedp.WaitVisible(chromedp.CSS("#deliveries")))
	if n := run(t, ctx, "count attempts", chromedp.Evaluate[int](`document.querySelectorAll('`+delivered+`').length`)); n != 2 || received.Load() != 2 {
		t.Errorf("after the replay: %d delivered attempts shown, %d received; want 2 and 2", n, received.Load())
	}
	if n := run(t, ctx, "replay marked", chromedp.Evaluate[int](`[...document.querySelectorAll('#deliveries tbody tr')].filter(r => r.innerText.includes('(replay)')).length`)); n != 1 {
		t.Errorf("%d attempts marked (replay), want the one replayed", n)
	}
	shots.take(ctx, "3-webhooks")

	run(t, ctx, "open the clock", chromedp.Navigate(ui+"/clock"))
	run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#advance")))
	checkPage(t, ctx, "clock view", "en")
	noOverflow(t, ctx, "clock view")
	before := s.Now()
	if now := run(t, ctx, "read the time", chromedp.Text(chromedp.CSS("#now"))); now != before.UTC().Format("2006-01-02 15:04:05 MST") {
		t.Errorf("the view shows %q, the clock is at %v", now, before)
	}
	run(t, ctx, "a bad amount", chromedp.SetValue(chromedp.CSS("#amount"), "soon"))
	run(t, ctx, "advance by it", chromedp.Click(chromedp.CSS("#advance-button")))
	run(t, ctx, "wait for the error", chromedp.WaitVisible(chromedp.CSS("#clock-error")))
	if st := status(t, ctx); st != http.StatusUnprocessableEntity || !s.Now().Equal(before) {
		t.Errorf("a bad amount: status %d, the clock moved %v", st, s.Now().Sub(before))
	}
	checkPage(t, ctx, "clock view with an error", "en")
	shots.take(ctx, "4-clock-error")
	run(t, ctx, "amount", chromedp.SetValue(chromedp.CSS("#amount"), "1"))
	run(t, ctx, "unit", chromedp.SetValue(chromedp.CSS("#unit"), "hours"))
	run(t, ctx, "advance", chromedp.Click(chromedp.CSS("#advance-button")))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if got := s.Now().Sub(before); got != time.Hour {
		t.Errorf("the clock moved %v, want 1h", got)
	}
	if now := run(t, ctx, "read the time", chromedp.Text(chromedp.CSS("#now"))); now != s.Now().UTC().Format("2006-01-02 15:04:05 MST") {
		t.Errorf("the view shows %q, the clock is at %v", now, s.Now())
	}
	shots.take(ctx, "5-clock")
}

// reachableJS answers the buttons matching the selector %s that a person
// on this screen cannot reach: each must be in the window without
// scrolling sideways, or inside a container that the person can scroll
// (overflow-x auto or scroll, and wider content than the box); once
// scrolled into view it must lie within the window, be what a tap at its
// centre hits, and have the first cell of its row (whom or what it acts
// on) in view beside it. The page itself must not scroll
// sideways.
const reachableJS = `(() => {
  const p = [], els = [...document.querySelectorAll(%q)];
  if (!els.length) p.push('no button matches');
  const scroller = el => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const o = getComputedStyle(a).overflowX;
      if ((o === 'auto' || o === 'scroll') && a.scrollWidth > a.clientWidth) return a;
    }
    return null;
  };
  for (const el of els) {
    const name = el.getAttribute('aria-label') || el.textContent.trim();
    document.querySelectorAll('main *').forEach(a => { a.scrollLeft = 0; });
    window.scrollTo(0, 0);
    const r0 = el.getBoundingClientRect();
    if ((r0.left < 0 || r0.right > innerWidth) && !scroller(el)) { p.push(name + ': off screen at ' + Math.round(r0.left) + ' px, in no container a person can scroll'); continue; }
    el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) {
      p.push(name + ': not within the window once scrolled to: ' + [r.left, r.top, r.right, r.bottom].map(Math.round)); continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !el.contains(hit)) p.push(name + ': covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing'));
    const row = el.closest('tr'), who = row && row.cells[0];
    if (who) {
      const w = who.getBoundingClientRect();
      if (w.left < 0 || w.right > innerWidth) p.push(name + ': whom it acts on (' + who.textContent.trim().slice(0, 40) + ') is out of view beside it');
    }
  }
  if (document.documentElement.scrollWidth > innerWidth) p.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px');
  return p;
})()`

// reachable fails the test for each button matching sel that a person on
// the emulated screen cannot reach (reachableJS).
func reachable(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	for _, p := range run(t, ctx, what+": reachable", chromedp.Evaluate[[]string](fmt.Sprintf(reachableJS, sel))) {
		t.Errorf("%s: %s", what, p)
	}
}

// The dashboard on a phone (390 x 844): every signer action and every
// replay button can be brought into view and tapped, the ones past the
// edge of the screen by scrolling their table; tapping them works. An
// unknown path of the dashboard is its own 404 page.
func TestBrowserDashboardOnAPhone(t *testing.T) {
	t.Parallel()
	shots := newScreenshots(t)
	ctx := browserOn(t, pageViewports[1])
	if vp := pageViewports[1]; vp.width != 390 || vp.height != 844 {
		t.Fatalf("the phone's screen is %dx%d", vp.width, vp.height)
	}
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	hook := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	t.Cleanup(hook.Close)
	if st, b := testkit.Call(t, s, "POST", "/webhook/api/v1/subscriptions", tok, map[string]any{
		"endpoint": hook.URL + "/hook", "eventTypes": []string{"sign.casefile.completed"}}, nil); st != 201 {
		t.Fatalf("subscribe: %d %s", st, b)
	}
	done, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com"), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text")))
	var annID int64
	testkit.Inspect(s, done, func(cf *testkit.CaseFile) { annID = cf.Signers[0].ID })
	if err := s.SignerAction(done, annID, "sign"); err != nil {
		t.Fatal(err)
	}
	other := testkit.CaseDef("Bo Lindqvist-Andersen:bo.lindqvist-andersen@a-long-company-name.example.com", "Cy:-", "Dee:dee@example.com:1")
	other["title"] = "Framework agreement for the supply of office furniture, 2027–2030"
	id, _ := testkit.RunCase(t, s, tok, other, testkit.FilePart("doc.pdf", mockserver.SamplePDF("Framework text")))
	var dee int64
	testkit.Inspect(s, id, func(cf *testkit.CaseFile) { dee = cf.Signers[2].ID })
	s.Advance(0)
	ui := s.URL() + "/mock/ui"

	run(t, ctx, "open the case files", chromedp.Navigate(ui+"/casefiles"))
	run(t, ctx, "wait for the buttons", chromedp.WaitVisible(chromedp.CSS("button[data-action]")))
	checkPage(t, ctx, "case files view", "en")
	reachable(t, ctx, "case files view", "main button[data-action]")
	shots.take(ctx, "1-casefiles")
	del := fmt.Sprintf(`#signer-%d button[data-action="delete"]`, dee)
	run(t, ctx, "tap delete for Dee", chromedp.Click(chromedp.CSS(del)))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if exists(t, ctx, del) || !strings.Contains(run(t, ctx, "read the note", chromedp.Text(chromedp.CSS("#note"))), "delete: done") {
		t.Error("tapping delete on a phone did not delete the signer")
	}

	run(t, ctx, "open the webhooks", chromedp.Navigate(ui+"/webhooks"))
	run(t, ctx, "wait for the deliveries", chromedp.WaitVisible(chromedp.CSS("#deliveries")))
	checkPage(t, ctx, "webhooks view", "en")
	reachable(t, ctx, "webhooks view", "main button.replay")
	shots.take(ctx, "2-webhooks")
	run(t, ctx, "tap replay", chromedp.Click(chromedp.CSS("button.replay")))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if note := run(t, ctx, "read the note", chromedp.Text(chromedp.CSS("#note"))); !strings.Contains(note, "started") {
		t.Errorf("tapping replay on a phone: %q", note)
	}

	run(t, ctx, "open the clock", chromedp.Navigate(ui+"/clock"))
	run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#advance")))
	reachable(t, ctx, "clock view", "#advance-button")

	run(t, ctx, "open an unknown page", chromedp.Navigate(ui+"/casefile"))
	run(t, ctx, "wait for the message", chromedp.WaitVisible(chromedp.CSS("#message")))
	if st := status(t, ctx); st != http.StatusNotFound {
		t.Errorf("an unknown page of the dashboard: status %d", st)
	}
	checkPage(t, ctx, "404 page", "en")
	if !exists(t, ctx, `nav.tabs a[href="/mock/ui/casefiles"]`) {
		t.Error("the 404 page has no way back into the dashboard")
	}
	shots.take(ctx, "3-not-found")
}

// noOverflowJS answers what sticks out: a page wider than the window, or
// a cell, heading or table box whose content is wider than the box.
const noOverflowJS = `(() => {
  const p = [];
  if (document.documentElement.scrollWidth > window.innerWidth) p.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
  document.querySelectorAll('main td, main th, main h1, main h2, main p, main .scroll').forEach(el => {
    if (el.scrollWidth > el.clientWidth + 1) p.push('overflows: ' + el.tagName + ' ' + el.textContent.trim().slice(0, 60));
  });
  return p;
})()`

// noOverflow fails the test for what sticks out of the page's boxes: long
// ids, addresses and URLs must wrap.
func noOverflow(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	for _, p := range run(t, ctx, what+": overflow", chromedp.Evaluate[[]string](noOverflowJS)) {
		t.Errorf("%s: %s", what, p)
	}
}
