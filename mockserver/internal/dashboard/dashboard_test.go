package dashboard

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/signkit/signkit-go/mockserver/internal/signing"
	"github.com/signkit/signkit-go/mockserver/internal/webhook"
	"github.com/signkit/signkit-go/mockserver/internal/wire"
)

// fake is a dashboard over canned data that records what it was asked.
func fake(advanced *time.Duration, acted *string) *Dashboard {
	return New(Config{
		Emails:    func() []signing.Email { return []signing.Email{{To: "a@example.com", Subject: "<b>Hi</b>"}} },
		CaseFiles: func() []signing.CaseFileView { return nil },
		SignerAction: func(cf, sg int64, action string) error {
			if cf != 1 {
				return wire.NotFound("no case file %d", cf)
			}
			*acted = action
			return nil
		},
		Subscriptions: func() []webhook.View { return nil },
		Deliveries:    func() []webhook.Delivery { return nil },
		Replay:        func(string, string) error { return wire.NotFound("no such delivery") },
		Now:           func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) },
		Advance:       func(d time.Duration) { *advanced += d },
		MaxBodyBytes:  1 << 20,
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
	var advanced time.Duration
	var acted string
	d := fake(&advanced, &acted)
	for _, tc := range []struct {
		amount, unit string
		status       int
		moved        time.Duration
	}{
		{"90", "minutes", http.StatusSeeOther, 90 * time.Minute},
		{"1.5", "days", http.StatusSeeOther, 36 * time.Hour},
		{"0", "hours", http.StatusUnprocessableEntity, 0},
		{"-1", "hours", http.StatusUnprocessableEntity, 0},
		{"x", "hours", http.StatusUnprocessableEntity, 0},
		{"1", "weeks", http.StatusUnprocessableEntity, 0},
		{"101", "days", http.StatusSeeOther, 101 * 24 * time.Hour},
		{"40000", "days", http.StatusUnprocessableEntity, 0},
	} {
		advanced = 0
		rec := serve(t, d.HandleAdvance, post("/mock/ui/clock", url.Values{"amount": {tc.amount}, "unit": {tc.unit}}, nil))
		if rec.Code != tc.status || advanced != tc.moved {
			t.Errorf("advance %s %s: %d, moved %v; want %d and %v", tc.amount, tc.unit, rec.Code, advanced, tc.status, tc.moved)
		}
		if tc.status == http.StatusUnprocessableEntity && !strings.Contains(rec.Body.String(), `id="clock-error"`) {
			t.Errorf("advance %s %s: the 422 page does not say what is wrong", tc.amount, tc.unit)
		}
	}
}

func TestSignerActionAndReplayAnswer303WithTheOutcome(t *testing.T) {
	var advanced time.Duration
	var acted string
	d := fake(&advanced, &acted)
	rec := serve(t, d.HandleSignerAction, post("/x", nil, map[string]string{"id": "1", "signerId": "2", "action": "sign"}))
	if rec.Code != http.StatusSeeOther || acted != "sign" || !strings.HasPrefix(rec.Header().Get("Location"), "/mock/ui/casefiles?note=") {
		t.Fatalf("sign: %d %q, acted %q", rec.Code, rec.Header().Get("Location"), acted)
	}
	rec = serve(t, d.HandleSignerAction, post("/x", nil, map[string]string{"id": "9", "signerId": "2", "action": "sign"}))
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.Contains(loc, "error=1") || !strings.Contains(loc, "no+case+file+9") {
		t.Fatalf("unknown case file: %d %q", rec.Code, loc)
	}
	rec = serve(t, d.HandleSignerAction, post("/x", nil, map[string]string{"id": "x", "signerId": "2", "action": "sign"}))
	if rec.Code != http.StatusNotFound {
		t.Fatalf("a case file id that is not a number: %d", rec.Code)
	}
	rec = serve(t, d.HandleReplay, post("/x", url.Values{"subscriptionId": {"s"}, "eventId": {"e"}}, nil))
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || !strings.Contains(loc, "error=1") {
		t.Fatalf("replay of an unknown delivery: %d %q", rec.Code, loc)
	}
}

func TestViewsEscapeAndNote(t *testing.T) {
	var advanced time.Duration
	var acted string
	d := fake(&advanced, &acted)
	rec := serve(t, d.HandleInbox, httptest.NewRequest("GET", "/mock/ui?note=%3Cscript%3E&error=1", nil))
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, "&lt;b&gt;Hi&lt;/b&gt;") || strings.Contains(body, "<script>") ||
		!strings.Contains(body, `class="flash note-error"`) {
		t.Fatalf("inbox: %d\n%s", rec.Code, body)
	}
}
