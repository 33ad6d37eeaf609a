package browser_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/pages"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// viewport is a screen the page tests run on.
type viewport struct {
	name          string
	width, height int64
	mobile        bool
}

// The screens of the page tests: a desktop and a phone.
var pageViewports = []viewport{{"desktop", 1280, 900, false}, {"phone", 390, 844, true}}

// browserOn starts headless Chromium for one test on the screen vp (a
// phone's with mobile emulation, which honours the viewport meta).
func browserOn(t *testing.T, vp viewport) context.Context {
	t.Helper()
	ctx := browser(t)
	var opts []chromedp.EmulateViewportOption
	if vp.mobile {
		opts = append(opts, chromedp.EmulateMobile)
	}
	run(t, ctx, "viewport", chromedp.EmulateViewport(vp.width, vp.height, opts...))
	return ctx
}

// screenshots saves full-page screenshots of a test into the folder
// SIGNKIT_SCREENSHOTS names, or into the test's temporary folder.
type screenshots struct {
	t   *testing.T
	dir string
}

func newScreenshots(t *testing.T) *screenshots {
	dir := os.Getenv("SIGNKIT_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &screenshots{t: t, dir: dir}
}

// take saves the page as <test>-<name>.png.
func (s *screenshots) take(ctx context.Context, name string) {
	s.t.Helper()
	png := run(s.t, ctx, "screenshot "+name, chromedp.FullScreenshot(100)) // 100: PNG; lower: JPEG
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		s.t.Fatalf("screenshot %s is not a PNG", name)
	}
	file := filepath.Join(s.dir, strings.NewReplacer("/", "-", " ", "_").Replace(s.t.Name())+"-"+name+".png")
	if err := os.WriteFile(file, png, 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.t.Logf("screenshot %s", file)
}

// pageChecksJS answers the accessibility problems of the page: the
// viewport meta, a label for every input, every invalid input tied to its
// message and every message to its input, 16 px text in inputs and 44 px
// targets.
const pageChecksJS = `(() => {
  const p = [];
  const vm = document.querySelector('meta[name=viewport]');
  if (!vm || !/width=device-width/.test(vm.content)) p.push("no viewport meta");
  const shown = el => !el.closest('template') && !el.closest('[hidden]') && el.type !== 'hidden';
  document.querySelectorAll('input,select,textarea').forEach(el => {
    if (!shown(el)) return;
    const labelled = (el.id && document.querySelector('label[for="' + el.id + '"]')) || el.closest('label') ||
      el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
    if (!labelled) p.push('input without a label: ' + (el.id || el.name));
    if (parseFloat(getComputedStyle(el).fontSize) < 16) p.push('text under 16 px in ' + (el.id || el.name));
  });
  document.querySelectorAll('[aria-invalid=true]').forEach(el => {
    const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    if (!ids.some(i => { const m = document.getElementById(i); return m && m.classList.contains('error-message') && m.textContent.trim(); }))
      p.push('invalid input without its message: ' + el.id);
  });
  document.querySelectorAll('.error-message').forEach(m => {
    if (!document.querySelector('[aria-describedby~="' + m.id + '"]')) p.push('message tied to no input: ' + m.id);
  });
  document.querySelectorAll('button,a.button,input[type=radio]').forEach(el => {
    if (!shown(el) || el.type === 'radio') return;
    const r = el.getBoundingClientRect();
    if (r.height < 44) p.push('target under 44 px: ' + (el.id || el.textContent.trim()) + ' ' + r.height);
  });
  return p;
})()`

// checkPage fails the test for the page's accessibility problems and a
// lang other than want.
func checkPage(t *testing.T, ctx context.Context, what, lang string) {
	t.Helper()
	if got := run(t, ctx, what+": lang", chromedp.Evaluate[string](`document.documentElement.lang`)); got != lang {
		t.Errorf("%s: lang %q, want %q", what, got, lang)
	}
	for _, p := range run(t, ctx, what+": checks", chromedp.Evaluate[[]string](pageChecksJS)) {
		t.Errorf("%s: %s", what, p)
	}
}

// status answers the HTTP status of the page's last navigation.
func status(t *testing.T, ctx context.Context) int {
	t.Helper()
	return run(t, ctx, "status", chromedp.Evaluate[int](`performance.getEntriesByType("navigation")[0].responseStatus`))
}

// activeID answers the id of the focused element.
func activeID(t *testing.T, ctx context.Context) string {
	t.Helper()
	return run(t, ctx, "focused element", chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`))
}

// exists reports whether the page has an element matching sel.
func exists(t *testing.T, ctx context.Context, sel string) bool {
	t.Helper()
	return run(t, ctx, "query "+sel, chromedp.Evaluate[bool](`document.querySelector(`+"`"+sel+"`"+`) !== null`))
}

// An end user on a desktop and on a phone: fills the form with a mistake,
// lands on the summary, follows its link to the field, fixes it, chooses
// the lost file again and submits; follows the thank-you page's signing
// link, signs, refreshes the signed page; and meets an HTML 404.
func TestBrowserPagesFlow(t *testing.T) {
	t.Parallel()
	for _, vp := range pageViewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			lang := map[bool]string{false: "en", true: "da"}[vp.mobile]
			shots := newScreenshots(t)
			ctx := browserOn(t, vp)
			s := mockserver.Start(t)
			tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
			def := testkit.SampleForm()
			def["language"] = strings.ToUpper(lang) // the vendor sends "EN"
			f := testkit.ActiveForm(t, s, tok, def)
			upload := filepath.Join(t.TempDir(), "cv.pdf")
			if err := os.WriteFile(upload, []byte("%PDF-1.4 a small file"), 0o644); err != nil {
				t.Fatal(err)
			}

			run(t, ctx, "open the form", chromedp.Navigate(f.PublicURL))
			run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#in-fullName")))
			if w := run(t, ctx, "layout width", chromedp.Evaluate[int](`document.documentElement.clientWidth`)); w != int(vp.width) {
				t.Errorf("layout is %d px wide on a %d px screen", w, vp.width)
			}
			checkPage(t, ctx, "form", lang)
			if !exists(t, ctx, "#required-note") {
				t.Error("the * is not explained")
			}
			run(t, ctx, "type the name", chromedp.SendKeys(chromedp.CSS("#in-fullName"), "Ann Browser"))
			run(t, ctx, "type a wrong email", chromedp.SendKeys(chromedp.CSS("#in-email"), "ann-at-example"))
			run(t, ctx, "choose no company", chromedp.SetValue(chromedp.CSS("#in-hasCompany"), "no"))
			run(t, ctx, "fire change", chromedp.Evaluate[bool](`document.getElementById("in-hasCompany").dispatchEvent(new Event("change", {bubbles: true}))`))
			run(t, ctx, "choose a file", chromedp.SetUploadFiles(chromedp.CSS("#in-attachment"), []string{upload}))
			shots.take(ctx, "1-form")

			run(t, ctx, "submit with the mistake", chromedp.Click(chromedp.CSS("#submit")))
			run(t, ctx, "wait for the summary", chromedp.WaitVisible(chromedp.CSS("#error-summary")))
			if got := activeID(t, ctx); got != "error-summary" {
				t.Errorf("focus on %q after the failed submit, want the error summary", got)
			}
			summary := run(t, ctx, "read the summary", chromedp.Text(chromedp.CSS("#error-summary")))
			if _, tx := pages.Language(lang); !strings.Contains(summary, fmt.Sprintf(tx.InvalidEmailF, "Email")) || strings.Contains(summary, "email:") {
				t.Errorf("summary %q: want a sentence with the field's label, in %s", summary, lang)
			}
			checkPage(t, ctx, "form with errors", lang)
			if !exists(t, ctx, `#lost-attachment`) || !exists(t, ctx, `#in-attachment[aria-describedby~="lost-attachment"]`) {
				t.Error("the file chosen before the error is not named")
			}
			shots.take(ctx, "2-errors")

			run(t, ctx, "follow the summary's link", chromedp.Click(chromedp.CSS(`#error-summary a[href="#in-email"]`)))
			if got := activeID(t, ctx); got != "in-email" {
				t.Errorf("focus on %q after the summary link, want in-email", got)
			}
			run(t, ctx, "clear the email", chromedp.Evaluate[string](`document.getElementById("in-email").value = ""`))
			run(t, ctx, "type the right email", chromedp.SendKeys(chromedp.CSS("#in-email"), "ann@example.com"))
			if exists(t, ctx, "#error-email") || exists(t, ctx, `#in-email[aria-invalid]`) {
				t.Error("the email's error stayed after it changed")
			}
			run(t, ctx, "choose the file again", chromedp.SetUploadFiles(chromedp.CSS("#in-attachment"), []string{upload}))
			if exists(t, ctx, "#lost-attachment") {
				t.Error("the lost-file note stayed after the file was chosen again")
			}
			run(t, ctx, "submit", chromedp.Click(chromedp.CSS("#submit")))
			run(t, ctx, "wait for the thank-you page", chromedp.WaitVisible(chromedp.CSS("#submission-id")))
			if st := status(t, ctx); st != 201 {
				t.Errorf("thank-you page: status %d", st)
			}
			checkPage(t, ctx, "thank-you page", lang)
			if id := run(t, ctx, "read the case file id", chromedp.Text(chromedp.CSS("#casefile-id"))); id == "" {
				t.Error("no case file id on the thank-you page")
			}
			shots.take(ctx, "3-thanks")

			run(t, ctx, "follow the signing link", chromedp.Click(chromedp.CSS("a.signing-link")))
			run(t, ctx, "wait for the signing page", chromedp.WaitVisible(chromedp.CSS("#sign")))
			checkPage(t, ctx, "signing page", lang)
			if n := run(t, ctx, "count signers", chromedp.Evaluate[int](`document.querySelectorAll("#signers li").length`)); n != 1 {
				t.Errorf("%d signers listed, want 1", n)
			}
			shots.take(ctx, "4-signing")
			run(t, ctx, "sign", chromedp.Click(chromedp.CSS("#sign")))
			run(t, ctx, "wait for the flash", chromedp.WaitVisible(chromedp.CSS("#flash")))
			if st := status(t, ctx); st != 200 {
				t.Errorf("signed page: status %d", st)
			}
			if exists(t, ctx, "#sign") || !exists(t, ctx, `#signers li[data-status="signed"]`) {
				t.Error("the signed page still offers Sign, or does not show the signer as signed")
			}
			events := len(s.Events(0))
			run(t, ctx, "refresh", chromedp.Reload())
			run(t, ctx, "wait for the page again", chromedp.WaitVisible(chromedp.CSS("#status")))
			if st := status(t, ctx); st != 200 {
				t.Errorf("refreshed signed page: status %d", st)
			}
			if n := len(s.Events(0)); n != events {
				t.Errorf("the refresh changed the case file: %d events, then %d", events, n)
			}
			checkPage(t, ctx, "signed page", lang)
			shots.take(ctx, "5-signed")

			run(t, ctx, "open an unknown link", chromedp.Navigate(s.URL()+"/public/sign/nope"))
			run(t, ctx, "wait for the 404 page", chromedp.WaitVisible(chromedp.CSS("h1")))
			if st, ct := status(t, ctx), run(t, ctx, "content type", chromedp.Evaluate[string](`document.contentType`)); st != 404 || ct != "text/html" {
				t.Errorf("unknown signing link: %d %s, want an HTML 404", st, ct)
			}
			checkPage(t, ctx, "404 page", "en")
			shots.take(ctx, "6-404")
		})
	}
}

// Reject is secondary and asks first: Cancel changes nothing; confirming
// rejects, and a refresh of the answer posts nothing again.
func TestBrowserRejectAsksFirst(t *testing.T) {
	t.Parallel()
	for _, vp := range pageViewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			shots := newScreenshots(t)
			ctx := browserOn(t, vp)
			s := mockserver.Start(t, mockserver.WithManualClock(testkit.Epoch))
			tok, file := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials())), testkit.FilePart("doc.pdf", mockserver.SamplePDF("Contract text"))
			id, links := testkit.RunCase(t, s, tok, testkit.CaseDef("Ann:ann@example.com", "Bob:bob@example.com"), file)
			run(t, ctx, "open Ann's page", chromedp.Navigate(links[0].SigningLink))
			run(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#reject")))
			if cls := run(t, ctx, "reject's class", chromedp.Evaluate[string](`document.getElementById("reject").className`)); !strings.Contains(cls, "secondary") {
				t.Errorf("Reject has class %q, want a secondary button", cls)
			}
			run(t, ctx, "ask to reject", chromedp.Click(chromedp.CSS("#reject")))
			run(t, ctx, "wait for the question", chromedp.WaitVisible(chromedp.CSS("#confirm-reject")))
			checkPage(t, ctx, "reject question", "en")
			shots.take(ctx, "1-confirm")
			run(t, ctx, "cancel", chromedp.Click(chromedp.CSS("#cancel-reject")))
			run(t, ctx, "wait for the page", chromedp.WaitVisible(chromedp.CSS("#sign")))
			if st := testkit.CaseStatus(s, id); st != testkit.CasePending {
				t.Fatalf("after Cancel the case file is %d, want pending", st)
			}
			run(t, ctx, "ask to reject again", chromedp.Click(chromedp.CSS("#reject")))
			run(t, ctx, "give a reason", chromedp.SendKeys(chromedp.CSS("#reject-reason"), "The rent is wrong."))
			run(t, ctx, "confirm", chromedp.Click(chromedp.CSS("#confirm-reject-button")))
			run(t, ctx, "wait for the flash", chromedp.WaitVisible(chromedp.CSS("#flash")))
			if st := testkit.CaseStatus(s, id); st != testkit.CaseRejected {
				t.Fatalf("after confirming the case file is %d, want rejected", st)
			}
			if r := rejectReason(s, id); r != "The rent is wrong." {
				t.Errorf("the rejectReason is %q, want the reason typed", r)
			}
			if !exists(t, ctx, `#signers li[data-status="rejected"]`) || !exists(t, ctx, `#signers li[data-status="pending"]`) {
				t.Error("the signers' list does not show Ann rejected and Bob still to sign")
			}
			events := len(s.Events(0))
			run(t, ctx, "refresh", chromedp.Reload())
			run(t, ctx, "wait for the page again", chromedp.WaitVisible(chromedp.CSS("#status")))
			if st := status(t, ctx); st != 200 || len(s.Events(0)) != events {
				t.Errorf("refresh after the reject: status %d, events %d then %d", st, events, len(s.Events(0)))
			}
			checkPage(t, ctx, "rejected page", "en")
			shots.take(ctx, "2-rejected")
		})
	}
}

// rejectReason answers the reason of the first signer who rejected.
func rejectReason(s *mockserver.Server, id int64) string {
	var reason string
	testkit.Inspect(s, id, func(cf *testkit.CaseFile) {
		for _, sg := range cf.Signers {
			if sg.RejectReason != "" && reason == "" {
				reason = sg.RejectReason
			}
		}
	})
	return reason
}

// A prefilled link on a desktop and a phone: locked fields say the sender
// set them and carry no *, a locked choice shows its label, and merge
// fields show a placeholder until answered and a choice's label.
func TestBrowserPrefilledPage(t *testing.T) {
	t.Parallel()
	for _, vp := range pageViewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			shots := newScreenshots(t)
			ctx := browserOn(t, vp)
			s := mockserver.Start(t)
			tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
			def := testkit.SampleForm()
			review := def["sections"].([]any)[2].(map[string]any)["fields"].([]any)[0].(map[string]any)
			review["content"] = "<p>You are <b>{{fullName}}</b> &lt;{{email}}&gt;; company: {{hasCompany}}; from {{start}}.</p>"
			applicant := def["sections"].([]any)[0].(map[string]any)
			applicant["fields"] = append(applicant["fields"].([]any), map[string]any{"name": "start", "label": "Start", "type": "DATE", "required": true})
			f := testkit.ActiveForm(t, s, tok, def)
			var link struct {
				RequestURL string `json:"requestUrl"`
			}
			if st, b := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/requests", tok, map[string]any{"answers": map[string]any{
				"email":      map[string]any{"value": "ann@example.com", "editable": false},
				"hasCompany": map[string]any{"value": "yes", "editable": false}}}, &link); st != 200 {
				t.Fatalf("prefill: %d %s", st, b)
			}
			run(t, ctx, "open the link", chromedp.Navigate(link.RequestURL))
			run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#locked-email")))
			checkPage(t, ctx, "prefilled page", "en")
			if got := run(t, ctx, "read the lock", chromedp.Text(chromedp.CSS("#locked-email"))); !strings.Contains(got, "Set by the sender") {
				t.Errorf("lock note %q", got)
			}
			if exists(t, ctx, `label[for="in-email"] .req`) || exists(t, ctx, `label[for="in-hasCompany"] .req`) {
				t.Error("a locked field is marked required")
			}
			if got := run(t, ctx, "read the locked choice", chromedp.Evaluate[string](`document.getElementById("in-hasCompany").value`)); got != "Yes" {
				t.Errorf("locked choice shows %q, want its label Yes", got)
			}
			merge := func(name string) string {
				return run(t, ctx, "read merge "+name, chromedp.Text(chromedp.CSS(`#field-summary .merge[data-merge="`+name+`"]`)))
			}
			if got := merge("fullName"); got != "[Full name]" || !exists(t, ctx, `.merge.empty[data-merge="fullName"]`) {
				t.Errorf("empty merge field shows %q, want the placeholder [Full name]", got)
			}
			if got := merge("hasCompany"); got != "Yes" {
				t.Errorf("merged choice shows %q, want its label", got)
			}
			if !exists(t, ctx, "#in-vat") || exists(t, ctx, "#section-company[hidden]") {
				t.Error("the questions that follow from the locked answer are not shown")
			}
			run(t, ctx, "type the name", chromedp.SendKeys(chromedp.CSS("#in-fullName"), "Ann"))
			if got := merge("fullName"); got != "Ann" || exists(t, ctx, `.merge.empty[data-merge="fullName"]`) {
				t.Errorf("merge field shows %q after typing", got)
			}
			run(t, ctx, "pick a date", chromedp.SetValue(chromedp.CSS("#in-start"), "2026-12-31"))
			run(t, ctx, "fire change", chromedp.Evaluate[bool](`document.getElementById("in-start").dispatchEvent(new Event("change", {bubbles: true}))`))
			if got := merge("start"); got != "12/31/2026" { // headless Chromium's locale is en-US: its date inputs show mm/dd/yyyy
				t.Errorf("merged date shows %q, want the date input's format 12/31/2026", got)
			}
			shots.take(ctx, "prefilled")
		})
	}
}
