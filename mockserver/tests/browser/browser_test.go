package browser_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	signkit "github.com/signkit/signkit-go"
	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// browser starts headless Chromium for one test, with the options extra
// besides the usual ones.
func browser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path := testkit.NeedTool(t, "chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.Headless, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()))
	opts = append(opts, extra...)
	// The whole browser session is bounded; each step has its own bound (run).
	life, cancelLife := context.WithTimeout(context.Background(), 3*time.Minute)
	actx, cancelAlloc := chromedp.NewExecAllocator(life, opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelCtx(); cancelAlloc(); cancelLife() })
	// The first action launches the browser, bound to ctx itself: a shorter
	// context here would close the browser when it ends.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// run performs one bounded browser step and answers its result.
func run[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(sctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

func TestBrowserFillsPublicPage(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	s := mockserver.Start(t)
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	f := testkit.ActiveForm(t, s, tok, testkit.SampleForm())
	var link struct {
		RequestURL string `json:"requestUrl"`
	}
	if st, b := testkit.Call(t, s, "POST", "/collect/api/v1/forms/"+f.ExternalID+"/requests", tok, map[string]any{"answers": map[string]any{
		"email": map[string]any{"value": "ann@example.com", "editable": false}}}, &link); st != 200 {
		t.Fatalf("prefill: %d %s", st, b)
	}
	hidden := func(id string) bool {
		return run(t, ctx, "read hidden of "+id, chromedp.Evaluate[bool](`document.getElementById("`+id+`").hidden`))
	}
	run(t, ctx, "open the page", chromedp.Navigate(link.RequestURL))
	run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#in-fullName")))
	if !hidden("section-company") || !hidden("field-vat") {
		t.Fatal("conditional section or field shown before the triggering answer")
	}
	run(t, ctx, "type the name", chromedp.SendKeys(chromedp.CSS("#in-fullName"), "Ann Browser"))
	if got := run(t, ctx, "read the review", chromedp.Text(chromedp.CSS(`#field-summary .merge[data-merge="fullName"]`))); got != "Ann Browser" {
		t.Fatalf("review shows %q, want the typed name", got)
	}
	run(t, ctx, "choose no company", chromedp.SetValue(chromedp.CSS("#in-hasCompany"), "no"))
	run(t, ctx, "fire change", chromedp.Evaluate[bool](`document.getElementById("in-hasCompany").dispatchEvent(new Event("change", {bubbles: true}))`))
	if !hidden("section-company") {
		t.Fatal("company section shown for the answer no")
	}
	run(t, ctx, "choose company", chromedp.SetValue(chromedp.CSS("#in-hasCompany"), "yes"))
	run(t, ctx, "fire change", chromedp.Evaluate[bool](`document.getElementById("in-hasCompany").dispatchEvent(new Event("change", {bubbles: true}))`))
	run(t, ctx, "company section appears", chromedp.WaitVisible(chromedp.CSS("#in-companyName")))
	if hidden("section-company") || hidden("field-vat") {
		t.Fatal("conditional section or field still hidden after the triggering answer")
	}
	run(t, ctx, "type into the locked field", chromedp.SendKeys(chromedp.CSS("#in-email"), "eve"))
	if got := run(t, ctx, "read the locked field", chromedp.Value(chromedp.CSS("#in-email"))); got != "ann@example.com" {
		t.Fatalf("locked field changed to %q", got)
	}
	run(t, ctx, "type the company", chromedp.SendKeys(chromedp.CSS("#in-companyName"), "Browser ApS"))
	run(t, ctx, "type the VAT", chromedp.SendKeys(chromedp.CSS("#in-vat"), "12345678"))
	run(t, ctx, "submit", chromedp.Click(chromedp.CSS("#submit")))
	id := run(t, ctx, "read the submission id", chromedp.Text(chromedp.CSS("#submission-id")))
	subs := testkit.Core(s).Forms.Submissions(f.ExternalID)
	if id != "1" || len(subs) != 1 {
		t.Fatalf("thank-you page says %q; %d submissions stored", id, len(subs))
	}
	ans := subs[0].Answers(f.ExternalID)
	if subs[0].Answer("fullName") != "Ann Browser" || subs[0].Answer("email") != "ann@example.com" ||
		subs[0].Answer("companyName") != "Browser ApS" || len(ans.Sections) != 3 {
		t.Fatalf("stored answers: %+v", ans)
	}
}

// TestBrowserFillsMultiEntrySection: a person fills two instances of a
// multi-entry section, adding the second with the page's add button, and a
// second value of a multi-entry field; the stored answers hold both.
func TestBrowserFillsMultiEntrySection(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	s := mockserver.Start(t)
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	f := testkit.ActiveForm(t, s, tok, testkit.JobApplication(2))
	count := func() int {
		return run(t, ctx, "count instances", chromedp.Evaluate[int](`document.querySelectorAll("#section-previous-employment .instance").length`))
	}
	run(t, ctx, "open the page", chromedp.Navigate(f.PublicURL))
	run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#in-full_name")))
	if n := count(); n != 1 {
		t.Fatalf("%d instances before adding, want 1", n)
	}
	run(t, ctx, "type the name", chromedp.SendKeys(chromedp.CSS("#in-full_name"), "Ann Browser"))
	run(t, ctx, "type the email", chromedp.SendKeys(chromedp.CSS("#in-email_address"), "ann@example.com"))
	run(t, ctx, "type a phone", chromedp.SendKeys(chromedp.CSS("#in-phone_numbers"), "+45 11111111"))
	run(t, ctx, "add a phone", chromedp.Click(chromedp.CSS("#add-phone_numbers")))
	run(t, ctx, "type a second phone", chromedp.SendKeys(chromedp.CSS("#in-phone_numbers-1"), "+45 22222222"))
	run(t, ctx, "type employer 0", chromedp.SendKeys(chromedp.CSS("#in-employer-0"), "First ApS"))
	run(t, ctx, "type title 0", chromedp.SendKeys(chromedp.CSS("#in-job_title-0"), "Developer"))
	run(t, ctx, "add an instance", chromedp.Click(chromedp.CSS("#add-previous-employment")))
	run(t, ctx, "second instance appears", chromedp.WaitVisible(chromedp.CSS("#in-employer-1")))
	if n := count(); n != 2 {
		t.Fatalf("%d instances after adding, want 2", n)
	}
	if !run(t, ctx, "add button hidden at max", chromedp.Evaluate[bool](`document.getElementById("add-previous-employment").hidden`)) {
		t.Error("the add button is still shown with max instances")
	}
	if got := run(t, ctx, "review shows the first instance", chromedp.Text(chromedp.CSS(`.merge[data-merge="employer"]`))); got != "First ApS" {
		t.Errorf("review shows %q, want the first employer", got)
	}
	run(t, ctx, "type employer 1", chromedp.SendKeys(chromedp.CSS("#in-employer-1"), "Second A/S"))
	run(t, ctx, "type title 1", chromedp.SendKeys(chromedp.CSS("#in-job_title-1"), "Lead"))
	run(t, ctx, "submit", chromedp.Click(chromedp.CSS("#submit")))
	id := run(t, ctx, "read the submission id", chromedp.Text(chromedp.CSS("#submission-id")))
	subs := testkit.Core(s).Forms.Submissions(f.ExternalID)
	if id != "1" || len(subs) != 1 {
		t.Fatalf("thank-you page says %q; %d submissions stored", id, len(subs))
	}
	ans := subs[0].Answers(f.ExternalID)
	inst := ans.Sections[1].Instances
	if len(inst) != 2 || inst[0].Answers[0].Value != "First ApS" || inst[0].Answers[1].Value != "Developer" ||
		inst[1].Answers[0].Value != "Second A/S" || inst[1].Answers[1].Value != "Lead" {
		t.Fatalf("stored instances: %+v", inst)
	}
	if phones := ans.Sections[0].Answers[2].Values; len(phones) != 2 || phones[1] != "+45 22222222" {
		t.Fatalf("stored phones: %v", phones)
	}
	// What an integrator reads with the SDK: both instances, and Get/GetAll
	// find their fields.
	c, err := signkit.NewClient(s.Config())
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Forms.Answers(t.Context(), f.ExternalID, 1)
	if err != nil {
		t.Fatalf("SDK answers: %v", err)
	}
	var employers []string
	for _, a := range got.GetAll("employer") {
		employers = append(employers, a.Value)
	}
	if len(employers) != 2 || employers[0] != "First ApS" || employers[1] != "Second A/S" {
		t.Errorf("SDK GetAll(employer) = %q, want both instances", employers)
	}
	if a, ok := got.Get("job_title"); !ok || a.Value != "Developer" {
		t.Errorf("SDK Get(job_title) = %+v %v, want the first instance's", a, ok)
	}
	if a, ok := got.Get("phone_numbers"); !ok || len(a.Values) != 2 {
		t.Errorf("SDK Get(phone_numbers) = %+v %v, want two values", a, ok)
	}
}

// TestBrowserTextareaAndRadios: a multiline field is a textarea (its line
// breaks kept) and a CHOICE with layout RADIO is a row of radio buttons
// whose checked one drives a condition.
func TestBrowserTextareaAndRadios(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	s := mockserver.Start(t)
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	f := testkit.ActiveForm(t, s, tok, map[string]any{
		"name": "Feedback", "language": "en", "caseFileTitleTemplate": "Feedback",
		"sections": []any{map[string]any{"title": "You", "fields": []any{
			map[string]any{"name": "contact", "label": "Contact me", "type": "CHOICE", "layout": "RADIO", "required": true,
				"options": []any{map[string]any{"label": "No", "value": "no"}, map[string]any{"label": "Yes", "value": "yes"}}},
			map[string]any{"name": "phone", "label": "Phone", "type": "PHONE",
				"condition": map[string]any{"rules": []any{map[string]any{"field": "contact", "operator": "EQUALS", "value": "yes"}}}},
			map[string]any{"name": "comments", "label": "Comments", "type": "TEXT", "multiline": true},
		}}},
	})
	run(t, ctx, "open the page", chromedp.Navigate(f.PublicURL))
	run(t, ctx, "wait for the form", chromedp.WaitVisible(chromedp.CSS("#in-comments")))
	if tag := run(t, ctx, "comments element", chromedp.Evaluate[string](`document.getElementById("in-comments").tagName`)); tag != "TEXTAREA" {
		t.Errorf("multiline field is a %s, want a TEXTAREA", tag)
	}
	if n := run(t, ctx, "count radios", chromedp.Evaluate[int](`document.querySelectorAll('input[type=radio][name=contact]').length`)); n != 2 {
		t.Fatalf("%d radio buttons, want 2", n)
	}
	if !run(t, ctx, "phone hidden", chromedp.Evaluate[bool](`document.getElementById("field-phone").hidden`)) {
		t.Error("phone shown before Yes is checked")
	}
	run(t, ctx, "check Yes", chromedp.Click(chromedp.CSS("#in-contact-1")))
	run(t, ctx, "phone appears", chromedp.WaitVisible(chromedp.CSS("#in-phone")))
	run(t, ctx, "type the phone", chromedp.SendKeys(chromedp.CSS("#in-phone"), "+45 12345678"))
	run(t, ctx, "type comments", chromedp.SendKeys(chromedp.CSS("#in-comments"), "line one\nline two"))
	run(t, ctx, "submit", chromedp.Click(chromedp.CSS("#submit")))
	run(t, ctx, "read the submission id", chromedp.Text(chromedp.CSS("#submission-id")))
	subs := testkit.Core(s).Forms.Submissions(f.ExternalID)
	if len(subs) != 1 {
		t.Fatalf("%d submissions stored, want 1", len(subs))
	}
	// Browsers send a textarea's line breaks as CRLF (the HTML form
	// submission rules); the mock keeps the answer as sent.
	want := map[string]string{"contact": "yes", "phone": "+45 12345678", "comments": "line one\r\nline two"}
	for _, a := range subs[0].Answers(f.ExternalID).Sections[0].Answers {
		if w, ok := want[a.Name]; ok && a.Value != w {
			t.Errorf("%s = %q, want %q", a.Name, a.Value, w)
		}
		delete(want, a.Name)
	}
	if len(want) != 0 {
		t.Errorf("answers missing: %v", want)
	}
}
