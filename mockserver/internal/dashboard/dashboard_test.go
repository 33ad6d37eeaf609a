package dashboard

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhooks"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// recorder is what a fake dashboard was asked to do.
type recorder struct {
	advanced time.Duration
	acted    string
	emails   []signing.Email
}

// fake is a dashboard over canned data that records what it was asked:
// case file 1 has signer 2, whose every action but reject succeeds.
func fake(rec *recorder) *Dashboard {
	return New(Config{
		Emails: func() []signing.Email { return rec.emails },
		CaseFiles: func() []signing.CaseFileView {
			return []signing.CaseFileView{{ID: 1, CustomerID: 1, Title: "<i>Deal</i>", Status: "pending",
				Signers: []signing.SignerView{{ID: 2, Name: "Ann", Email: "ann@example.com", Status: "pending",
					Actions: []string{signing.ActionRequestOpened, signing.ActionOpen, signing.ActionSign, signing.ActionReject,
						signing.ActionBounce, signing.ActionUndeliverable, signing.ActionDelete}}}}}
		},
		SignerAction: func(cf, sg int64, action string) error {
			switch {
			case cf != 1:
				return wire.NotFound("no case file %d", cf)
			case sg != 2:
				return wire.NotFound("case file %d has no signer %d", cf, sg)
			case action == signing.ActionReject:
				return wire.Conflict("signer 2 is signed: reject is not possible")
			}
			rec.acted = action
			return nil
		},
		Subscriptions: func() []webhooks.View {
			return []webhooks.View{{ID: "s1", Endpoint: "http://example.com/hook", CustomerID: 1, EventTypes: []string{"sign.casefile.completed"}, IsActive: true}}
		},
		Deliveries: func() []webhooks.Delivery { return nil },
		Replay: func(sub, ev string) error {
			if ev != "e1" {
				return wire.NotFound("no delivery of event %s", ev)
			}
			return nil
		},
		Now:          func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) },
		Advance:      func(d time.Duration) { rec.advanced += d },
		MaxBodyBytes: 1 << 20,
	})
}

func serve(t *testing.T, h func(http.ResponseWriter, *http.Request) error, r *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	if err := h(rec, r); err != nil {
		wire.WriteError(rec, err)
	}
	return rec
}

func post(path string, form url.Values, pathValues map[string]string) *http.Request {
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range pathValues {
		r.SetPathValue(k, v)
	}
	return r
}

func TestAdvance(t *testing.T) {
	var rec recorder
	d := fake(&rec)
	for _, tc := range []struct {
		amount, unit string
		status       int
		moved        time.Duration
	}{
		{"90", "minutes", http.StatusSeeOther, 90 * time.Minute},
		{" 1.5 ", "days", http.StatusSeeOther, 36 * time.Hour},
		{"101", "days", http.StatusSeeOther, 101 * 24 * time.Hour},
		{"0", "hours", http.StatusUnprocessableEntity, 0},
		{"-1", "hours", http.StatusUnprocessableEntity, 0},
		{"x", "hours", http.StatusUnprocessableEntity, 0},
		{"", "hours", http.StatusUnprocessableEntity, 0},
		{"NaN", "hours", http.StatusUnprocessableEntity, 0},
		{"Inf", "hours", http.StatusUnprocessableEntity, 0},
		{"1e-12", "seconds", http.StatusUnprocessableEntity, 0},
		{"1", "weeks", http.StatusUnprocessableEntity, 0},
		{"1", "", http.StatusUnprocessableEntity, 0},
		{"40000", "days", http.StatusUnprocessableEntity, 0},
	} {
		rec.advanced = 0
		w := serve(t, d.HandleAdvance, post("/mock/ui/clock", url.Values{"amount": {tc.amount}, "unit": {tc.unit}}, nil))
		if w.Code != tc.status || rec.advanced != tc.moved {
			t.Errorf("advance %q %q: %d, moved %v; want %d and %v", tc.amount, tc.unit, w.Code, rec.advanced, tc.status, tc.moved)
		}
		if tc.status == http.StatusSeeOther && !strings.HasPrefix(w.Header().Get("Location"), "/mock/ui/clock?note=") {
			t.Errorf("advance %q %q: Location %q", tc.amount, tc.unit, w.Header().Get("Location"))
		}
		if tc.status == http.StatusUnprocessableEntity {
			body := w.Body.String()
			if !strings.Contains(body, `id="clock-error"`) || !strings.Contains(body, `aria-invalid="true"`) ||
				!strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
				t.Errorf("advance %q %q: the 422 page does not say what is wrong:\n%s", tc.amount, tc.unit, body)
			}
		}
	}
	// A body over the limit is bad input too, never a 500.
	big := post("/mock/ui/clock", url.Values{"amount": {strings.Repeat("1", 2<<20)}, "unit": {"hours"}}, nil)
	if w := serve(t, d.HandleAdvance, big); w.Code != http.StatusUnprocessableEntity || rec.advanced != 0 {
		t.Errorf("an oversized body: %d, moved %v", w.Code, rec.advanced)
	}
}

func TestSignerAction(t *testing.T) {
	for _, tc := range []struct {
		name, id, signer, action string
		status                   int
		location, body           string // what Location starts with, what the body holds
	}{
		{"sign", "1", "2", "sign", http.StatusSeeOther, "/mock/ui/casefiles?note=sign%3A+done", ""},
		{"a 409 comes back as a note", "1", "2", "reject", http.StatusSeeOther, "/mock/ui/casefiles?error=1&note=reject+for+signer+2", ""},
		{"unknown case file", "9", "2", "sign", http.StatusNotFound, "", "sign: no case file 9."},
		{"unknown signer", "1", "7", "sign", http.StatusNotFound, "", "sign: case file 1 has no signer 7."},
		{"not a number", "x", "2", "sign", http.StatusNotFound, "", "no case file &#34;x&#34;"},
		{"too large", "99999999999999999999", "2", "sign", http.StatusNotFound, "", "no case file"},
	} {
		var rec recorder
		w := serve(t, fake(&rec).HandleSignerAction, post("/x", nil, map[string]string{"id": tc.id, "signerId": tc.signer, "action": tc.action}))
		loc, body := w.Header().Get("Location"), w.Body.String()
		if w.Code != tc.status || !strings.HasPrefix(loc, tc.location) || !strings.Contains(body, tc.body) {
			t.Errorf("%s: %d %q\n%s", tc.name, w.Code, loc, body)
		}
		if tc.status == http.StatusNotFound && (!strings.Contains(body, `class="flash note-error"`) || !strings.Contains(body, `id="casefile-1"`)) {
			t.Errorf("%s: the 404 is not the case files view with the error:\n%s", tc.name, body)
		}
		if (rec.acted != "") != (tc.name == "sign") {
			t.Errorf("%s: acted %q", tc.name, rec.acted)
		}
	}
}

func TestReplay(t *testing.T) {
	var rec recorder
	d := fake(&rec)
	w := serve(t, d.HandleReplay, post("/x", url.Values{"subscriptionId": {"s1"}, "eventId": {"e1"}}, nil))
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.HasPrefix(loc, "/mock/ui/webhooks?note=Replay") || strings.Contains(loc, "error=1") {
		t.Errorf("replay: %d %q", w.Code, loc)
	}
	w = serve(t, d.HandleReplay, post("/x", url.Values{"subscriptionId": {"s1"}, "eventId": {"e2"}}, nil))
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.Contains(loc, "error=1") || !strings.Contains(loc, "no+delivery+of+event+e2") {
		t.Errorf("replay of an unknown delivery: %d %q", w.Code, loc)
	}
	w = serve(t, d.HandleReplay, post("/x", url.Values{"subscriptionId": {"s1"}}, nil))
	if w.Code != http.StatusUnprocessableEntity || !strings.Contains(w.Body.String(), "needs a form") {
		t.Errorf("replay without an event: %d\n%s", w.Code, w.Body.String())
	}
}

func TestViews(t *testing.T) {
	rec := recorder{emails: []signing.Email{{To: "a@example.com", Subject: "<b>Hi</b>", SigningLink: "javascript:alert(1)"}}}
	d := fake(&rec)
	w := serve(t, d.HandleInbox, httptest.NewRequest("GET", "/mock/ui?note=%3Cscript%3E&error=1", nil))
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "&lt;b&gt;Hi&lt;/b&gt;") || strings.Contains(body, "<script>") ||
		!strings.Contains(body, `class="flash note-error"`) || strings.Contains(body, "javascript:alert") ||
		!strings.Contains(body, `<a href="/mock/ui/emails" aria-current="page">`) {
		t.Fatalf("inbox: %d\n%s", w.Code, body)
	}
	for name, h := range map[string]func(http.ResponseWriter, *http.Request) error{
		"casefiles": d.HandleCaseFiles, "webhooks": d.HandleWebhooks, "clock": d.HandleClock,
	} {
		w := serve(t, h, httptest.NewRequest("GET", "/mock/ui/"+name, nil))
		if body := w.Body.String(); w.Code != 200 || !strings.Contains(body, `<a href="/mock/ui/`+name+`" aria-current="page">`) ||
			strings.Contains(body, "<i>Deal</i>") {
			t.Errorf("%s: %d\n%s", name, w.Code, body)
		}
	}
}

// The newest emails come first, and at most maxRows of them.
func TestInboxNewestFirstAndBounded(t *testing.T) {
	var rec recorder
	for i := range maxRows + 3 {
		rec.emails = append(rec.emails, signing.Email{To: "a@example.com", Subject: "mail " + strconv.Itoa(i)})
	}
	rec.emails[len(rec.emails)-1].Subject = "the newest"
	rec.emails[0].Subject = "the oldest"
	w := serve(t, fake(&rec).HandleInbox, httptest.NewRequest("GET", "/mock/ui", nil))
	body := w.Body.String()
	if n := strings.Count(body, `<tr class="email">`); n != maxRows || strings.Contains(body, "the oldest") ||
		!strings.Contains(body, "The newest 500 of 503.") {
		t.Fatalf("%d rows", n)
	}
	if first := strings.Index(body, `class="subject"`); !strings.HasPrefix(body[first:], `class="subject">the newest<`) {
		t.Fatalf("the newest email is not first")
	}
	if len(rec.emails) != maxRows+3 || rec.emails[0].Subject != "the oldest" {
		t.Fatal("the inbox changed the list it was given")
	}
}
