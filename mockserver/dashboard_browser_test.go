package mockserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The dashboard in Chromium: sign a case file from it, see the completion
// email and the delivered event appear, replay the event, advance the
// clock; a screenshot of each of its four views.
func TestBrowserDashboard(t *testing.T) {
	t.Parallel()
	shots := newScreenshots(t)
	ctx := browser(t)
	run(t, ctx, "viewport", chromedp.EmulateViewport(1280, 900))
	s := Start(t, WithManualClock(epoch))
	tok := login(t, s, s.DefaultCredentials())
	var received atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { received.Add(1) }))
	t.Cleanup(hook.Close)
	var sub struct {
		Secret string `json:"secret"`
	}
	if st, b := call(t, s, "POST", "/webhook/api/v1/subscriptions", tok, map[string]any{
		"endpoint": hook.URL + "/hook", "eventTypes": []string{"sign.casefile.completed"}}, &sub); st != 201 || sub.Secret == "" {
		t.Fatalf("subscribe: %d %s", st, b)
	}
	id, _ := sndRun(t, s, tok, sndCase("Ann:ann@example.com"), sndFile("doc.pdf", sndPDF(t, "Contract text")))
	var signerID int64
	s.core.Signing.Inspect(id, func(cf *caseFile) { signerID = cf.Signers[0].ID })
	ui := s.URL() + "/mock/ui"

	run(t, ctx, "open the case files", chromedp.Navigate(ui+"/casefiles"))
	sign := fmt.Sprintf(`#signer-%d button[data-action="sign"]`, signerID)
	run(t, ctx, "wait for the signer's buttons", chromedp.WaitVisible(chromedp.CSS(sign)))
	checkPage(t, ctx, "case files view", "en")
	run(t, ctx, "sign as Ann", chromedp.Click(chromedp.CSS(sign)))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if !exists(t, ctx, fmt.Sprintf(`#casefile-%d .badge[data-status="completed"]`, id)) {
		t.Fatal("the case file is not shown completed after Sign")
	}
	shots.take(ctx, "1-casefiles")

	run(t, ctx, "open the inbox", chromedp.Navigate(ui))
	run(t, ctx, "wait for the emails", chromedp.WaitVisible(chromedp.CSS("#emails")))
	checkPage(t, ctx, "inbox", "en")
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
	if st := run(t, ctx, "read the status", chromedp.Text(chromedp.CSS(delivered+" .http-status"))); st != "200" {
		t.Errorf("delivered attempt shows status %q", st)
	}
	page := run(t, ctx, "read the page", chromedp.Text(chromedp.CSS("main")))
	for _, secret := range []string{sub.Secret, DefaultClientSecret, DefaultAPISecret} {
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
	shots.take(ctx, "3-webhooks")

	run(t, ctx, "open the clock", chromedp.Navigate(ui+"/clock"))
	run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#advance")))
	checkPage(t, ctx, "clock view", "en")
	before := s.Now()
	run(t, ctx, "amount", chromedp.SetValue(chromedp.CSS("#amount"), "2"))
	run(t, ctx, "advance", chromedp.Click(chromedp.CSS("#advance-button")))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if got := s.Now().Sub(before); got != 2*time.Hour {
		t.Errorf("the clock moved %v, want 2h", got)
	}
	if now := run(t, ctx, "read the time", chromedp.Text(chromedp.CSS("#now"))); now != s.Now().UTC().Format("2006-01-02 15:04:05 MST") {
		t.Errorf("the view shows %q, the clock is at %v", now, s.Now())
	}
	shots.take(ctx, "4-clock")
}
