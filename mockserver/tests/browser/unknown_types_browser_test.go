package browser_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/signkit/signkit-go/mockserver"
	"github.com/signkit/signkit-go/mockserver/internal/testkit"
)

// TestBrowserPublicFormUnknownType: a field of a type the mock does not know (a
// personal id of the vendor's form builder,
// https://github.com/signkit/signkit-go/blob/main/docs/platform.md#forms-collect--formsv1)
// is a text input a person types into; the answer comes back as text with its
// type.
func TestBrowserPublicFormUnknownType(t *testing.T) {
	t.Parallel()
	ctx := browser(t)
	s := mockserver.Start(t)
	tok := testkit.Login(t, s, testkit.Credentials(s.DefaultCredentials()))
	f := testkit.ActiveForm(t, s, tok, map[string]any{"name": "KYC", "storageFolderId": 42, "sections": []any{
		map[string]any{"slug": "you", "title": "You", "fields": []any{
			map[string]any{"name": "fullName", "label": "Full name", "type": "TEXT", "required": true, "mapTo": "primarySigner.name"},
			map[string]any{"name": "email", "label": "Email", "type": "EMAIL", "required": true, "mapTo": "primarySigner.email"},
			map[string]any{"name": "cpr", "label": "CPR number", "type": "NIN", "required": true, "mask": "######-####"},
		}}}})
	run(t, ctx, "open the page", chromedp.Navigate(f.PublicURL))
	run(t, ctx, "wait for the NIN input", chromedp.WaitVisible(chromedp.CSS(`#in-cpr`)))
	if typ := run(t, ctx, "read the input's type", chromedp.Evaluate[string](`document.getElementById("in-cpr").type`)); typ != "text" {
		t.Fatalf("the NIN input is of type %q, want text", typ)
	}
	run(t, ctx, "type the name", chromedp.SendKeys(chromedp.CSS("#in-fullName"), "Ann Browser"))
	run(t, ctx, "type the email", chromedp.SendKeys(chromedp.CSS("#in-email"), "ann@example.com"))
	run(t, ctx, "type the CPR number", chromedp.SendKeys(chromedp.CSS("#in-cpr"), "010190-1234"))
	run(t, ctx, "submit", chromedp.Click(chromedp.CSS("#submit")))
	if id := run(t, ctx, "read the submission id", chromedp.Text(chromedp.CSS("#submission-id"))); id != "1" {
		t.Fatalf("thank-you page says submission %q", id)
	}
	var answers struct {
		Sections []struct {
			Answers []struct{ Name, Type, Value string } `json:"answers"`
		} `json:"sections"`
	}
	if st, b := testkit.Call(t, s, "GET", "/collect/api/v1/forms/"+f.ExternalID+"/submissions/1/answers", tok, nil, &answers); st != 200 ||
		len(answers.Sections) != 1 || !strings.Contains(string(b), `{"name":"cpr","label":"CPR number","type":"NIN","value":"010190-1234"}`) {
		t.Fatalf("answers: %d %s", st, b)
	}
}
