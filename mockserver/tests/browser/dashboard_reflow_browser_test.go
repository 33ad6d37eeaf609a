package browser_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// tableFitJS answers, for every table of the page, what does not fit its
// container: a table wider (scrollWidth) than the box it sits in, that box
// scrolling sideways, a cell whose content is wider than the cell, and a
// cell with text that is not shown. It also answers how many tables there
// are, so that a page without its tables does not pass.
const tableFitJS = `(() => {
  const p = [], tables = [...document.querySelectorAll('main table')];
  for (const t of tables) {
    const box = t.parentElement, name = t.id || (t.closest('section') || {}).id || 'a table';
    if (t.scrollWidth > box.clientWidth) p.push(name + ': the table is ' + t.scrollWidth + ' px wide in a box of ' + box.clientWidth + ' px');
    if (box.scrollWidth > box.clientWidth) p.push(name + ': its box scrolls sideways (' + box.scrollWidth + ' px in ' + box.clientWidth + ' px)');
    for (const td of t.querySelectorAll('td')) {
      const text = td.textContent.trim(), r = td.getBoundingClientRect();
      if (text && (getComputedStyle(td).display === 'none' || r.width === 0 || r.height === 0)) p.push(name + ': a cell is hidden: ' + text.slice(0, 40));
      if (td.scrollWidth > td.clientWidth + 1) p.push(name + ': a cell overflows: ' + text.slice(0, 40));
      if (r.right > innerWidth + 1) p.push(name + ': a cell ends past the window at ' + Math.round(r.right) + ' px: ' + text.slice(0, 40));
    }
  }
  if (document.documentElement.scrollWidth > innerWidth) p.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
  return {tables: tables.length, problems: p};
})()`

// tableFit is what tableFitJS answers.
type tableFit struct {
	Tables   int      `json:"tables"`
	Problems []string `json:"problems"`
}

// TestBrowserDashboardTablesFitAPhone opens every dashboard view that has a table on a
// phone's screen (390 x 844), with content that makes tables wide (a long endpoint
// URL, long ids, addresses and titles), and fails for each table wider than its
// container (and again at 768 px), each box that scrolls sideways, and each cell that
// overflows or is hidden: on a phone the tables reflow, every column's content shown
// (https://github.com/signkit/signkit-go/blob/main/docs/mockserver.md#dashboard).
func TestBrowserDashboardTablesFitAPhone(t *testing.T) {
	t.Parallel()
	shots := newScreenshots(t)
	vp := pageViewports[1]
	if vp.width != 390 {
		t.Fatalf("the phone's screen is %d px wide", vp.width)
	}
	ctx := browserOn(t, vp)
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }))
	t.Cleanup(hook.Close)
	endpoint := hook.URL + "/webhooks/receivers/signkit-integration-tests/" + strings.Repeat("a-long-path-segment-", 5) +
		"?tenant=acme-corporation-international&token=0123456789abcdef0123456789abcdef"
	if st, b := testkit.Call(t, s, "POST", "/webhook/api/v1/subscriptions", tok, map[string]any{
		"endpoint": endpoint, "eventTypes": mockserver.EventTypes()}, nil); st != http.StatusCreated {
		t.Fatalf("subscribe: %d %s", st, b)
	}
	def := testkit.CaseDef("Bartholomew Lindqvist-Andersen-Featherstonehaugh:bartholomew.lindqvist-andersen-featherstonehaugh@a-very-long-company-name-for-testing.example.com",
		"Cy:-", "Dee:dee@example.com:1")
	def["title"] = "Framework agreement for the supply of office furniture and " + strings.Repeat("Supercalifragilistic", 4)
	id, _ := testkit.RunCase(t, s, tok, def, testkit.FilePart("doc.pdf", mockserver.SamplePDF("Framework text")))
	if err := s.SignerAction(id, testkit.SignerID(t, s, id, "Cy"), mockserver.ActionSign); err != nil {
		t.Fatal(err)
	}
	s.Advance(0)

	ui := s.URL() + "/mock/ui"
	// The phone, then a tablet's width, where a table's minimum width
	// (52rem) is still wider than its box.
	for i, width := range []int64{vp.width, 768} {
		if i > 0 {
			run(t, ctx, "viewport", chromedp.EmulateViewport(width, 1024))
		}
		for _, view := range []struct{ name, path, wait string }{
			{"inbox", "/emails", "#emails"},
			{"case files", "/casefiles", "tr.signer"},
			{"webhooks", "/webhooks", "#deliveries"},
		} {
			run(t, ctx, "open the "+view.name, chromedp.Navigate(ui+view.path))
			run(t, ctx, "wait for the "+view.name+" table", chromedp.WaitVisible(chromedp.CSS(view.wait)))
			got := run(t, ctx, view.name+": tables", chromedp.Evaluate[tableFit](tableFitJS))
			if got.Tables == 0 {
				t.Errorf("%s: no table", view.name)
			}
			for _, p := range got.Problems {
				t.Errorf("%s at %d px: %s", view.name, width, p)
			}
			shots.take(ctx, fmt.Sprintf("%d-%s", width, strings.ReplaceAll(view.name, " ", "-")))
		}
	}
}
