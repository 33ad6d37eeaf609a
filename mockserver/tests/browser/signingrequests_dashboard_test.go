package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// In Chromium: a bounced signer's email is changed from the dashboard and
// the request is sent again; the inbox shows it at the new address.
func TestBrowserDashboardChangeEmail(t *testing.T) {
	t.Parallel()
	ctx := browserOn(t, pageViewports[0])
	s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	id, _ := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@exmaple.com"), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text")))
	sg := testkit.SignerIDs(s, id)[0]
	if err := s.SignerAction(id, sg, mockserver.ActionUndeliverable); err != nil {
		t.Fatal(err)
	}
	ui := s.URL() + "/mock/ui"
	row := fmt.Sprintf("#signer-%d", sg)
	run(t, ctx, "open the case files", chromedp.Navigate(ui+"/casefiles"))
	run(t, ctx, "wait for the email form", chromedp.WaitVisible(chromedp.CSS(row+" form.change-email input")))
	noOverflow(t, ctx, "case files view with the email form")
	run(t, ctx, "type the new address", chromedp.SetValue(chromedp.CSS(row+" form.change-email input"), "ann@example.com"))
	run(t, ctx, "change email", chromedp.Click(chromedp.CSS(row+` button[data-action="change-email"]`)))
	run(t, ctx, "wait for the note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if note := run(t, ctx, "read the note", chromedp.Text(chromedp.CSS("#note"))); strings.Contains(note, "Not done") {
		t.Fatalf("change email: %s", note)
	}
	if st := run(t, ctx, "read the status", chromedp.Text(chromedp.CSS(row+" .signer-status"))); st != "pending" {
		t.Errorf("the signer is %q after the change, want pending", st)
	}
	// The page still shows the email change's note: take it away, so that
	// the wait below sees the resend's page, not this one (navigating on
	// while the resend's redirect loads aborts it).
	run(t, ctx, "clear the note", chromedp.Evaluate[bool](`document.getElementById("note").remove(), true`))
	run(t, ctx, "resend", chromedp.Click(chromedp.CSS(row+` button[data-action="resend"]`)))
	run(t, ctx, "wait for the resend's note", chromedp.WaitVisible(chromedp.CSS("#note")))
	if note := run(t, ctx, "read the note", chromedp.Text(chromedp.CSS("#note"))); strings.Contains(note, "Not done") {
		t.Fatalf("resend: %s", note)
	}
	run(t, ctx, "open the inbox", chromedp.Navigate(ui))
	run(t, ctx, "wait for the emails", chromedp.WaitVisible(chromedp.CSS("#emails")))
	if to := run(t, ctx, "read the inbox", chromedp.Text(chromedp.CSS("#emails tbody"))); !strings.Contains(to, "ann@example.com") {
		t.Errorf("no email to the new address in the inbox:\n%s", to)
	}
	if n := len(s.EmailsTo("ann@example.com")); n != 1 {
		t.Errorf("%d emails to the new address, want 1", n)
	}
}
